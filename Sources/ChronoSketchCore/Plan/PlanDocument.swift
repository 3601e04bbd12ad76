/// A whole plan as a file or a snapshot carries it (protocol.md §8): a title, the tasks with their
/// dependencies and the resource timeline, validated as a whole.
public struct PlanDocument: Sendable, Equatable, JSONEncodable {
    /// The plan's title.
    public var title: String
    /// The confirmed data.
    public var state: PlanState

    /// Combines validated parts.
    public init(title: String, state: PlanState) {
        self.title = title
        self.state = state
    }

    /// Decodes `{"title":…,"settings":{…},"tasks":[…],"dependencies":[…],"resources":[…],
    /// "entries":[…],"assignments":[…],"baselines":[…]}` (every member but the title may be absent)
    /// and validates it as a whole, like a proposal: the first broken rule fails with its
    /// rejection code. In an automatic plan every task is the file's own, so a dependency that
    /// does not hold refuses the file (`scheduleConflict`, scheduling.md §4.6).
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let title = try object.string("title")
        let tasks = try object.map("tasks", optional: true) { value, path throws(DecodingFailure) in
            try GanttTask(json: value, path: path)
        }
        let dependencies = try object.map("dependencies", optional: true) { value, path throws(DecodingFailure) in
            try TaskDependency(json: value, path: path)
        }
        let resources = try object.map("resources", optional: true) { value, path throws(DecodingFailure) in
            try TimelineResource(json: value, path: path)
        }
        let entries = try object.map("entries", optional: true) { value, path throws(DecodingFailure) in
            try TimelineEntry(json: value, path: path)
        }
        let assignments = try object.map("assignments", optional: true) { value, path throws(DecodingFailure) in
            try TimelineAssignment(json: value, path: path)
        }
        let baselines = try object.map("baselines", optional: true) { value, path throws(DecodingFailure) in
            try PlanBaseline(json: value, path: path)
        }
        var settings = PlanSettings.default
        if object.isPresent("settings") {
            settings = try PlanSettings(json: try object.required("settings"), path: object.path("settings"))
        }
        let collection: TaskCollection
        do {
            collection = try TaskCollection(tasks, dependencies: dependencies)
        } catch {
            throw DecodingFailure(code: error.code, path: object.path("tasks"), reason: error.message)
        }
        if settings.isAutomatic {
            let own = collection.tasks.map(\.id)
            switch ScheduleSettle(collection, time: WorkingTime(settings.calendar)).settleAll(own: own) {
            case .conflict(let conflict):
                throw DecodingFailure(
                    code: .scheduleConflict, path: object.path("dependencies"), reason: conflict.message)
            case .outOfRange(let id):
                throw DecodingFailure(
                    code: .invalidSchedule, path: object.path("dependencies"),
                    reason: "task \"\(id)\" cannot keep its dependencies within years 1…9999")
            case .settled:
                break
            }
        }
        let timeline: TimelineData
        do {
            timeline = try TimelineData(resources: resources, entries: entries, assignments: assignments)
        } catch {
            throw DecodingFailure(code: error.code, path: object.path("entries"), reason: error.message)
        }
        self.init(
            title: title,
            state: PlanState(tasks: collection, timeline: timeline, baselines: baselines, settings: settings))
    }

    /// Writes the document's members (`title`, `settings`, `tasks`, `dependencies`, `resources`,
    /// `entries`, `assignments`, and `baselines` when there are any) into an object the caller
    /// has opened, so that a snapshot can add its own.
    public func encodeMembers(into writer: inout JSONWriter) {
        writer.key("title")
        writer.string(title)
        writer.key("settings")
        state.settings.encodeJSON(into: &writer)
        writer.key("tasks")
        writer.array(state.tasks.tasks)
        writer.key("dependencies")
        writer.array(state.tasks.dependencies)
        encodeTimeline(into: &writer)
        if !state.baselines.isEmpty {
            writer.key("baselines")
            writer.array(state.baselines)
        }
    }

    /// Writes the `resources`, `entries` and `assignments` members.
    func encodeTimeline(into writer: inout JSONWriter) {
        writer.key("resources")
        writer.array(state.timeline.resources)
        writer.key("entries")
        writer.array(state.timeline.entries)
        writer.key("assignments")
        writer.array(state.timeline.assignments)
    }

    /// Writes the document as one object (the import file shape).
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        encodeMembers(into: &writer)
        writer.endObject()
    }
}
