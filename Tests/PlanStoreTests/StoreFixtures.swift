import ChronoSketchCore
import PlanStore
import PlanTestSupport

/// Sample plans for the store tests.
enum StoreFixtures {
    static func date(_ text: String) -> CivilDate { try! CivilDate(text) }
    static func time(_ text: String) -> LocalDateTime { try! LocalDateTime(text) }

    /// Design → Implementation → Release with groups, a milestone, dependencies and a timeline.
    static let demo: PlanDocument = {
        let tasks = [
            try! GanttTask(id: "design", title: "Design", kind: .summary),
            try! GanttTask(
                id: "spec", title: "Spec \"v1\"", parentID: "design",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-08"), days: 3), progress: 37.5)),
            try! GanttTask(
                id: "review", title: "Review", parentID: "design", kind: .activity(schedule: nil, progress: 0)),
            try! GanttTask(id: "impl", title: "Implementation", kind: .summary),
            try! GanttTask(
                id: "build", title: "Build", parentID: "impl",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-11"), days: 10), progress: 10)),
            try! GanttTask(id: "release", title: "Release", kind: .milestone(date: date("2026-10-01"))),
        ]
        let dependencies = [
            TaskDependency(predecessorID: "spec", successorID: "build"),
            TaskDependency(predecessorID: "build", successorID: "release"),
        ]
        let resources = [
            try! TimelineResource(id: "room-1", label: "Room 1"), try! TimelineResource(id: "room-2", label: "Room 2"),
        ]
        let entries = [
            try! TimelineEntry(
                id: "e1", title: "Workshop", start: time("2026-09-09T09:00"), end: time("2026-09-09T12:30")),
            try! TimelineEntry(
                id: "e2", title: "Retro", start: time("2026-09-10T14:00"), end: time("2026-09-10T15:00")),
        ]
        let assignments = [
            try! TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-1"),
            try! TimelineAssignment(id: "a2", entryID: "e1", resourceID: "room-2"),
            try! TimelineAssignment(id: "a3", entryID: "e2", resourceID: "room-2"),
        ]
        let state = PlanState(
            tasks: try! TaskCollection(tasks, dependencies: dependencies),
            timeline: try! TimelineData(resources: resources, entries: entries, assignments: assignments))
        return PlanDocument(title: "Demo plan", state: state)
    }()

    /// Stores a copy of `demo` under a fresh id (starting with `prefix`) in the tests' database.
    static func newDemoPlan(_ prefix: String) throws -> String {
        let id = TestDatabase.unique(prefix)
        try TestDatabase.store.createPlan(id: id, document: demo)
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
