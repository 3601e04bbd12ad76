import ChronoSketchCore

/// What the message generator knows about the plan: its confirmed data as the server sent it.
public struct PlanContext: Sendable {
    /// The plan id.
    public var plan: String
    /// A valid token for it.
    public var token: String
    /// The confirmed version.
    public var version: Int
    /// The tasks, as sent in the snapshot.
    public var tasks: [JSONValue]
    /// The dependencies, as sent.
    public var dependencies: [JSONValue]
    /// The resource ids.
    public var resourceIDs: [String]
    /// Timeline entries (from a page), as sent.
    public var entries: [JSONValue]
    /// Timeline assignments (from a page), as sent.
    public var assignments: [JSONValue]
    /// The scheduling settings, as sent (nil: not known).
    public var settings: JSONValue?

    /// Creates a context.
    public init(
        plan: String, token: String, version: Int = 0, tasks: [JSONValue] = [], dependencies: [JSONValue] = [],
        resourceIDs: [String] = [], entries: [JSONValue] = [], assignments: [JSONValue] = []
    ) {
        self.plan = plan
        self.token = token
        self.version = version
        self.tasks = tasks
        self.dependencies = dependencies
        self.resourceIDs = resourceIDs
        self.entries = entries
        self.assignments = assignments
    }
}

/// Valid messages of every type and op of the contract, built from the plan's data, before any
/// mutation. Ops that the plan cannot support (no tasks, no entries) fall back to made-up values.
public enum MessageTemplates {
    /// Every message `type` the generator produces (a server that predates one of the last six
    /// answers it `unsupported`).
    public static let types = [
        "hello", "subscribe", "unsubscribe", "query", "watch", "unwatch", "propose", "schedule", "tasks", "plans",
        "history", "fetch", "grant",
    ]

    /// Every `op.type` of `propose` the generator produces.
    public static let operations = [
        "replace", "add", "reorder", "remove", "link", "unlink", "relink", "settings.replace", "timeline.apply",
        "timeline.add", "timeline.remove", "undo", "baseline.set",
    ]

    /// A valid message of `type` (an op picked at random for `propose`) with id `id` and ref `ref`.
    public static func message(
        type: String, context: PlanContext, id: String, ref: String, random: inout FuzzRandom
    ) -> FuzzJSON {
        let plan = FuzzJSON.string(context.plan)
        let message: FuzzJSON
        switch type {
        case "hello": message = .object(["type": "hello", "token": .string(context.token), "client": "fuzz/1"])
        case "subscribe":
            message =
                random.chance(0.5)
                ? .object(["type": "subscribe", "plan": plan])
                : .object(["type": "subscribe", "plan": plan, "since": .number(random.int(0...context.version))])
        case "unsubscribe": message = .object(["type": "unsubscribe", "plan": plan])
        case "query": message = .object(["type": "query", "plan": plan, "query": query(context, random: &random)])
        case "watch":
            message = .object([
                "type": "watch", "plan": plan, "query": query(context, random: &random),
                "watch": .string("w\(random.int(0...3))"),
            ])
        case "unwatch": message = .object(["type": "unwatch", "watch": .string("w\(random.int(0...3))")])
        case "propose":
            message = .object([
                "type": "propose", "id": .string(id), "plan": plan, "baseVersion": .number(context.version),
                "op": operation(random.pick(operations), context: context, id: id, random: &random),
            ])
        case "history": message = .object(["type": "history", "plan": plan, "limit": .number(random.int(1...5))])
        case "fetch":
            message = .object(["type": "fetch", "plan": plan, "version": .number(random.int(0...context.version))])
        case "grant": message = .object(["type": "grant", "plan": plan, "user": "nobody", "role": "viewer"])
        case "schedule": message = .object(["type": "schedule", "plan": plan])
        case "tasks":
            let known = context.tasks.compactMap { FuzzJSON($0)["id"] }.filter { _ in random.chance(0.3) }
            message = .object(["type": "tasks", "plan": plan, "ids": .array(known + ["no-such-task"])])
        default: message = .object(["type": .string(type), "plan": plan])
        }
        return message.setting("ref", .string(ref))
    }

    static func query(_ context: PlanContext, random: inout FuzzRandom) -> FuzzJSON {
        let resources = context.resourceIDs.filter { _ in random.chance(0.7) }
        return .object([
            "start": "2026-09-01T00:00", "end": .string(random.pick(["2026-10-01T00:00", "2027-10-06T00:00"])),
            "resourceIDs": .array(resources.map(FuzzJSON.string)),
        ])
    }

