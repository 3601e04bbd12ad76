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
        try self.init(json: json, path: path, checkingEntryTasks: true)
    }

    /// Decodes the document; without `checkingEntryTasks` the entries' task links are kept
    /// unchecked (a checkpoint's timeline, read without its tasks, checks them afterwards).
    init(json: JSONValue, path: String, checkingEntryTasks: Bool) throws(DecodingFailure) {
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
        var links: [String: String] = [:]
        let entries = try object.map("entries", optional: true) { value, path throws(DecodingFailure) in
            let entry = try TimelineEntry(json: value, path: path)
            if let task = try JSONObjectReader(value, path: path).optionalString("taskID") { links[entry.id] = task }
            return entry
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
        let state = PlanState(
            tasks: collection, timeline: timeline, baselines: baselines, settings: settings,
            entryTasks: EntryTaskLinks(links))
        if checkingEntryTasks, let broken = state.brokenEntryTaskLink {
            throw DecodingFailure(code: .invalidDependency, path: object.path("entries"), reason: broken)
        }
        self.init(title: title, state: state)
    }

    /// Writes the document's members (`title`, `settings`, `tasks`, `dependencies`, `resources`,
    /// `entries`, `assignments`, and `baselines` when there are any) into an object the caller
    /// has opened, so that a snapshot can add its own. `entryTasks`: each entry that belongs to
    /// a task carries its `taskID` (the plan file; a snapshot leaves them out).
    public func encodeMembers(into writer: inout JSONWriter, entryTasks: Bool = false) {
        writer.key("title")
        writer.string(title)
        writer.key("settings")
        state.settings.encodeJSON(into: &writer)
        writer.key("tasks")
        writer.array(state.tasks.tasks)
        writer.key("dependencies")
        writer.array(state.tasks.dependencies)
        encodeTimeline(into: &writer, entryTasks: entryTasks)
        if !state.baselines.isEmpty {
            writer.key("baselines")
            writer.array(state.baselines)
        }
    }

    /// Writes the `resources`, `entries` and `assignments` members; with `entryTasks`, an entry
    /// that belongs to a task carries its `taskID`.
    func encodeTimeline(into writer: inout JSONWriter, entryTasks: Bool) {
        writer.key("resources")
        writer.array(state.timeline.resources)
        writer.key("entries")
        if entryTasks, !state.entryTasks.isEmpty {
            writer.beginArray()
            for entry in state.timeline.entries {
                entry.encodeJSON(into: &writer, taskID: state.entryTasks[entry: entry.id])
            }
            writer.endArray()
        } else {
            writer.array(state.timeline.entries)
        }
        writer.key("assignments")
        writer.array(state.timeline.assignments)
    }

    /// Writes the document as one object (the import file shape).
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        encodeMembers(into: &writer, entryTasks: true)
        writer.endObject()
    }
}
