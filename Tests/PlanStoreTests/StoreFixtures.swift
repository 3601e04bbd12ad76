import ChronoSketchCore
import PlanStore
import PlanTestSupport

/// Plans and mutations for the store tests.
enum StoreFixtures {
    /// The shared demo plan (`Demo`, PlanTestSupport) with the values the store's round trips
    /// need and the server tests' exact assertions do not have: a title with quotes, a
    /// fractional progress, an entry booked in both rooms.
    static let demo: PlanDocument = {
        let plain = Demo.document
        let tasks = plain.state.tasks.tasks.map { task -> GanttTask in
            switch task.id {
            case "spec": task.with(title: #"Spec "v1""#).with(kind: .activity(schedule: task.schedule, progress: 37.5))
            case "build": task.with(kind: .activity(schedule: task.schedule, progress: 10))
            default: task
            }
        }
        let timeline = plain.state.timeline
        let retro = try! timeline.entry("e2")!.with(
            start: Demo.time("2026-09-10T14:00"), end: Demo.time("2026-09-10T15:00"))
        let assignments = [
            timeline.assignment("a1")!,
            try! TimelineAssignment(id: "a2", entryID: "e1", resourceID: "room-2"),
            try! TimelineAssignment(id: "a3", entryID: "e2", resourceID: "room-2"),
        ]
        let state = PlanState(
            tasks: try! TaskCollection(tasks, dependencies: plain.state.tasks.dependencies),
            timeline: try! TimelineData(
                resources: timeline.resources, entries: [timeline.entry("e1")!, retro], assignments: assignments))
        return PlanDocument(title: "Demo plan", state: state)
    }()

    /// Stores a copy of `StoreFixtures.demo` under a fresh id (starting with `prefix`) in the tests' database.
    static func newDemoPlan(_ prefix: String) throws -> String {
        let id = TestDatabase.unique(prefix)
        try TestDatabase.store.createPlan(id: id, document: StoreFixtures.demo)
        return id
    }

    /// Applies `operation` to `state` and returns the mutation to commit.
    static func mutation(
        _ operation: PlanOperation, on state: inout PlanState, id: String, user: String = "tester"
    ) throws -> CommittedMutation {
        let change = try state.apply(operation)
        return CommittedMutation(
            proposalID: id, user: user, operation: operation, change: change,
            changesJSON: #"{"op":"\#(operation.typeName)"}"#)
    }
}
