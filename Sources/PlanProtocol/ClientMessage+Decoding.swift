import ChronoSketchCore

extension ClientMessage {
    /// Decodes one client frame, enforcing `limits`.
    ///
    /// The error says exactly how the server must answer (protocol.md §5, §6):
    /// - `tooLarge` (close 1009) for a frame over `maxMessageBytes`, `invalidUTF8` (close 1007);
    /// - `error` `badMessage` for text that is not JSON, not an object, nested deeper than
    ///   `maxDepth`, without a string `type`, or with a missing or mistyped field (the message names
    ///   the field's path); `unsupported` for an unknown `type`; `badQuery` for a well-formed query
    ///   with unacceptable values. A readable `ref` is echoed;
    /// - `rejected` for a `propose` whose `id` could be read but that is malformed otherwise:
    ///   `badMessage`, or the value's own rejection code (`invalidSchedule`, `blankID`, …).
    ///
    /// Unknown fields are ignored; a null optional field counts as absent.
    public static func decode(
        _ bytes: [UInt8], limits: ProtocolLimits = .standard
    ) throws(ClientMessageError) -> ClientMessage {
        guard bytes.count <= limits.maxMessageBytes else {
            throw .tooLarge(byteCount: bytes.count, limit: limits.maxMessageBytes)
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes, maxDepth: limits.maxDepth)
        } catch {
            // The parser checks UTF-8 inside strings; outside them any non-ASCII byte is an error of
            // its own, so look at the whole text before calling it merely bad JSON.
            if error.isInvalidUTF8 || String(validating: bytes, as: UTF8.self) == nil { throw .invalidUTF8 }
            if error.isTooDeep { throw tooDeep(bytes, limits: limits) }
            throw .error(code: .badMessage, message: error.description, ref: nil)
        }
        return try decode(json: json, limits: limits)
    }

    /// The answer to a message that nests deeper than `maxDepth`: what lies above the limit is
    /// read, so that a `propose` whose id is readable is settled with `rejected` like any other
    /// malformed proposal (protocol.md §5), and a readable `ref` is echoed.
    private static func tooDeep(_ bytes: [UInt8], limits: ProtocolLimits) -> ClientMessageError {
        let reason = "the message nests arrays and objects deeper than \(limits.maxDepth) levels"
        guard case (.object(let members), _)? = try? JSONValue.parsingShallow(bytes, maxDepth: limits.maxDepth),
            let object = try? JSONObjectReader(.object(members))
        else { return .error(code: .badMessage, message: reason, ref: nil) }
        let reader = RequestReader(object: object, limits: limits)
        guard case .string("propose")? = members["type"], let id = try? reader.id("id") else {
            return .error(code: .badMessage, message: reason, ref: reader.readableRef)
        }
        return .rejected(id: id, plan: reader.readablePlan, code: .badMessage, message: reason, ref: reader.readableRef)
    }

    /// Decodes one client frame given as text; see `decode(_:limits:)`.
    public static func decode(
        _ text: String, limits: ProtocolLimits = .standard
    ) throws(ClientMessageError) -> ClientMessage {
        try decode(Array(text.utf8), limits: limits)
    }

    /// Decodes an already parsed message; see `decode(_:limits:)`.
    public static func decode(
        json: JSONValue, limits: ProtocolLimits = .standard
    ) throws(ClientMessageError) -> ClientMessage {
        guard case .object(let members) = json else {
            throw .error(code: .badMessage, message: "$: expected an object, found \(json.typeName)", ref: nil)
        }
        let reader = RequestReader(object: try! JSONObjectReader(json), limits: limits)
        let ref = reader.readableRef
        guard let typeValue = members["type"] else {
            throw .error(code: .badMessage, message: "type: is missing", ref: ref)
        }
        guard case .string(let type) = typeValue else {
            throw .error(code: .badMessage, message: "type: expected a string, found \(typeValue.typeName)", ref: ref)
        }
        if type == "propose" { return try reader.propose() }
        guard ClientMessage.typeNames.contains(type) else {
            throw .error(code: .unsupported, message: "unknown message type \(quoted(type))", ref: ref)
        }
        do {
            return try reader.request(type)
        } catch {
            // Only a query's values fail with another code than badMessage.
            throw .error(code: error.code == .badMessage ? .badMessage : .badQuery, message: error.message, ref: ref)
        }
    }
}

/// Reads the fields of one request object under the limits.
private struct RequestReader {
    let object: JSONObjectReader
    let limits: ProtocolLimits

    /// The `ref` when it is a string of at most `maxIDLength` scalars.
    var readableRef: String? {
        guard case .string(let ref)? = object.members["ref"], ref.unicodeScalars.hasAtMost(limits.maxIDLength),
            TextPolicy.problem(ref) == nil
        else { return nil }
        return ref
    }

    /// The `ref`, which may be absent or null but else must be readable.
    func ref() throws(DecodingFailure) -> String? {
        guard let ref = try object.optionalString("ref") else { return nil }
        guard ref.unicodeScalars.hasAtMost(limits.maxIDLength) else {
            throw object.failure("ref", "is longer than \(limits.maxIDLength) Unicode scalars")
        }
        return ref
    }

