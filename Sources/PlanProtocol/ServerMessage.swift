import ChronoSketchCore

/// A message the server sends (protocol.md §2, §4, §5, §6, §7).
///
/// Direct answers to a request (`welcome`, `error`, `snapshot`, `resumed`, `ack`, `rejected`,
/// `page`) carry the request's `ref` when it had one; broadcasts (`confirmed`, `presence`, a
/// watch's later `page`s) carry none.
public enum ServerMessage: Sendable, Hashable {
    /// `{"type":"welcome","session":…,"user":…,"protocol":1,"server":…,"limits":{…}}`.
    case welcome(
        session: String, user: String, protocolVersion: Int = ServerMessage.protocolVersion, server: String,
        limits: ProtocolLimits, ref: String? = nil)
    /// `{"type":"error","code":…,"message":…,"ref":…}`.
    case error(code: ProtocolErrorCode, message: String, ref: String? = nil)
    /// `{"type":"snapshot","plan":…,"version":12,"title":…,"tasks":[…],"dependencies":[…],
    /// "resources":[…],"summaries":{…}}`.
    case snapshot(PlanSnapshot, ref: String? = nil)
    /// `{"type":"resumed","plan":…,"version":12,"role":"editor"}`: the `confirmed` since the
    /// requested version have been sent; `role` is the session's role on the plan (nil: not
    /// written, as before protocol.md §11 carried it).
    case resumed(plan: String, version: Int, role: PlanRole? = nil, ref: String? = nil)
    /// `{"type":"confirmed","plan":…,"version":13,"mutation":{"id":…,"user":…},"at":…,"changes":{…}}`,
    /// with `"undoes":V` in `mutation` for a confirmed undo; `at` is the time the server
    /// confirmed it (empty: not known, and not written).
    case confirmed(
        plan: String, version: Int, mutationID: String, user: String, changes: PlanChanges, at: String = "",
        undoes: Int? = nil)
    /// `{"type":"ack","id":…,"plan":…,"version":13}`, with `"noop":true` for a proposal that
    /// changed nothing.
    case ack(id: String, plan: String, version: Int, noop: Bool = false, ref: String? = nil)
    /// `{"type":"rejected","id":…,"plan":…,"code":…,"message":…,"version":12}`. `plan` and `version`
    /// are nil (and not written) only for a malformed proposal whose plan could not be read. A
    /// `scheduleConflict` carries `"conflict":{"task":…,"earliest":…}` (scheduling.md §4.3).
    case rejected(
        id: String, plan: String?, code: RejectionCode, message: String, version: Int?, ref: String? = nil,
        conflict: ConflictDetail? = nil)
    /// `{"type":"page","plan":…,"watch":…,"version":12,"query":{…},"entries":[…],"assignments":[…]}`;
    /// `watch` is nil for the answer to a `query`.
    case page(
        plan: String, watch: String? = nil, version: Int, query: TimelineQuery, page: TimelinePage,
        ref: String? = nil)
    /// `{"type":"presence","plan":…,"count":3,"sessions":[{"session":…,"user":…,"client":…}]}`.
    case presence(plan: String, count: Int, sessions: [PresenceSession])
    /// `{"type":"plans","plans":[{"plan":…,"title":…,"role":"editor","version":12}]}`: the answer
    /// to `plans`, ordered by id.
    case plans([PlanListing], ref: String? = nil)
    /// `{"type":"granted","plan":…,"user":…,"role":"editor"}` (`role` null: revoked): the answer
    /// to an owner's `grant`.
    case granted(plan: String, user: String, role: PlanRole?, ref: String? = nil)
    /// `{"type":"error","code":"forbidden","message":…,"plan":…}`: an `error` the server sends of
    /// its own accord about a plan, with no `ref`: the user lost the role on `plan`, and every
    /// subscription and watch of it on this connection ended.
    case planError(code: ProtocolErrorCode, message: String, plan: String)
    /// `{"type":"history","plan":…,"entries":[…],"logStart":1,"more":true}`: a page of the log,
    /// newest first (protocol.md §9.1).
    case history(plan: String, entries: [HistoryEntry], logStart: Int, more: Bool, ref: String? = nil)
    /// `{"type":"schedule","plan":…,"version":14,"finish":…,"tasks":{…}}`: a version's late dates,
    /// slack and critical tasks (scheduling.md §6).
    case schedule(ScheduleAnswer, ref: String? = nil)
    /// `{"type":"role","plan":…,"role":"viewer"}`: the session's role on a plan it subscribes to
    /// changed but did not end (protocol.md §11); an event, with no `ref`.
    case role(plan: String, role: PlanRole)
    /// `{"type":"feed","plan":…,"path":"/plans/…/calendar.ics?key=…"}`: the answer to `feed`
    /// (interchange.md §13); after `"revoke":true`, `{"type":"feed","plan":…,"revoked":true}`
    /// (`path` nil).
    case feed(plan: String, path: String?, ref: String? = nil)

