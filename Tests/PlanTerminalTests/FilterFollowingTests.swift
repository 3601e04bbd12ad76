import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("The filter's rows follow a confirmed change for the tasks it touched")
struct FilterFollowingTests {
    /// A random tree of `count` tasks: each a summary (able to hold children) or an activity.
    static func randomTree(_ count: Int, using generator: inout some RandomNumberGenerator) throws -> TaskCollection {
        var tasks: [GanttTask] = []
        var summaries: [String] = []
        for index in 0..<count {
            let parent =
                summaries.isEmpty || Bool.random(using: &generator) ? nil : summaries.randomElement(using: &generator)
            let id = "t\(index)"
            if Int.random(in: 0..<3, using: &generator) == 0 {
                tasks.append(try GanttTask(id: id, title: id, parentID: parent, kind: .summary))
                summaries.append(id)
            } else {
                tasks.append(
                    try GanttTask(id: id, title: id, parentID: parent, kind: .activity(schedule: nil, progress: 0)))
            }
        }
        return try TaskCollection(tasks, dependencies: [])
    }

    /// The rows as comparable values: (position, depth) in row order.
    func rows(_ outline: TaskOutline) -> [[Int]] {
        (0..<outline.count).map { [outline.position(at: $0), outline.depth(at: $0)] }
    }

    @Test("randomized: toggling which tasks are kept and refiltering the touched equals a full rebuild")
    func randomizedAgainstRebuild() throws {
        var generator = SplitMix64(seed: 31)
        for _ in 0..<60 {
            let collection = try Self.randomTree(Int.random(in: 1...60, using: &generator), using: &generator)
            var kept = Set((0..<collection.count).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 })
            var outline = TaskOutline(collection) { kept.contains($0) }
            for _ in 0..<8 {
                let touched = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    Int.random(in: 0..<collection.count, using: &generator)
                }
                for position in touched where Bool.random(using: &generator) {
                    if kept.remove(position) == nil { kept.insert(position) }
                }
                let followed = outline.refilter(touched: touched, in: collection) { kept.contains($0) }
                #expect(followed)
                let rebuilt = TaskOutline(collection) { kept.contains($0) }
                #expect(rows(outline) == rows(rebuilt))
                #expect(
                    (0..<collection.count).allSatisfy { outline.index(ofPosition: $0) == rebuilt.index(ofPosition: $0) }
                )
            }
        }
    }

    @Test("a view's rows (not a filter's) are not refiltered")
    func notAFilter() {
        var outline = TaskOutline(Sample.collection)
        #expect(!outline.refilter(touched: [1], in: Sample.collection) { _ in true })
    }

    @Test("with the late filter on, a confirmed change of values updates the rows without a pass over the plan")
    func lateFollowsConfirmed() throws {
        var model = ClientModelTests().loaded(.english, height: 14)
        _ = model.handle(.key(.character("F")))
        _ = model.handle(.key(.character("l")))
        // Today is 2026-09-15: Spec (09-08 – 09-10, 20 %) is late, under Design.
        #expect(model.outline.allRows(in: try #require(model.shownCollection)).map(\.id) == ["design", "spec"])
        let passes = model.find.filterPasses
        let spec = Sample.collection["spec"]!
        let build = Sample.collection["build"]!
        let done = spec.with(kind: .activity(schedule: spec.schedule, progress: 100))
        let early = build.with(
            kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-01"), days: 3), progress: 50))
        _ = model.handle(ClientModelConflictTests.confirmed(4, PlanChanges(upsert: [done, early])))
        let shown = try #require(model.shownCollection)
        #expect(model.outline.allRows(in: shown).map(\.id) == ["impl", "build"])
        #expect(model.find.filterPasses == passes, "followed, not rebuilt")
        let rebuilt = TaskOutline(shown) {
            TaskFilter.late.keeps(shown.tasks[$0], today: Sample.date("2026-09-15"), ids: [])
        }
        #expect(rows(model.outline) == rows(rebuilt))
        #expect(model.selectedTask?.id == "impl" || model.selectedTask?.id == "build")
        // A structural change (a task added) is rebuilt in one pass.
        let added = try GanttTask(
            id: "late2", title: "Late too", kind: .activity(schedule: early.schedule, progress: 0))
        _ = model.handle(ClientModelConflictTests.confirmed(5, PlanChanges(upsert: [added])))
        #expect(model.outline.allRows(in: try #require(model.shownCollection)).map(\.id) == ["impl", "build", "late2"])
        #expect(model.find.filterPasses == passes + 1)
    }
}
