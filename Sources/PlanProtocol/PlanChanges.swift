import ChronoSketchCore

/// The `changes` object of a `confirmed` message (protocol.md §5): what turns version N into N+1
/// for a client that knows only the snapshot and the earlier changes.
///
/// A client applies it in this order (`ClientPlanCopy.apply(version:changes:)` does exactly this):
/// remove the `remove` ids; replace each `upsert` task in its slot, or append it when its id is
/// new; when `order` is present, put the tasks in that order; when `dependencies` is present,
/// take that list; drop the summary values of tasks that are gone or no longer summaries; set
/// every value of `summaries`. `entries` names timeline entries to fetch again through `query`.
public struct PlanChanges: Sendable, Hashable, JSONEncodable {
    /// Tasks added or changed, with their final values, in the order they were touched.
    public var upsert: [GanttTask]
    /// Ids of removed tasks.
    public var remove: [String]
    /// The complete input order of task ids, when it changed (a reorder); else nil.
    public var order: [String]?
    /// The complete dependency list, when it changed; else nil.
    public var dependencies: [TaskDependency]?
    /// The derived values of every summary that changed or is new, by id.
    public var summaries: [String: SummaryValues]
    /// For timeline ops: ids of the entries added, changed or removed; nil for task ops.
    public var entries: [String]?
    /// The complete baseline list, when it changed; else nil.
    public var baselines: [PlanBaseline]?
    /// The ids of the tasks an automatic plan's settle pushed, in input order (scheduling.md
    /// §4.4); nil when none was.
    public var pushed: [String]?
    /// The complete new scheduling settings, when they changed; else nil.
    public var settings: PlanSettings?

    /// Creates changes from their parts.
    public init(
        upsert: [GanttTask] = [], remove: [String] = [], order: [String]? = nil, dependencies: [TaskDependency]? = nil,
        summaries: [String: SummaryValues] = [:], entries: [String]? = nil, baselines: [PlanBaseline]? = nil,
        pushed: [String]? = nil, settings: PlanSettings? = nil
    ) {
        self.baselines = baselines
        self.pushed = pushed
        self.settings = settings
        self.upsert = upsert
        self.remove = remove
        self.order = order
        self.dependencies = dependencies
        self.summaries = summaries
        self.entries = entries
    }

    /// The changes of one applied operation.
    /// - Parameters:
    ///   - state: the plan's data after the operation.
    ///   - change: what `PlanState.apply(_:)` reported for it.
    public init(after state: PlanState, change: PlanChange) {
        switch change {
        case .tasks(let change):
            let tasks = state.tasks
            var summaries: [String: SummaryValues] = Dictionary(minimumCapacity: change.changedSummaryIDs.count)
            for id in change.changedSummaryIDs {
                if let values = tasks.summaryValues(of: id) { summaries[id] = values }
            }
            self.init(
                upsert: change.upserted, remove: change.removed,
                order: change.orderChanged ? tasks.tasks.map(\.id) : nil,
                dependencies: change.dependenciesChanged ? tasks.dependencies : nil, summaries: summaries,
                pushed: change.pushedFrom.isEmpty ? nil : change.pushed,
                settings: change.settingsChanged ? state.settings : nil)
        case .timeline(let change):
            self.init(entries: change.entryIDs)
        case .baselines:
            self.init(baselines: state.baselines)
        }
    }

    /// Writes `{"upsert":[…],"remove":[…],"order":[…],"dependencies":[…],"pushed":[…],
    /// "summaries":{…},"settings":{…},"entries":[…],"baselines":[…]}`.
    ///
    /// `upsert`, `remove` and `summaries` are always written (possibly empty); `order`,
    /// `dependencies`, `settings` and `baselines` only when they changed; `pushed` only when a
    /// task was pushed; `entries` only for timeline ops. Summaries are written in id order, so
    /// equal changes give equal bytes.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("upsert")
        writer.array(upsert)
        writer.key("remove")
        writer.beginArray()
        for id in remove { writer.string(id) }
        writer.endArray()
        if let order {
            writer.key("order")
            writer.beginArray()
            for id in order { writer.string(id) }
            writer.endArray()
        }
        if let dependencies {
            writer.key("dependencies")
            writer.array(dependencies)
        }
        if let pushed {
            writer.key("pushed")
            writer.beginArray()
            for id in pushed { writer.string(id) }
            writer.endArray()
        }
        writer.key("summaries")
        encodeSummaries(summaries, into: &writer)
        if let settings {
            writer.key("settings")
            settings.encodeJSON(into: &writer)
        }
        if let entries {
            writer.key("entries")
            writer.beginArray()
            for id in entries { writer.string(id) }
            writer.endArray()
        }
        if let baselines {
            writer.key("baselines")
            writer.array(baselines)
        }
        writer.endObject()
    }

    /// Decodes a `changes` object; every member may be absent (`upsert`, `remove`, `summaries`:
    /// empty; `order`, `dependencies`, `entries`: unchanged / not a timeline op).
    public init(json: JSONValue, path: String = "changes") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        func ids(_ key: String) throws(DecodingFailure) -> [String]? {
            guard object.isPresent(key) else { return nil }
            return try object.map(key) { value, path throws(DecodingFailure) -> String in
                try value.text(at: path)
            }
        }
        let upsert = try object.map("upsert", optional: true) { value, path throws(DecodingFailure) in
            try GanttTask(json: value, path: path)
        }
        var dependencies: [TaskDependency]?
        if object.isPresent("dependencies") {
            dependencies = try object.map("dependencies") { value, path throws(DecodingFailure) in
                try TaskDependency(json: value, path: path)
            }
        }
        var baselines: [PlanBaseline]?
        if object.isPresent("baselines") {
            baselines = try object.map("baselines") { value, path throws(DecodingFailure) in
                try PlanBaseline(json: value, path: path)
            }
        }
        var settings: PlanSettings?
        if object.isPresent("settings") {
            settings = try PlanSettings(json: try object.required("settings"), path: object.path("settings"))
        }
        self.init(
            upsert: upsert, remove: try ids("remove") ?? [], order: try ids("order"), dependencies: dependencies,
            summaries: try decodeSummaries(object.optionalObject("summaries")), entries: try ids("entries"),
            baselines: baselines, pushed: try ids("pushed"), settings: settings)
    }

    /// Parses and decodes `changes` JSON text, such as a log row's.
    public init(parsing bytes: [UInt8]) throws(DecodingFailure) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw DecodingFailure(path: "changes", reason: error.description)
        }
        try self.init(json: json)
    }
}
