import ChronoSketchCore

extension ServerMessage: JSONEncodable {
    /// Writes the message as its compact wire object: `type` first, then the fields in the order of
    /// protocol.md, then `ref` when present.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(typeName)
        switch self {
        case .welcome(let session, let user, let protocolVersion, let server, let limits, _):
            writer.member("session", session)
            writer.member("user", user)
            writer.member("protocol", protocolVersion)
            writer.member("server", server)
            writer.key("limits")
            limits.encodeJSON(into: &writer)
        case .error(let code, let message, _):
            writer.member("code", code.rawValue)
            writer.member("message", message)
        case .snapshot(let snapshot, _):
            snapshot.encodeMembers(into: &writer)
        case .resumed(let plan, let version, let role, _):
            writer.member("plan", plan)
            writer.member("version", version)
            if let role { writer.member("role", role.rawValue) }
        case .role(let plan, let role):
            writer.member("plan", plan)
            writer.member("role", role.rawValue)
        case .confirmed(let plan, let version, let mutationID, let user, let changes, let at, let undoes):
            ServerMessage.encodeConfirmedHead(
                plan: plan, version: version,
                mutation: MutationStamp(id: mutationID, user: user, at: at, undoes: undoes),
                &writer)
            changes.encodeJSON(into: &writer)
        case .ack(let id, let plan, let version, let noop, _):
            writer.member("id", id)
            writer.member("plan", plan)
            writer.member("version", version)
            if noop {
                writer.key("noop")
                writer.bool(true)
            }
        case .rejected(let id, let plan, let code, let message, let version, _, let conflict):
            writer.member("id", id)
            if let plan { writer.member("plan", plan) }
            writer.member("code", code.rawValue)
            writer.member("message", message)
            if let conflict { ServerMessage.encodeConflict(conflict, &writer) }
            if let version { writer.member("version", version) }
        case .page(let plan, let watch, let version, let query, let page, _):
            writer.member("plan", plan)
            if let watch { writer.member("watch", watch) }
            writer.member("version", version)
            writer.key("query")
            query.encodeJSON(into: &writer)
            page.encodeMembers(into: &writer)
        case .plans(let entries, _):
            ServerMessage.encodePlans(entries, &writer)
        case .granted, .feed:
            encodeAccessAnswer(&writer)
        case .planError(let code, let message, let plan):
            writer.member("code", code.rawValue)
            writer.member("message", message)
            writer.member("plan", plan)
        case .history(let plan, let entries, let logStart, let more, _):
            ServerMessage.encodeHistory(plan: plan, entries: entries, logStart: logStart, more: more, &writer)
        case .schedule(let answer, _):
            answer.encodeMembers(into: &writer)
        case .tasks(let plan, let version, let tasks, let missing, _):
            ServerMessage.encodeTasks(plan: plan, version: version, tasks: tasks, missing: missing, &writer)
        case .presence(let plan, let count, let sessions):
            writer.member("plan", plan)
            writer.member("count", count)
            ServerMessage.encodeSessions(sessions, &writer)
        }
        if let ref { writer.member("ref", ref) }
        writer.endObject()
    }

    /// Writes the members of `granted` (`"plan","user","role"`) and `feed` (`"plan"`, then
    /// `"path"` or `"revoked":true`).
    private func encodeAccessAnswer(_ writer: inout JSONWriter) {
        switch self {
        case .granted(let plan, let user, let role, _):
            writer.member("plan", plan)
            writer.member("user", user)
            writer.key("role")
            if let role { writer.string(role.rawValue) } else { writer.null() }
        case .feed(let plan, let path, _):
            writer.member("plan", plan)
            if let path {
                writer.member("path", path)
            } else {
                writer.key("revoked")
                writer.bool(true)
            }
        default:
            preconditionFailure("not an access answer")
        }
    }

    /// Writes `"plan":…,"version":…,"tasks":[…],"missing":[…]`.
    private static func encodeTasks(
        plan: String, version: Int, tasks: [GanttTask], missing: [String], _ writer: inout JSONWriter
    ) {
        writer.member("plan", plan)
        writer.member("version", version)
        writer.key("tasks")
        writer.array(tasks)
        writer.key("missing")
        writer.beginArray()
        for id in missing { writer.string(id) }
        writer.endArray()
    }

    /// Writes `"conflict":{"task":…,"earliest":…}` (scheduling.md §4.3).
    private static func encodeConflict(_ conflict: ConflictDetail, _ writer: inout JSONWriter) {
        writer.key("conflict")
        writer.beginObject()
        writer.member("task", conflict.task)
        writer.key("earliest")
        writer.date(conflict.earliest)
        writer.endObject()
    }

    /// Writes `"plan":…,"entries":[…],"logStart":…,"more":…`.
    private static func encodeHistory(
        plan: String, entries: [HistoryEntry], logStart: Int, more: Bool, _ writer: inout JSONWriter
    ) {
        writer.key("plan")
        writer.string(plan)
        writer.key("entries")
        writer.array(entries)
        writer.key("logStart")
        writer.number(logStart)
        writer.key("more")
        writer.bool(more)
    }

    /// Writes `"plans":[{"plan":…,"title":…,"role":…,"version":…},…]`.
    private static func encodePlans(_ entries: [PlanListing], _ writer: inout JSONWriter) {
        writer.key("plans")
        writer.beginArray()
        for entry in entries {
            writer.beginObject()
            writer.key("plan")
            writer.string(entry.plan)
            writer.key("title")
            writer.string(entry.title)
            writer.key("role")
            writer.string(entry.role.rawValue)
            writer.key("version")
            writer.number(entry.version)
            writer.endObject()
        }
        writer.endArray()
    }

    /// Writes `"sessions":[{"session":…,"user":…,"client":…},…]`.
    private static func encodeSessions(_ sessions: [PresenceSession], _ writer: inout JSONWriter) {
        writer.key("sessions")
        writer.beginArray()
        for session in sessions {
            writer.beginObject()
            writer.key("session")
            writer.string(session.session)
            writer.key("user")
            writer.string(session.user)
            writer.key("client")
            writer.string(session.client)
            writer.endObject()
        }
        writer.endArray()
    }

    /// A `confirmed` message around `changes` JSON that is already encoded (by
    /// `PlanChanges.bytes` once for every receiver, or read back from the mutation log).
    ///
    /// With `changesJSON == changes.bytes` the result equals
    /// `ServerMessage.confirmed(…, changes: changes).bytes` byte for byte.
    public static func confirmedBytes(
        plan: String, version: Int, mutation: MutationStamp, changesJSON: some Sequence<UInt8>
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type")
        writer.string("confirmed")
        encodeConfirmedHead(plan: plan, version: version, mutation: mutation, &writer)
        writer.raw(changesJSON)
        writer.endObject()
        return writer.bytes
    }

    /// Writes `"plan":…,"version":…,"mutation":{"id":…,"user":…,"undoes":V},"at":…,"changes":`
    /// (the value follows).
    private static func encodeConfirmedHead(
        plan: String, version: Int, mutation: MutationStamp, _ writer: inout JSONWriter
    ) {
        writer.key("plan")
        writer.string(plan)
        writer.key("version")
        writer.number(version)
        writer.key("mutation")
        writer.beginObject()
        writer.key("id")
        writer.string(mutation.id)
        writer.key("user")
        writer.string(mutation.user)
        if let undoes = mutation.undoes {
            writer.key("undoes")
            writer.number(undoes)
        }
        writer.endObject()
        if !mutation.at.isEmpty {
            writer.key("at")
            writer.string(mutation.at)
        }
        writer.key("changes")
    }

    /// One frame carrying several encoded messages in order: a JSON array of them, or the single
    /// message itself when there is only one (protocol.md §1).
    public static func frame<Message: Collection<UInt8>>(joining messages: [Message]) -> [UInt8] {
        if messages.count == 1 { return Array(messages[0]) }
        var frame: [UInt8] = []
        frame.reserveCapacity(messages.reduce(2) { $0 + $1.count + 1 })
        frame.append(UInt8(ascii: "["))
        for (index, message) in messages.enumerated() {
            if index > 0 { frame.append(UInt8(ascii: ",")) }
            frame.append(contentsOf: message)
        }
        frame.append(UInt8(ascii: "]"))
        return frame
    }
}

/// Who confirmed a version, when, and which version it undoes: the `confirmed` members besides
/// the plan, the version and the changes.
public struct MutationStamp: Sendable, Hashable {
    /// The proposal id.
    public var id: String
    /// The proposing user.
    public var user: String
    /// When the server confirmed it (UTC, RFC 3339 with milliseconds; empty: not known).
    public var at: String
    /// The version it undoes, for a confirmed undo.
    public var undoes: Int?

    /// Combines the parts.
    public init(id: String, user: String, at: String = "", undoes: Int? = nil) {
        self.id = id
        self.user = user
        self.at = at
        self.undoes = undoes
    }
}
