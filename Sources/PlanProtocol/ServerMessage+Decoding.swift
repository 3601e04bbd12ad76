import ChronoSketchCore

extension ServerMessage {
    /// Decodes one server frame into its messages: a single object, or a JSON array of objects
    /// that the server batched in order (protocol.md §1).
    /// - Throws: `DecodingFailure` naming the first offending field (`[2].changes.upsert[0].id`).
    public static func decodeFrame(_ bytes: [UInt8], maxDepth: Int = 64) throws(DecodingFailure) -> [ServerMessage] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes, maxDepth: maxDepth)
        } catch {
            throw DecodingFailure(path: "$", reason: error.description)
        }
        guard case .array(let elements) = json else { return [try decode(json: json)] }
        var messages: [ServerMessage] = []
        messages.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            messages.append(try decode(json: element, path: "[\(index)]"))
        }
        return messages
    }

    /// Decodes one server message (a single object, not a batch).
    /// - Throws: `DecodingFailure` naming the offending field.
    public static func decode(_ bytes: [UInt8], maxDepth: Int = 64) throws(DecodingFailure) -> ServerMessage {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes, maxDepth: maxDepth)
        } catch {
            throw DecodingFailure(path: "$", reason: error.description)
        }
        return try decode(json: json)
    }

    /// Decodes one parsed server message. Unknown fields are ignored; an unknown `type` fails.
    public static func decode(json: JSONValue, path: String = "$") throws(DecodingFailure) -> ServerMessage {
        let object = try JSONObjectReader(json, path: path)
        let ref = try object.optionalString("ref")
        let type = try object.string("type")
        switch type {
        case "welcome":
            return .welcome(
                session: try object.string("session"), user: try object.string("user"),
                protocolVersion: try object.integer("protocol"), server: try object.string("server"),
                limits: try ProtocolLimits(json: try object.required("limits"), path: object.path("limits")), ref: ref)
        case "error":
            let code = try object.string("code")
            guard let errorCode = ProtocolErrorCode(rawValue: code) else {
                throw object.failure("code", "unknown error code \(quoted(code))")
            }
            if let plan = try object.optionalString("plan"), ref == nil {
                return .planError(code: errorCode, message: try object.string("message"), plan: plan)
            }
            return .error(code: errorCode, message: try object.string("message"), ref: ref)
        case "snapshot":
            return .snapshot(try PlanSnapshot(json: json, path: path), ref: ref)
        case "resumed":
            return .resumed(
                plan: try object.string("plan"), version: try object.integer("version"),
                role: try object.optionalRole("role"), ref: ref)
        case "role":
            return .role(plan: try object.string("plan"), role: try object.role("role"))
        case "confirmed":
            let mutation = try object.object("mutation")
            return .confirmed(
                plan: try object.string("plan"), version: try object.integer("version"),
                mutationID: try mutation.string("id"), user: try mutation.string("user"),
                changes: try PlanChanges(json: try object.required("changes"), path: object.path("changes")),
                at: try object.optionalString("at") ?? "", undoes: try mutation.optionalInteger("undoes"))
        case "ack":
            var noop = false
            switch object.members["noop"] {
            case nil, .null?: break
            case .bool(let flag)?: noop = flag
            case let value?: throw object.failure("noop", "expected a boolean, found \(value.typeName)")
            }
            return .ack(
                id: try object.string("id"), plan: try object.string("plan"), version: try object.integer("version"),
                noop: noop, ref: ref)
        case "rejected":
            let code = try object.string("code")
            guard let rejectionCode = RejectionCode(rawValue: code) else {
                throw object.failure("code", "unknown rejection code \(quoted(code))")
            }
            var conflict: ConflictDetail?
            if let detail = try object.optionalObject("conflict") {
                conflict = ConflictDetail(
                    task: try detail.string("task"),
                    earliest: try CivilDate(json: detail, key: "earliest", code: .badMessage))
            }
            return .rejected(
                id: try object.string("id"), plan: try object.optionalString("plan"), code: rejectionCode,
                message: try object.string("message"), version: try object.optionalInteger("version"), ref: ref,
                conflict: conflict)
        case "page":
            return .page(
                plan: try object.string("plan"), watch: try object.optionalString("watch"),
                version: try object.integer("version"),
                query: try TimelineQuery(json: try object.required("query"), path: object.path("query")),
                page: try TimelinePage(json: json, path: path), ref: ref)
        case "feed":
            return .feed(plan: try object.string("plan"), path: try object.optionalString("path"), ref: ref)
        case "granted":
            return .granted(
                plan: try object.string("plan"), user: try object.string("user"), role: try object.optionalRole("role"),
                ref: ref)
        default:
            guard let listing = try decodeListing(type, object, ref: ref) else {
                throw object.failure("type", "unknown message type \(quoted(type))")
            }
            return listing
        }
    }

    /// The messages that list things: `presence`, `plans`, `history`, `schedule`, `tasks`; nil for
    /// another type.
    private static func decodeListing(_ type: String, _ object: JSONObjectReader, ref: String?)
        throws(DecodingFailure) -> ServerMessage?
    {
        switch type {
        case "presence":
            let sessions = try object.map("sessions") { value, path throws(DecodingFailure) in
                let session = try JSONObjectReader(value, path: path)
                return PresenceSession(
                    session: try session.string("session"), user: try session.string("user"),
                    client: try session.optionalString("client") ?? "")
            }
            return .presence(plan: try object.string("plan"), count: try object.integer("count"), sessions: sessions)
        case "plans":
            let entries = try object.map("plans") { value, path throws(DecodingFailure) in
                let entry = try JSONObjectReader(value, path: path)
                return PlanListing(
                    plan: try entry.string("plan"), title: try entry.string("title"), role: try entry.role("role"),
                    version: try entry.integer("version"))
            }
            return .plans(entries, ref: ref)
        case "history":
            let entries = try object.map("entries") { value, path throws(DecodingFailure) in
                try HistoryEntry(json: value, path: path)
            }
            return .history(
                plan: try object.string("plan"), entries: entries, logStart: try object.integer("logStart"),
                more: try object.optionalBool("more") ?? false, ref: ref)
        case "schedule":
            return .schedule(try ScheduleAnswer(object), ref: ref)
        case "tasks":
            let tasks = try object.map("tasks") { value, path throws(DecodingFailure) in
                try GanttTask(json: value, path: path)
            }
            return .tasks(
                plan: try object.string("plan"), version: try object.integer("version"), tasks: tasks,
                missing: try object.strings("missing", optional: true), ref: ref)
        default:
            return nil
        }
    }
}
