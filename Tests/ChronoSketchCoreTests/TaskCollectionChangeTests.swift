import Testing

@testable import ChronoSketchCore

@Suite("TaskCollection confirmations")
struct TaskCollectionChangeTests {
    static let plan: TaskCollection = try! TaskCollection(
        [
            Make.summary("phase1"),
            Make.activity("design", parent: "phase1", "2026-09-08", "2026-09-10", progress: 50),
            Make.activity("build", parent: "phase1", "2026-09-10", "2026-09-20", progress: 0),
            Make.summary("phase2"),
            Make.milestone("release", parent: "phase2", "2026-10-01"),
            Make.activity("loose"),
        ],
        dependencies: [Make.link("design", "build"), Make.link("build", "release")])

    // MARK: replace

    @Test("replace keeps the slot, updates derived values and reports the change")
    func replace() throws {
        var plan = Self.plan
        let previous = plan["design"]!
        let proposed = Make.activity("design", parent: "phase1", "2026-09-01", "2026-09-10", progress: 100)
        let change = try plan.replace(previous: previous, proposed: proposed)
        #expect(plan.tasks[1] == proposed)
        #expect(change.upserted == [proposed])
        #expect(change.changedSummaryIDs == ["phase1"])
        #expect(plan.summaryValues(of: "phase1")?.start == Make.date("2026-09-01"))
        #expect(plan.summaryValues(of: "phase1")?.progress == 50)
        #expect(plan.dependencies == Self.plan.dependencies)
        #expect(try Self.plan.replacing(previous: previous, proposed: proposed) == plan)
    }

