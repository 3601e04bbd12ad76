import ChronoSketchCore

/// A request a client sends (protocol.md §2, §4, §5), each with the optional string `ref` the
/// server echoes in the `error` it causes (and in its direct answer).
public enum ClientMessage: Sendable, Hashable {
    /// `{"type":"hello","token":…,"client":"name/version"}`: the first message of a session.
    /// An absent `client` decodes as the empty string.
    case hello(token: String, client: String, ref: String? = nil)
    /// `{"type":"subscribe","plan":…}` or, resuming, `{…,"since":9}`.
    case subscribe(plan: String, since: Int? = nil, ref: String? = nil)
    /// `{"type":"unsubscribe","plan":…}`.
    case unsubscribe(plan: String, ref: String? = nil)
    /// `{"type":"query","plan":…,"query":{…}}`: one `page`.
    case query(plan: String, query: TimelineQuery, ref: String? = nil)
    /// `{"type":"watch","plan":…,"query":{…},"watch":…}`: a `page` now and whenever it changes.
    case watch(plan: String, query: TimelineQuery, watch: String, ref: String? = nil)
    /// `{"type":"unwatch","watch":…}`.
    case unwatch(watch: String, ref: String? = nil)
    /// `{"type":"propose","id":…,"plan":…,"baseVersion":12,"op":{…}}`.
    case propose(id: String, plan: String, baseVersion: Int, operation: PlanOperation, ref: String? = nil)
    /// `{"type":"plans"}`: the plans the user has a role on.
    case plans(ref: String? = nil)
    /// `{"type":"grant","plan":…,"user":…,"role":"editor"}`: an owner sets `user`'s role on `plan`;
    /// `role` nil (`null` on the wire) revokes it. Roles are `viewer`, `editor` and `owner`.
    case grant(plan: String, user: String, role: PlanRole?, ref: String? = nil)
    /// `{"type":"history","plan":…,"before":40,"limit":50}`: a page of the log, newest first;
    /// `before` nil: up to the current version; `limit` nil: 50.
    case history(plan: String, before: Int?, limit: Int?, ref: String? = nil)
    /// `{"type":"fetch","plan":…,"version":7}`: the plan as it was at that version.
    case fetch(plan: String, version: Int, ref: String? = nil)
    /// `{"type":"schedule","plan":…,"version":14,"ids":[…]}`: late dates, slack and the critical
    /// path (scheduling.md §6); `version` nil: the current one; `ids` nil: every scheduled task.
    case schedule(plan: String, version: Int?, ids: [String]?, ref: String? = nil)
    /// `{"type":"tasks","plan":…,"ids":[…]}`: those tasks as they are at the current version
    /// (our addition to the contract: docs/protocol.md, "Tasks by id"), for a client that names
    /// a few tasks without holding the plan.
    case tasks(plan: String, ids: [String], ref: String? = nil)
    /// `{"type":"feed","plan":…}`: the session user's feed key for the plan's calendar
    /// (interchange.md §13), the same on every asking; with `"revoke":true` the key ends.
    case feed(plan: String, revoke: Bool = false, ref: String? = nil)

    /// The message's `type` on the wire.
    public var typeName: String {
        switch self {
        case .hello: "hello"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .query: "query"
        case .watch: "watch"
        case .unwatch: "unwatch"
        case .propose: "propose"
        case .plans: "plans"
        case .grant: "grant"
        case .history: "history"
        case .fetch: "fetch"
        case .schedule: "schedule"
        case .feed: "feed"
        case .tasks: "tasks"
        }
    }

    /// The request's `ref`, if it carries one.
    public var ref: String? {
        switch self {
        case .hello(_, _, let ref), .subscribe(_, _, let ref), .unsubscribe(_, let ref), .query(_, _, let ref),
            .watch(_, _, _, let ref), .unwatch(_, let ref), .propose(_, _, _, _, let ref), .plans(let ref),
            .grant(_, _, _, let ref), .history(_, _, _, let ref), .fetch(_, _, let ref), .schedule(_, _, _, let ref),
            .feed(_, _, let ref), .tasks(_, _, let ref):
            ref
        }
    }

    /// The plan the request concerns (nil for `hello`, `unwatch` and `plans`).
    public var plan: String? {
        switch self {
        case .hello, .unwatch, .plans: nil
        case .subscribe(let plan, _, _), .unsubscribe(let plan, _), .query(let plan, _, _),
            .watch(let plan, _, _, _), .propose(_, let plan, _, _, _), .grant(let plan, _, _, _),
            .history(let plan, _, _, _), .fetch(let plan, _, _), .schedule(let plan, _, _, _), .feed(let plan, _, _),
            .tasks(let plan, _, _):
            plan
        }
    }

    /// The `type` names of every request of the contract.
    public static let typeNames: Set<String> = [
        "hello", "subscribe", "unsubscribe", "query", "watch", "unwatch", "propose", "plans", "grant", "history",
        "fetch", "schedule", "feed", "tasks",
    ]

    /// The most entries one `history` page may ask for.
    public static let maxHistoryLimit = 500
}
