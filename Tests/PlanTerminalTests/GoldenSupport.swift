import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Compares text with `Golden/NAME.txt` beside the tests; writes the file when it is missing or
/// `UPDATE_GOLDEN=1` is set (then review the diff).
func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Golden"
    let path = directory + "/" + name + ".txt"
    let update = getenv("UPDATE_GOLDEN").map { String(cString: $0) == "1" } ?? false
    if !update, let bytes = try? readAll(path) {
        let expected = String(decoding: bytes, as: UTF8.self)
        #expect(text == expected, "golden \(name) differs:\n\(text)", sourceLocation: sourceLocation)
        return
    }
    mkdir(directory, 0o755)
    guard let file = fopen(path, "wb") else {
        Issue.record("cannot write \(path)", sourceLocation: sourceLocation)
        return
    }
    fputs(text, file)
    fclose(file)
    // A golden that was missing is written but does not pass: a misspelt or lost file must show.
    if !update {
        Issue.record("golden \(name) was missing and has been written; review it", sourceLocation: sourceLocation)
    }
}

/// The demo plan of the server tests: Design → Implementation → Release.
enum Sample {
    static func date(_ text: String) -> CivilDate { try! CivilDate(text) }

    static let tasks: [GanttTask] = [
        try! GanttTask(id: "design", title: "Design", kind: .summary),
        try! GanttTask(
            id: "spec", title: "Spec", parentID: "design",
            kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-08"), days: 3), progress: 20)),
        try! GanttTask(id: "review", title: "Review", parentID: "design", kind: .activity(schedule: nil, progress: 0)),
        try! GanttTask(id: "impl", title: "Implementation", kind: .summary),
        try! GanttTask(
            id: "build", title: "Build", parentID: "impl",
            kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-11"), days: 10), progress: 50)),
        try! GanttTask(id: "release", title: "Release", kind: .milestone(date: date("2026-10-01"))),
    ]
    static let dependencies = [
        TaskDependency(predecessorID: "spec", successorID: "build"),
        TaskDependency(predecessorID: "build", successorID: "release"),
    ]
    static let collection = try! TaskCollection(tasks, dependencies: dependencies)

    /// A plan around the turn of 2020/2021 (2021-01-01 is in ISO week 53 of 2020).
    static let turnCollection = try! TaskCollection(
        [
            try! GanttTask(
                id: "holiday", title: "Holiday",
                kind: .activity(schedule: try! TaskSchedule(start: date("2020-12-24"), days: 14), progress: 100)),
            try! GanttTask(id: "new-year", title: "New year", kind: .milestone(date: date("2021-01-01"))),
            try! GanttTask(
                id: "plan", title: "Planning 2021",
                kind: .activity(schedule: try! TaskSchedule(start: date("2021-01-04"), days: 5), progress: 40)),
        ],
        dependencies: [TaskDependency(predecessorID: "new-year", successorID: "plan")])

    /// A plan around the turn of 2025/2026 (2025-12-29 to 2026-01-04 is ISO week 1 of 2026).
    static let forwardTurnCollection = try! TaskCollection(
        [
            try! GanttTask(id: "close", title: "Year-end close", kind: .summary),
            try! GanttTask(
                id: "books", title: "Books", parentID: "close",
                kind: .activity(schedule: try! TaskSchedule(start: date("2025-12-29"), days: 4), progress: 75)),
            try! GanttTask(id: "audit", title: "Audit", kind: .milestone(date: date("2026-01-05"))),
        ],
        dependencies: [TaskDependency(predecessorID: "books", successorID: "audit")])

    /// Successors that start on or before their predecessors' ends: Backlog right below Analysis
    /// (no row between: the way back is hidden behind Analysis's own bar), Coding three rows below
    /// (turns on Review's free row), and Wrap-up above Coding (upwards; Analysis's bar takes every
    /// column before Wrap-up's start, so the arrow turns on Review's row, the only one free, and
    /// comes in from the chart's left edge: it crosses no other row's bar).
    static let overlapCollection = try! TaskCollection(
        [
            try! GanttTask(
                id: "wrap", title: "Wrap-up",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-12"), days: 2), progress: 0)),
            try! GanttTask(
                id: "analysis", title: "Analysis",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-07"), days: 5), progress: 100)),
            try! GanttTask(
                id: "backlog", title: "Backlog",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-09"), days: 3), progress: 0)),
            try! GanttTask(id: "review", title: "Review", kind: .milestone(date: date("2026-09-25"))),
            try! GanttTask(
                id: "coding", title: "Coding",
                kind: .activity(schedule: try! TaskSchedule(start: date("2026-09-10"), days: 4), progress: 50)),
        ],
        dependencies: [
            TaskDependency(predecessorID: "analysis", successorID: "backlog"),
            TaskDependency(predecessorID: "analysis", successorID: "coding"),
            TaskDependency(predecessorID: "coding", successorID: "wrap"),
        ])

    /// The copy a subscription to "demo" holds; `role` as its snapshot names it (nil: not said).
    static func copy(
        _ collection: TaskCollection = collection, title: String = "Demo", version: Int = 3, role: PlanRole? = nil
    ) -> ClientPlanCopy {
        ClientPlanCopy(
            PlanSnapshot(
                plan: "demo", version: version, title: title, tasks: collection.tasks,
                dependencies: collection.dependencies,
                resources: [try! TimelineResource(id: "room-1", label: "Room 1")], summaries: collection.summaries,
                role: role))
    }
}