    @Test("replace rejects a stale or removed original and leaves the data unchanged")
    func staleReplace() throws {
        var plan = Self.plan
        let stale = Make.activity("design", parent: "phase1", "2026-09-08", "2026-09-10", progress: 40)
        #expect(throws: TaskGanttError.staleTask(id: "design")) {
            try plan.replace(previous: stale, proposed: stale.with(title: "x"))
        }
        let gone = Make.activity("ghost")
        #expect(throws: TaskGanttError.staleTask(id: "ghost")) {
            try plan.replace(previous: gone, proposed: gone.with(title: "x"))
        }
        #expect(plan == Self.plan)
    }

    @Test("replace must keep the id")
    func identity() {
        var plan = Self.plan
        let previous = plan["loose"]!
        #expect(
            rejectionCode { try plan.replace(previous: previous, proposed: Make.activity("other")) } == .identityChanged
        )
        #expect(plan == Self.plan)
    }

    @Test("a no-op replace returns equal data and says so")
    func noopReplace() throws {
        var plan = Self.plan
        let change = try plan.replace(previous: plan["build"]!, proposed: plan["build"]!)
        #expect(change.isNoop)
        #expect(plan == Self.plan)
    }

    @Test("a kind change that turns a dependency endpoint into a summary is rejected")
    func kindChangeInvalidatesDependency() {
        var plan = Self.plan
        let build = plan["build"]!
        #expect(
            rejectionCode { try plan.replace(previous: build, proposed: build.with(kind: .summary)) }
                == .invalidDependency)
        #expect(plan == Self.plan)
        // Without dependencies the same change is fine.
        let loose = plan["loose"]!
        #expect(rejectionCode { try plan.replace(previous: loose, proposed: loose.with(kind: .summary)) } == nil)
        #expect(plan.summaryValues(of: "loose") == SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0))
    }

    @Test("a summary with children must stay a summary")
    func summaryWithChildren() {
        var plan = Self.plan
        let phase1 = plan["phase1"]!
        #expect(
            rejectionCode {
                try plan.replace(
                    previous: phase1, proposed: phase1.with(kind: .milestone(date: Make.date("2026-09-01"))))
            } == .invalidHierarchy)
    }

    @Test("changing group moves the subtree and recomputes both groups")
    func changeGroup() throws {
        var plan = try TaskCollection([
            Make.summary("a"), Make.summary("b"), Make.summary("inner", parent: "a"),
            Make.activity("x", parent: "inner", "2026-09-01", "2026-09-03", progress: 80),
            Make.activity("y", parent: "a", "2026-10-01", "2026-10-02", progress: 20),
        ])
        let inner = plan["inner"]!
        let change = try plan.replace(previous: inner, proposed: inner.with(parentID: "b"))
        #expect(Set(change.changedSummaryIDs) == ["a", "b"])
        #expect(plan.rows().map(\.id) == ["a", "y", "b", "inner", "x"])
        #expect(
            plan.summaryValues(of: "a")
                == SummaryValues(
                    start: Make.date("2026-10-01"), end: Make.date("2026-10-02"), lastDate: Make.date("2026-10-01"),
                    progress: 20))
        #expect(plan.summaryValues(of: "b")?.progress == 80)
        #expect(plan.summaryValues(of: "b")?.start == Make.date("2026-09-01"))
        #expect(plan.summaries == (try TaskCollection(plan.tasks, dependencies: plan.dependencies)).summaries)
    }

    @Test("a group change into the task's own subtree or onto a non-summary is rejected")
    func badGroupChange() throws {
        var plan = try TaskCollection([
            Make.summary("a"), Make.summary("b", parent: "a"), Make.summary("c", parent: "b"), Make.activity("t"),
        ])
        let before = plan
        let a = plan["a"]!
        #expect(rejectionCode { try plan.replace(previous: a, proposed: a.with(parentID: "c")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.replace(previous: a, proposed: a.with(parentID: "a")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.replace(previous: a, proposed: a.with(parentID: "t")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.replace(previous: a, proposed: a.with(parentID: "zz")) } == .invalidHierarchy)
        #expect(plan == before)
    }

    @Test("invalid proposed values are rejected with their code")
    func invalidValues() {
        var plan = Self.plan
        let design = plan["design"]!
        let tooMuch = design.with(kind: .activity(schedule: design.schedule, progress: 101))
        #expect(rejectionCode { try plan.replace(previous: design, proposed: tooMuch) } == .invalidProgress)
        #expect(plan == Self.plan)
    }

    // MARK: add

    @Test("add appends at the end and recomputes the parent")
    func add() throws {
        var plan = Self.plan
        let task = Make.activity("qa", parent: "phase2", "2026-09-25", "2026-09-28", progress: 10)
        let change = try plan.add(task)
        #expect(plan.tasks.last == task)
        #expect(change.changedSummaryIDs == ["phase2"])
        #expect(plan.summaryValues(of: "phase2")?.start == Make.date("2026-09-25"))
        #expect(plan.summaryValues(of: "phase2")?.progress == 10)
        #expect(plan.dependencies == Self.plan.dependencies)
    }

    @Test("add rejects duplicate ids and missing or non-summary parents")
    func badAdd() {
        var plan = Self.plan
        #expect(rejectionCode { try plan.add(Make.activity("design")) } == .duplicateID)
        #expect(rejectionCode { try plan.add(Make.activity("n", parent: "nope")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.add(Make.activity("n", parent: "loose")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.add(Make.summary("n", parent: "n")) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.add(Make.activity(" ")) } == .blankID)
        #expect(plan == Self.plan)
    }

    @Test("adding a summary reports it as new")
    func addSummary() throws {
        var plan = Self.plan
        let change = try plan.add(Make.summary("phase3"))
        #expect(change.changedSummaryIDs == ["phase3"])
        #expect(plan.summaryValues(of: "phase3")?.progress == 0)
    }

    // MARK: reorder

    @Test("reorder permutes only sibling slots; a summary's children stay where they are")
    func reorderSummaryWithChildrenBetween() throws {
        // Input order: g1, c1 (child of g1), r, g2, c2 (child of g2), s
        let plan = try TaskCollection([
            Make.summary("g1"), Make.activity("c1", parent: "g1"), Make.activity("r"), Make.summary("g2"),
            Make.activity("c2", parent: "g2"), Make.activity("s"),
        ])
        let moved = try plan.reordering(previous: plan["g1"]!, relativeTo: plan["s"]!, position: .after)
        // Root slots 0, 2, 3, 5 now hold r, g2, s, g1; child slots 1 and 4 are untouched.
        #expect(moved.tasks.map(\.id) == ["r", "c1", "g2", "s", "c2", "g1"])
        #expect(moved.rows().map(\.id) == ["r", "g2", "c2", "s", "g1", "c1"])
        let back = try moved.reordering(previous: moved["g1"]!, relativeTo: moved["r"]!, position: .before)
        #expect(back.tasks.map(\.id) == ["g1", "c1", "r", "g2", "c2", "s"])
    }

    @Test("the adjacent no-op reorder returns equal data and says so")
    func adjacentNoop() throws {
        var plan = Self.plan
        let change = try plan.reorder(previous: plan["design"]!, relativeTo: plan["build"]!, position: .before)
        #expect(change.isNoop)
        #expect(plan == Self.plan)
        let change2 = try plan.reorder(previous: plan["build"]!, relativeTo: plan["design"]!, position: .after)
        #expect(change2.isNoop)
        let real = try plan.reorder(previous: plan["design"]!, relativeTo: plan["build"]!, position: .after)
        #expect(real.orderChanged && real.changedSummaryIDs.isEmpty && real.upserted.isEmpty)
        #expect(plan.childIDs(of: "phase1") == ["build", "design"])
        #expect(real.movedIDs == ["build", "design"])
    }

    @Test("reorder rejects stale values, self targets and cross-parent targets")
    func badReorder() {
        var plan = Self.plan
        let design = plan["design"]!
        let edited = design.with(title: "renamed")
        #expect(
            rejectionCode { try plan.reorder(previous: edited, relativeTo: plan["build"]!, position: .after) }
                == .staleTask)
        #expect(
            rejectionCode { try plan.reorder(previous: design, relativeTo: edited, position: .after) } == .staleTask)
        #expect(
            rejectionCode { try plan.reorder(previous: design, relativeTo: design, position: .after) }
                == .invalidHierarchy)
        #expect(
            rejectionCode { try plan.reorder(previous: design, relativeTo: plan["loose"]!, position: .after) }
                == .invalidHierarchy)
        #expect(plan == Self.plan)
    }

    @Test("a changed sibling order alone does not invalidate a before/after intention")
    func orderChangeIsNotStale() throws {
        var plan = try TaskCollection(["a", "b", "c", "d"].map { Make.activity($0) })
        let a = plan["a"]!
        let d = plan["d"]!
        try plan.reorder(previous: plan["b"]!, relativeTo: plan["c"]!, position: .after)
        try plan.reorder(previous: a, relativeTo: d, position: .after)
        #expect(plan.tasks.map(\.id) == ["c", "b", "d", "a"])
    }

    // MARK: remove

    @Test("remove takes the task and its dependencies and recomputes its group")
    func remove() throws {
        var plan = Self.plan
        let change = try plan.remove(previous: plan["build"]!)
        #expect(plan["build"] == nil)
        #expect(plan.dependencies.isEmpty)
        #expect(change.removed == ["build"] && change.dependenciesChanged)
        #expect(plan.summaryValues(of: "phase1")?.end == Make.date("2026-09-10"))
        #expect(plan.tasks.map(\.id) == ["phase1", "design", "phase2", "release", "loose"])
        #expect(plan.summaries == (try TaskCollection(plan.tasks, dependencies: plan.dependencies)).summaries)
        #expect(try plan.add(Make.activity("build", parent: "phase1")).upserted.count == 1)
    }

    @Test("remove rejects stale originals and tasks with children")
    func badRemove() {
        var plan = Self.plan
        #expect(rejectionCode { try plan.remove(previous: plan["phase1"]!) } == .invalidHierarchy)
        #expect(rejectionCode { try plan.remove(previous: Make.activity("loose", progress: 5)) } == .staleTask)
        #expect(plan == Self.plan)
    }

    // MARK: link / unlink

    @Test("link appends; unlink removes; both report a dependency change")
    func linkAndUnlink() throws {
        var plan = Self.plan
        #expect(try plan.link(Make.link("loose", "design")).dependenciesChanged)
        #expect(plan.dependencies.last == Make.link("loose", "design"))
        #expect(try plan.unlink(Make.link("design", "build")).dependenciesChanged)
        #expect(plan.dependencies == [Make.link("build", "release"), Make.link("loose", "design")])
    }

    @Test("link and unlink reject what the rules forbid")
    func badLinks() {
        var plan = Self.plan
        #expect(rejectionCode { try plan.link(Make.link("design", "build")) } == .duplicateDependency)
        #expect(rejectionCode { try plan.link(Make.link("release", "design")) } == .dependencyCycle)
        #expect(rejectionCode { try plan.link(Make.link("design", "design")) } == .invalidDependency)
        #expect(rejectionCode { try plan.link(Make.link("design", "phase2")) } == .invalidDependency)
        #expect(rejectionCode { try plan.link(Make.link("design", "ghost")) } == .invalidDependency)
        #expect(rejectionCode { try plan.unlink(Make.link("build", "design")) } == .staleDependency)
        #expect(plan == Self.plan)
    }
}