    /// The `plan` when it is a string that can name a plan (for a rejection's `plan`).
    var readablePlan: String? {
        guard case .string(let plan)? = object.members["plan"], limits.isValidID(plan), TextPolicy.problem(plan) == nil
        else { return nil }
        return plan
    }

    /// A required id of 1…`maxIDLength` scalars.
    func id(_ key: String) throws(DecodingFailure) -> String {
        let id = try object.string(key)
        if let problem = limits.idProblem(id) { throw object.failure(key, problem) }
        return id
    }

    /// A required integer ≥ 0.
    func nonnegative(_ key: String) throws(DecodingFailure) -> Int {
        let value = try object.integer(key)
        guard value >= 0 else { throw object.failure(key, "must not be negative") }
        return value
    }

    /// The `query` member; value problems keep their codes (they become `badQuery`). A resource id
    /// over the id limit cannot name a resource: `unknownResource`.
    func query() throws(DecodingFailure) -> TimelineQuery {
        let query = try TimelineQuery(json: try object.required("query"), path: object.path("query"))
        for (index, id) in query.resourceIDs.enumerated() where !limits.isValidID(id) {
            throw DecodingFailure(
                code: .unknownResource, path: "query.resourceIDs[\(index)]",
                reason: "is longer than \(limits.maxIDLength) Unicode scalars")
        }
        return query
    }

    /// Every request but `propose`, by its known `type`.
    func request(_ type: String) throws(DecodingFailure) -> ClientMessage {
        switch type {
        case "hello":
            let token = try object.string("token")
            let client = try object.optionalString("client") ?? ""
            guard client.unicodeScalars.hasAtMost(limits.maxIDLength) else {
                throw object.failure("client", "is longer than \(limits.maxIDLength) Unicode scalars")
            }
            return .hello(token: token, client: client, ref: try ref())
        case "subscribe":
            let plan = try id("plan")
            var since: Int?
            if object.isPresent("since") { since = try nonnegative("since") }
            return .subscribe(plan: plan, since: since, ref: try ref())
        case "unsubscribe":
            return .unsubscribe(plan: try id("plan"), ref: try ref())
        case "query":
            let plan = try id("plan")
            return .query(plan: plan, query: try query(), ref: try ref())
        case "watch":
            let plan = try id("plan")
            let watch = try id("watch")
            return .watch(plan: plan, query: try query(), watch: watch, ref: try ref())
        case "unwatch":
            return .unwatch(watch: try id("watch"), ref: try ref())
        case "plans":
            return .plans(ref: try ref())
        case "grant":
            let plan = try id("plan")
            let user = try id("user")
            guard object.members["role"] != nil else { throw object.failure("role", "is missing (null revokes)") }
            return .grant(plan: plan, user: user, role: try object.optionalRole("role"), ref: try ref())
        case "feed":
            let plan = try id("plan")
            return .feed(plan: plan, revoke: try object.optionalBool("revoke") ?? false, ref: try ref())
        case "history":
            let plan = try id("plan")
            let before = try object.optionalInteger("before")
            let limit = try object.optionalInteger("limit")
            if let limit, !(1...ClientMessage.maxHistoryLimit).contains(limit) {
                throw object.failure("limit", "must be 1…\(ClientMessage.maxHistoryLimit), not \(limit)")
            }
            return .history(plan: plan, before: before, limit: limit, ref: try ref())
        case "fetch":
            let plan = try id("plan")
            return .fetch(plan: plan, version: try object.integer("version"), ref: try ref())
        case "schedule":
            let plan = try id("plan")
            let version = try object.optionalInteger("version")
            if let version, version < 0 { throw object.failure("version", "must not be negative") }
            let ids = object.isPresent("ids") ? try object.strings("ids") : nil
            return .schedule(plan: plan, version: version, ids: ids, ref: try ref())
        case "tasks":
            let plan = try id("plan")
            return .tasks(plan: plan, ids: try object.strings("ids"), ref: try ref())
        default:
            preconditionFailure("\(type) is not a request type")
        }
    }

    /// A `propose`: an error only while its `id` cannot be read, a rejection after that.
    func propose() throws(ClientMessageError) -> ClientMessage {
        let id: String
        do {
            id = try self.id("id")
        } catch {
            throw .error(code: .badMessage, message: error.message, ref: readableRef)
        }
        do throws(DecodingFailure) {
            let plan = try self.id("plan")
            let baseVersion = try nonnegative("baseVersion")
            let operation = try PlanOperation(json: try object.required("op"), path: object.path("op"))
            if let failure = operation.limitFailure(limits, path: object.path("op")) { throw failure }
            return .propose(id: id, plan: plan, baseVersion: baseVersion, operation: operation, ref: try ref())
        } catch {
            throw .rejected(id: id, plan: readablePlan, code: error.code, message: error.message, ref: readableRef)
        }
    }
}

/// `text` in quotes for a message, shortened when long.
func quoted(_ text: String, limit: Int = 64) -> String {
    let scalars = text.unicodeScalars
    guard !scalars.hasAtMost(limit) else { return "\"\(text)\"" }
    var short = String.UnicodeScalarView()
    short.append(contentsOf: scalars.prefix(limit))
    return "\"\(String(short))…\""
}
