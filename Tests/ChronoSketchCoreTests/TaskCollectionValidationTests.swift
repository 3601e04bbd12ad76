import Testing

@testable import ChronoSketchCore

@Suite("TaskCollection validity")
struct TaskCollectionValidationTests {
    @Test("ids must be nonblank", arguments: ["", " ", "\t\n", "\u{00A0}\u{2003}"])
    func blankIDs(id: String) {
        #expect(rejectionCode { _ = try TaskCollection([Make.activity(id)]) } == .blankID)
        #expect(throws: TaskGanttError.blankID) {
            try GanttTask(id: id, title: "x", kind: .summary)
        }
    }

    @Test("ids must be unique")
    func duplicates() {
        let tasks = [Make.activity("a"), Make.summary("b"), Make.milestone("a", "2026-09-08")]
        #expect(throws: TaskGanttError.duplicateID(id: "a")) { try TaskCollection(tasks) }
    }

    @Test("progress must be finite and within 0…100", arguments: [-0.001, 100.001, .nan, .infinity, -.infinity])
    func progress(value: Double) {
        #expect(rejectionCode { _ = try TaskCollection([Make.activity("a", progress: value)]) } == .invalidProgress)
    }

    @Test("progress 0 and 100 are fine")
    func progressBounds() throws {
        let collection = try TaskCollection([Make.activity("a", progress: 0), Make.activity("b", progress: 100)])
        #expect(collection.count == 2)
    }

    @Test("a parent must exist and be a summary")
    func parents() {
        #expect(rejectionCode { _ = try TaskCollection([Make.activity("a", parent: "nobody")]) } == .invalidHierarchy)
        #expect(
            rejectionCode { _ = try TaskCollection([Make.activity("p"), Make.activity("a", parent: "p")]) }
                == .invalidHierarchy)
        #expect(
            rejectionCode {
                _ = try TaskCollection([Make.milestone("p", "2026-09-08"), Make.activity("a", parent: "p")])
            } == .invalidHierarchy)
    }

    @Test("a child may stand before its parent")
    func childBeforeParent() throws {
        let collection = try TaskCollection([
            Make.activity("a", parent: "g", "2026-09-08", "2026-09-10"), Make.summary("g"),
        ])
        #expect(collection.rows().map(\.id) == ["g", "a"])
        #expect(collection.summaryValues(of: "g")?.start == Make.date("2026-09-08"))
    }

    @Test("hierarchy cycles are rejected: self-parent and longer loops")
    func hierarchyCycles() {
        #expect(rejectionCode { _ = try TaskCollection([Make.summary("a", parent: "a")]) } == .invalidHierarchy)
        let loop = [Make.summary("a", parent: "c"), Make.summary("b", parent: "a"), Make.summary("c", parent: "b")]
        #expect(rejectionCode { _ = try TaskCollection(loop) } == .invalidHierarchy)
        let rooted = [Make.summary("r"), Make.summary("a", parent: "r"), Make.summary("b", parent: "a")]
        #expect(rejectionCode { _ = try TaskCollection(rooted) } == nil)
    }

    @Test("dependency endpoints must exist, differ and not be summaries")
    func dependencyEndpoints() {
        let tasks = [Make.activity("a"), Make.activity("b"), Make.summary("g"), Make.milestone("m", "2026-09-08")]
        for bad in [
            Make.link("a", "zzz"), Make.link("zzz", "a"), Make.link("a", "a"), Make.link("a", "g"),
            Make.link("g", "b"),
        ] {
            #expect(rejectionCode { _ = try TaskCollection(tasks, dependencies: [bad]) } == .invalidDependency)
        }
        // Unscheduled activities and milestones are fine endpoints; dates may run backwards.
        #expect(
            rejectionCode { _ = try TaskCollection(tasks, dependencies: [Make.link("a", "m"), Make.link("m", "b")]) }
                == nil)
    }

    @Test("dates may overlap or run backwards across a dependency")
    func backwardsDates() throws {
        let tasks = [
            Make.activity("late", "2026-10-01", "2026-10-05"), Make.activity("early", "2026-09-01", "2026-09-02"),
        ]
        let collection = try TaskCollection(tasks, dependencies: [Make.link("late", "early")])
        #expect(collection.dependencies.count == 1)
    }

    @Test("duplicate dependencies and cycles are rejected")
    func dependencyDuplicatesAndCycles() {
        let tasks = ["a", "b", "c"].map { Make.activity($0) }
        #expect(
            rejectionCode { _ = try TaskCollection(tasks, dependencies: [Make.link("a", "b"), Make.link("a", "b")]) }
                == .duplicateDependency)
        #expect(
            rejectionCode { _ = try TaskCollection(tasks, dependencies: [Make.link("a", "b"), Make.link("b", "a")]) }
                == .dependencyCycle)
        let triangle = [Make.link("a", "b"), Make.link("b", "c"), Make.link("c", "a")]
        #expect(rejectionCode { _ = try TaskCollection(tasks, dependencies: triangle) } == .dependencyCycle)
        let diamond = [Make.link("a", "b"), Make.link("a", "c"), Make.link("b", "c")]
        #expect(rejectionCode { _ = try TaskCollection(tasks, dependencies: diamond) } == nil)
    }
}
