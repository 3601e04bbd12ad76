import ChronoSketchCore
import PlanProtocol
import Testing

/// Builders and helpers shared by the protocol tests.
enum Fixture {
    static func date(_ text: String) -> CivilDate { try! CivilDate(text) }

    static func at(_ text: String) -> LocalDateTime { try! LocalDateTime(text) }

    static func activity(
        _ id: String, title: String? = nil, parent: String? = nil, _ start: String? = nil, _ end: String? = nil,
        progress: Double = 0
    ) -> GanttTask {
        let schedule = start.map { try! TaskSchedule(start: date($0), end: date(end!)) }
        return try! GanttTask(
            id: id, title: title ?? id, parentID: parent, kind: .activity(schedule: schedule, progress: progress))
    }

    static func milestone(_ id: String, title: String? = nil, parent: String? = nil, _ day: String) -> GanttTask {
        try! GanttTask(id: id, title: title ?? id, parentID: parent, kind: .milestone(date: date(day)))
    }

    static func summary(_ id: String, title: String? = nil, parent: String? = nil) -> GanttTask {
        try! GanttTask(id: id, title: title ?? id, parentID: parent, kind: .summary)
    }

    static func entry(_ id: String, _ start: String, _ end: String, title: String? = nil) -> TimelineEntry {
        try! TimelineEntry(id: id, title: title ?? id, start: at(start), end: at(end))
    }

    static func assignment(_ id: String, _ entryID: String, _ resourceID: String) -> TimelineAssignment {
        try! TimelineAssignment(id: id, entryID: entryID, resourceID: resourceID)
    }

    static func query(_ start: String, _ end: String, _ resourceIDs: [String]) -> TimelineQuery {
        try! TimelineQuery(start: at(start), end: at(end), resourceIDs: resourceIDs)
    }

    /// The tasks of protocol.md §3.
    static let design = activity(
        "design", title: "Design", parent: "phase-1", "2026-09-08", "2026-09-10", progress: 25)
    static let spec = activity("spec", title: "Spec")
    static let release = milestone("release", title: "Release", "2026-10-01")
    static let phase1 = summary("phase-1", title: "Phase 1")
    static let build = activity("build", title: "Build", parent: "phase-1", "2026-09-10", "2026-09-20", progress: 50)

    /// The demo plan: the §3 tasks, `build`, a dependency, and the §3 timeline.
    static func demoState() -> PlanState {
        let tasks = try! TaskCollection(
            [design, spec, release, phase1, build],
            dependencies: [TaskDependency(predecessorID: "design", successorID: "build")])
        let timeline = try! TimelineData(
            resources: [
                try! TimelineResource(id: "room-1", label: "Room 1"),
                try! TimelineResource(id: "room-2", label: "Room 2"),
            ],
            entries: [entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop")],
            assignments: [assignment("a1", "e1", "room-1")])
        return PlanState(tasks: tasks, timeline: timeline)
    }

    static func demoDocument() -> PlanDocument {
        PlanDocument(title: "Demo", state: demoState())
    }
}

/// Parses JSON text that a test wrote.
func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        Issue.record("test JSON does not parse: \(error)", sourceLocation: sourceLocation)
        return .null
    }
}

/// Parses encoded bytes into an object's members.
func members(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
    guard case .object(let members)? = try? JSONValue(parsing: bytes) else {
        Issue.record("not a JSON object: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return [:]
    }
    return members
}

/// Decodes a client message, recording an issue when it fails.
func decoded(
    _ text: String, limits: ProtocolLimits = .standard, sourceLocation: SourceLocation = #_sourceLocation
) -> ClientMessage? {
    do {
        return try ClientMessage.decode(text, limits: limits)
    } catch {
        Issue.record("decoding \(text) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error decoding a client frame gives, recording an issue when it succeeds.
func decodingError(
    _ bytes: [UInt8], limits: ProtocolLimits = .standard, sourceLocation: SourceLocation = #_sourceLocation
) -> ClientMessageError? {
    do {
        let message = try ClientMessage.decode(bytes, limits: limits)
        Issue.record("decoding succeeded: \(message)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The error decoding client text gives.
func decodingError(
    _ text: String, limits: ProtocolLimits = .standard, sourceLocation: SourceLocation = #_sourceLocation
) -> ClientMessageError? {
    decodingError(Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
}