    /// `{"type":"tasks","plan":…,"version":12,"tasks":[…],"missing":[…]}`: the answer to `tasks`,
    /// the tasks found in the order asked, and the ids the plan does not hold (docs/protocol.md).
    case tasks(plan: String, version: Int, tasks: [GanttTask], missing: [String], ref: String? = nil)

    /// The protocol version this module speaks (`welcome.protocol`).
    public static let protocolVersion = 1

    /// The message's `type` on the wire.
    public var typeName: String {
        switch self {
        case .welcome: "welcome"
        case .error: "error"
        case .snapshot: "snapshot"
        case .resumed: "resumed"
        case .confirmed: "confirmed"
        case .ack: "ack"
        case .rejected: "rejected"
        case .page: "page"
        case .presence: "presence"
        case .plans: "plans"
        case .granted: "granted"
        case .planError: "error"
        case .history: "history"
        case .schedule: "schedule"
        case .role: "role"
        case .feed: "feed"
        case .tasks: "tasks"
        }
    }

    /// The `ref` of the request this answers, if any.
    public var ref: String? {
        switch self {
        case .welcome(_, _, _, _, _, let ref), .error(_, _, let ref), .snapshot(_, let ref), .resumed(_, _, _, let ref),
            .ack(_, _, _, _, let ref), .rejected(_, _, _, _, _, let ref, _), .page(_, _, _, _, _, let ref),
            .plans(_, let ref), .granted(_, _, _, let ref), .history(_, _, _, _, let ref), .schedule(_, let ref),
            .feed(_, _, let ref), .tasks(_, _, _, _, let ref):
            ref
        case .confirmed, .presence, .planError, .role:
            nil
        }
    }

    /// The plan the message concerns (nil for `welcome`, `plans` and a request's `error`, and for a
    /// `rejected` whose plan could not be read).
    public var plan: String? {
        switch self {
        case .welcome, .error, .plans: nil
        case .granted(let plan, _, _, _), .planError(_, _, let plan), .history(let plan, _, _, _, _),
            .role(let plan, _), .feed(let plan, _, _), .tasks(let plan, _, _, _, _):
            plan
        case .snapshot(let snapshot, _): snapshot.plan
        case .schedule(let answer, _): answer.plan
        case .resumed(let plan, _, _, _), .confirmed(let plan, _, _, _, _, _, _), .ack(_, let plan, _, _, _),
            .page(let plan, _, _, _, _, _), .presence(let plan, _, _):
            plan
        case .rejected(_, let plan, _, _, _, _, _): plan
        }
    }
}

/// One subscribed session in a `presence` message.
public struct PresenceSession: Sendable, Hashable {
    /// The session id (from `welcome.session`).
    public var session: String
    /// The user's name.
    public var user: String
    /// The client's `hello.client`.
    public var client: String

    /// Creates an entry.
    public init(session: String, user: String, client: String) {
        self.session = session
        self.user = user
        self.client = client
    }
}