    /// A valid op of `type`, as far as the plan's data allows.
    public static func operation(_ type: String, context: PlanContext, id: String, random: inout FuzzRandom) -> FuzzJSON
    {
        let task = context.tasks.isEmpty ? newTask(id: id, random: &random) : FuzzJSON(random.pick(context.tasks))
        switch type {
        case "replace":
            return .object(["type": "replace", "previous": task, "proposed": edited(task, random: &random)])
        case "add":
            return .object(["type": "add", "task": newTask(id: id, random: &random)])
        case "reorder":
            let other = context.tasks.isEmpty ? task : FuzzJSON(random.pick(context.tasks))
            return .object([
                "type": "reorder", "previous": task, "relativeTo": other,
                "position": .string(random.pick(["before", "after"])),
            ])
        case "remove":
            let leaf = context.tasks.last.map(FuzzJSON.init) ?? task
            return .object(["type": "remove", "previous": random.chance(0.5) ? leaf : task])
        case "link", "unlink":
            let ids = context.tasks.compactMap { FuzzJSON($0)["id"] }
            let existing = context.dependencies.isEmpty ? nil : FuzzJSON(random.pick(context.dependencies))
            let made: FuzzJSON =
                ids.isEmpty
                ? .object(["predecessorID": "a", "successorID": "b"])
                : .object(["predecessorID": random.pick(ids), "successorID": random.pick(ids)])
            let dependency = type == "unlink" && random.chance(0.7) ? existing ?? made : typed(made, random: &random)
            return .object(["type": .string(type), "dependency": dependency])
        case "relink":
            let existing = context.dependencies.isEmpty ? nil : FuzzJSON(random.pick(context.dependencies))
            let previous = existing ?? .object(["predecessorID": "a", "successorID": "b"])
            return .object(["type": "relink", "previous": previous, "proposed": typed(previous, random: &random)])
        case "settings.replace":
            return .object([
                "type": "settings.replace", "previous": context.settings.map(FuzzJSON.init) ?? .object([:]),
                "proposed": settings(random: &random),
            ])
        case "timeline.apply", "timeline.add", "timeline.remove":
            return timelineOperation(type, context: context, id: id, random: &random)
        case "undo":
            return .object(["type": "undo", "version": .number(random.int(0...max(1, context.version)))])
        default:
            return .object(["type": "baseline.set", "name": .string("b-\(random.int(0...3))")])
        }
    }

    /// `dependency` with a random type and lag (sometimes the defaults, sometimes none written).
    static func typed(_ dependency: FuzzJSON, random: inout FuzzRandom) -> FuzzJSON {
        guard random.chance(0.6) else { return dependency }
        let type = random.pick(["finish-to-start", "start-to-start", "finish-to-finish", "start-to-finish"])
        return dependency.setting("type", .string(type)).setting("lag", .number(random.int(-3...5)))
    }

    /// Random scheduling settings: mostly automatic, a working week and a holiday or two.
    static func settings(random: inout FuzzRandom) -> FuzzJSON {
        let days = [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7], [2, 4]][random.int(0...3)]
        let holidays = random.chance(0.5) ? ["2026-09-15", "2026-12-25"] : []
        return .object([
            "scheduling": .string(random.chance(0.75) ? "automatic" : "manual"),
            "calendar": .object([
                "workingDays": .array(days.map { .number($0) }), "holidays": .array(holidays.map(FuzzJSON.string)),
            ]),
        ])
    }

    static func newTask(id: String, random: inout FuzzRandom) -> FuzzJSON {
        switch random.int(0...2) {
        case 0:
            return .object([
                "id": .string(id), "title": "Fuzz task", "kind": "activity",
                "schedule": .object(["start": "2026-09-14", "end": "2026-09-18"]),
                "progress": .number(random.int(0...100)),
            ])
        case 1:
            return .object(["id": .string(id), "title": "Fuzz milestone", "kind": "milestone", "date": "2026-10-02"])
        default: return .object(["id": .string(id), "title": "Fuzz group", "kind": "summary"])
        }
    }

    /// `task` with its title, progress or schedule changed.
    static func edited(_ task: FuzzJSON, random: inout FuzzRandom) -> FuzzJSON {
        switch random.int(0...2) {
        case 0: return task.setting("title", .string("Edited \(random.int(0...999))"))
        case 1 where task["kind"] == .string("activity"): return task.setting("progress", .number(random.int(0...100)))
        case 2 where task["kind"] == .string("activity"):
            let day = random.int(1...28)
            let start = "2026-09-\(day < 10 ? "0" : "")\(day)"
            return task.setting("schedule", .object(["start": .string(start), "end": "2026-09-30"]))
        default: return task.setting("title", .string(task["title"]?.stringValue.map { $0 + "!" } ?? "x"))
        }
    }

    static func timelineOperation(
        _ type: String, context: PlanContext, id: String, random: inout FuzzRandom
    ) -> FuzzJSON {
        let resource = FuzzJSON.string(context.resourceIDs.isEmpty ? "room-1" : random.pick(context.resourceIDs))
        let newEntry = FuzzJSON.object([
            "id": .string(id), "title": "Fuzz booking", "start": "2026-09-15T09:00", "end": "2026-09-15T10:30",
        ])
        guard type != "timeline.add", !context.assignments.isEmpty else {
            let assignment = FuzzJSON.object(["id": .string(id + "-a"), "entryID": .string(id), "resourceID": resource])
            return .object(["type": "timeline.add", "entry": newEntry, "assignments": .array([assignment])])
        }
        let assignment = FuzzJSON(random.pick(context.assignments))
        let entryID = assignment["entryID"]
        let entry = context.entries.map(FuzzJSON.init).first { $0["id"] == entryID } ?? newEntry
        if type == "timeline.remove" { return .object(["type": "timeline.remove", "entry": entry]) }
        let moved =
            random.chance(0.5)
            ? entry.setting("title", .string("Moved \(random.int(0...99))"))
            : entry.setting("end", .string("2026-12-\(random.int(10...28))T18:00"))
        let reassigned = random.chance(0.5) ? assignment.setting("resourceID", resource) : assignment
        return .object([
            "type": "timeline.apply", "original": .object(["entry": entry, "assignment": assignment]),
            "proposed": .object(["entry": moved, "assignment": reassigned]),
        ])
    }
}

extension FuzzJSON: ExpressibleByStringLiteral {
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
}
