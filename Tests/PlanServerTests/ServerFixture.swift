import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport

/// A fresh plan with an editor, a viewer and an owner, for one test.
struct PlanFixture {
    let plan: String
    let editor: String
    let editorToken: String
    let viewerToken: String
    let strangerToken: String
    let document: PlanDocument
    /// The store the plan and its users live in.
    let store: PlanStore

    static func make(_ document: PlanDocument = Demo.document, store: PlanStore = TestDatabase.store) throws
        -> PlanFixture
    {
        let plan = TestDatabase.unique("plan")
        try store.createPlan(id: plan, document: document)
        let editor = TestDatabase.unique("editor")
        let editorToken = try store.createUser(editor)
        try store.grant(user: editor, plan: plan, role: .editor)
        let viewer = TestDatabase.unique("viewer")
        let viewerToken = try store.createUser(viewer)
        try store.grant(user: viewer, plan: plan, role: .viewer)
        let strangerToken = try store.createUser(TestDatabase.unique("stranger"))
        return PlanFixture(
            plan: plan, editor: editor, editorToken: editorToken, viewerToken: viewerToken,
            strangerToken: strangerToken, document: document, store: store)
    }

    /// Another user with `role` on this plan.
    func user(_ role: PlanRole) throws -> String {
        let name = TestDatabase.unique(role.rawValue)
        let token = try store.createUser(name)
        try store.grant(user: name, plan: plan, role: role)
        return token
    }
}

/// The demo plan: Design → Implementation → Release, with groups, a milestone and a timeline.
enum Demo {
    static func date(_ text: String) -> CivilDate { try! CivilDate(text) }
    static func time(_ text: String) -> LocalDateTime { try! LocalDateTime(text) }

    static let document: PlanDocument = {
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
