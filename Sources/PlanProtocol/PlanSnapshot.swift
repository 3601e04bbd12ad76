import ChronoSketchCore

/// The contents of a `snapshot` message (protocol.md §4): one plan at one version, as a thin
/// client sees it. Timeline entries and assignments are not part of it; they reach clients
/// through `query` and `watch`.
public struct PlanSnapshot: Sendable, Hashable {
    /// The plan id.
    public var plan: String
    /// The confirmed version.
    public var version: Int
    /// The plan's title.
    public var title: String
    /// Manual or automatic scheduling, and the calendar (scheduling.md §1).
    public var settings: PlanSettings
    /// The tasks in confirmed input order (which decides sibling order).
    public var tasks: [GanttTask]
    /// The dependencies, in the order they were added.
    public var dependencies: [TaskDependency]
    /// The timeline's resources in order.
    public var resources: [TimelineResource]
    /// The derived values of every summary, by id.
    public var summaries: [String: SummaryValues]
    /// The named versions, by name (protocol.md §9.3).
    public var baselines: [PlanBaseline]
    /// True for a `fetch` answer: the plan as it was, which starts no subscription.
    public var historical: Bool
    /// The receiving session's role on the plan (protocol.md §11); nil: not written. It is the
    /// last member, so that one encoding serves every role (`withRole(_:encoded:)`).
    public var role: PlanRole?

    /// Creates a snapshot from its parts.
    public init(
        plan: String, version: Int, title: String, tasks: [GanttTask] = [], dependencies: [TaskDependency] = [],
        resources: [TimelineResource] = [], summaries: [String: SummaryValues] = [:], baselines: [PlanBaseline] = [],
        historical: Bool = false, settings: PlanSettings = .default, role: PlanRole? = nil
    ) {
        self.role = role
        self.settings = settings
        self.baselines = baselines
        self.historical = historical
        self.plan = plan
        self.version = version
        self.title = title
        self.tasks = tasks
        self.dependencies = dependencies
        self.resources = resources
        self.summaries = summaries
    }

    /// The snapshot of a plan's confirmed data, with the summaries the server derives.
    public init(plan: String, version: Int, document: PlanDocument, historical: Bool = false) {
        let tasks = document.state.tasks
        self.init(
            plan: plan, version: version, title: document.title, tasks: tasks.tasks, dependencies: tasks.dependencies,
            resources: document.state.timeline.resources, summaries: tasks.summaries,
            baselines: document.state.baselines, historical: historical, settings: document.state.settings)
    }

    /// Writes the members `"plan","version","title","settings","tasks","dependencies","resources",
    /// "summaries","baselines"` (and `"historical":true` for a fetched one, then `"role"` when
    /// known) into an object the caller has opened (after its `type`).
    ///
    /// Summaries are written in the tasks' input order (so equal snapshots give equal bytes); values
    /// for ids that are not summary tasks, if any, follow in id order.
    public func encodeMembers(into writer: inout JSONWriter) {
        writer.key("plan")
        writer.string(plan)
        writer.key("version")
        writer.number(version)
        writer.key("title")
        writer.string(title)
        writer.key("settings")
        settings.encodeJSON(into: &writer)
        writer.key("tasks")
        writer.array(tasks)
        writer.key("dependencies")
        writer.array(dependencies)
        writer.key("resources")
        writer.array(resources)
        writer.key("summaries")
        writer.beginObject()
        var written = 0
        for task in tasks where task.kind.isSummary {
            guard let values = summaries[task.id] else { continue }
            writer.key(task.id)
            values.encodeJSON(into: &writer)
            written += 1
        }
        if written < summaries.count {
            let summaryTaskIDs = Set(tasks.lazy.filter(\.kind.isSummary).map(\.id))
            for id in summaries.keys.sorted() where !summaryTaskIDs.contains(id) {
                writer.key(id)
                summaries[id]!.encodeJSON(into: &writer)
            }
        }
        writer.endObject()
        writer.key("baselines")
        writer.array(baselines)
        if historical {
            writer.key("historical")
            writer.bool(true)
        }
        if let role { writer.member("role", role.rawValue) }
    }

    /// The bytes of a `snapshot` message encoded without `role` and without `ref`, with `role`
    /// added as its last member: the same bytes as encoding it with `role`, made by one copy
    /// (a server encodes a version's snapshot once and serves every role from it).
    public static func withRole(_ role: PlanRole, encoded bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let tail = Array(",\"role\":\"\(role.rawValue)\"}".utf8)
        var result = [UInt8]()
        result.reserveCapacity(bytes.count + tail.count)
        result.append(contentsOf: bytes.prefix(max(0, bytes.count - 1)))
        result.append(contentsOf: tail)
        return result
    }

    /// Decodes the members of a `snapshot` message (its `type` is not checked here).
    ///
    /// The values are taken as sent, without the domain's collection rules: a thin client holds
    /// what the server confirmed. `settings`, `dependencies`, `resources` and `summaries` may be
    /// absent (absent settings are the defaults).
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let plan = try object.string("plan")
        let version = try object.integer("version")
        let title = try object.string("title")
        let tasks = try object.map("tasks") { value, path throws(DecodingFailure) in
            try GanttTask(json: value, path: path)
        }
        let dependencies = try object.map("dependencies", optional: true) { value, path throws(DecodingFailure) in
            try TaskDependency(json: value, path: path)
        }
        let resources = try object.map("resources", optional: true) { value, path throws(DecodingFailure) in
            try TimelineResource(json: value, path: path)
        }
        let summaries = try decodeSummaries(object.optionalObject("summaries"))
        let baselines = try object.map("baselines", optional: true) { value, path throws(DecodingFailure) in
            try PlanBaseline(json: value, path: path)
        }
        var settings = PlanSettings.default
        if object.isPresent("settings") {
            settings = try PlanSettings(json: try object.required("settings"), path: object.path("settings"))
        }
        self.init(
            plan: plan, version: version, title: title, tasks: tasks, dependencies: dependencies,
            resources: resources, summaries: summaries, baselines: baselines,
            historical: try object.optionalBool("historical") ?? false, settings: settings,
            role: try object.optionalRole("role"))
    }
}

/// Decodes a `summaries` object (`{"phase-1":{"start":…,"end":…,"lastDate":…,"progress":…}}`).
func decodeSummaries(_ object: JSONObjectReader?) throws(DecodingFailure) -> [String: SummaryValues] {
    guard let object else { return [:] }
    var summaries: [String: SummaryValues] = Dictionary(minimumCapacity: object.members.count)
    for (id, value) in object.members {
        summaries[id] = try SummaryValues(json: value, path: object.path(id))
    }
    return summaries
}

/// Writes a `summaries` object with its members in id order.
func encodeSummaries(_ summaries: [String: SummaryValues], into writer: inout JSONWriter) {
    writer.beginObject()
    for id in summaries.keys.sorted() {
        writer.key(id)
        summaries[id]!.encodeJSON(into: &writer)
    }
    writer.endObject()
}
