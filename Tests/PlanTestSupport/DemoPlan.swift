import ChronoSketchCore

/// The demo plan, the one sample plan of the tests that need a database (store and server):
/// Design → Implementation → Release, with groups, dependencies, a milestone and a timeline of
/// two rooms.
public enum Demo {
    public static func date(_ text: String) -> CivilDate { try! CivilDate(text) }
    public static func time(_ text: String) -> LocalDateTime { try! LocalDateTime(text) }

    public static let document: PlanDocument = {
        let tasks = [
            try! GanttTask(id: "design", title: "Design", kind: .summary),
            try! GanttTask(
                id: "spec", title: "Spec", parentID: "design",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-08"), days: 3), progress: 20)),
            try! GanttTask(
                id: "review", title: "Review", parentID: "design", kind: .activity(schedule: nil, progress: 0)),
            try! GanttTask(id: "impl", title: "Implementation", kind: .summary),
            try! GanttTask(
                id: "build", title: "Build", parentID: "impl",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-11"), days: 10), progress: 0)),
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
                id: "e2", title: "Retro", start: time("2026-09-20T14:00"), end: time("2026-09-20T15:00")),
        ]
        let assignments = [
            try! TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-1"),
            try! TimelineAssignment(id: "a2", entryID: "e2", resourceID: "room-2"),
        ]
        return PlanDocument(
            title: "Demo",
            state: PlanState(
                tasks: try! TaskCollection(tasks, dependencies: dependencies),
                timeline: try! TimelineData(resources: resources, entries: entries, assignments: assignments)))
    }()
}
