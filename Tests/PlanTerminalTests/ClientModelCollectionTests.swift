import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Terminal: the collection follows the confirmed copy")
struct ClientModelCollectionTests {
    @Test("after each confirmed change the incrementally kept collection equals one built anew", arguments: 1...4)
    func followsCopy(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var state = PlanState(
            tasks: try TaskCollection([
                try GanttTask(id: "g", title: "G", kind: .summary),
                try GanttTask(id: "h", title: "H", kind: .summary),
                try GanttTask(id: "a", title: "A", parentID: "g", kind: .activity(schedule: nil, progress: 10)),
            ]))
        var copy = ClientPlanCopy(PlanSnapshot(plan: "p", version: 0, document: PlanDocument(title: "P", state: state)))
        var collection: TaskCollection? = try TaskCollection(copy.tasks, dependencies: copy.dependencies)
        var version = 0
        for step in 0..<200 {
            let tasks = state.tasks.tasks
            let task = tasks[Int.random(in: 0..<tasks.count, using: &random)]
            let groups = tasks.filter { $0.kind.isSummary }.map(\.id)
            let operation: PlanOperation
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                operation = .add(
                    try GanttTask(
                        id: "n\(step)", title: "N", parentID: groups.randomElement(using: &random),
                        kind: Bool.random(using: &random) ? .summary : .activity(schedule: nil, progress: 5)))
            case 1:
                operation = .replace(
                    previous: task, proposed: task.with(parentID: groups.randomElement(using: &random)))
            case 2 where task.progress != nil:
                operation = .replace(
                    previous: task,
                    proposed: task.with(
                        kind: .activity(
                            schedule: try TaskSchedule(
                                start: CivilDate("2026-09-01").adding(days: step % 40), days: 1 + step % 5),
                            progress: Double(step % 101))))
            case 3:
                let siblings = tasks.filter { $0.parentID == task.parentID && $0.id != task.id }
                guard let target = siblings.randomElement(using: &random) else { continue }
                operation = .reorder(previous: task, relativeTo: target, position: .after)
            default:
                operation = .replace(previous: task, proposed: task.with(title: "T\(step)"))
            }
            guard let change = try? state.apply(operation), !change.isNoop else { continue }
            version += 1
            let previous = copy
            try copy.apply(version: version, changes: PlanChanges(after: state, change: change))
            collection = try ClientModel.collection(following: previous, collection, to: copy)
            let fresh = try TaskCollection(copy.tasks, dependencies: copy.dependencies)
            #expect(collection == fresh, "step \(step)")
            #expect(collection?.summaries == fresh.summaries, "step \(step)")
            #expect(collection?.rows() == fresh.rows(), "step \(step)")
        }
        #expect(version > 100)
    }
}
