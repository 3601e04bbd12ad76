import ChronoSketchCore

extension ClientMessage: JSONEncodable {
    /// Writes the message as its wire object: `type` first, then the fields in the order of
    /// protocol.md, then `ref` when present; `since` and `client` only when present / nonempty.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(typeName)
        switch self {
        case .hello(let token, let client, _):
            writer.member("token", token)
            if !client.isEmpty { writer.member("client", client) }
        case .subscribe(let plan, let since, _):
            writer.member("plan", plan)
            if let since {
                writer.key("since")
                writer.number(since)
            }
        case .unsubscribe(let plan, _):
            writer.member("plan", plan)
        case .query(let plan, let query, _):
            writer.member("plan", plan)
            writer.key("query")
            query.encodeJSON(into: &writer)
        case .watch(let plan, let query, let watch, _):
            writer.member("plan", plan)
            writer.key("query")
            query.encodeJSON(into: &writer)
            writer.member("watch", watch)
        case .unwatch(let watch, _):
            writer.member("watch", watch)
        case .plans:
            break
        case .grant(let plan, let user, let role, _):
            writer.member("plan", plan)
            writer.member("user", user)
            writer.key("role")
            if let role { writer.string(role.rawValue) } else { writer.null() }
        case .history(let plan, let before, let limit, _):
            writer.member("plan", plan)
            for (key, value) in [("before", before), ("limit", limit)] {
                guard let value else { continue }
                writer.key(key)
                writer.number(value)
            }
        case .feed(let plan, let revoke, _):
            writer.member("plan", plan)
            if revoke {
                writer.key("revoke")
                writer.bool(true)
            }
        case .fetch(let plan, let version, _):
            writer.member("plan", plan)
            writer.key("version")
            writer.number(version)
        case .schedule(let plan, let version, let ids, _):
            writer.member("plan", plan)
            if let version {
                writer.key("version")
                writer.number(version)
            }
            if let ids {
                writer.key("ids")
                writer.beginArray()
                for id in ids { writer.string(id) }
                writer.endArray()
            }
        case .tasks(let plan, let ids, _):
            writer.member("plan", plan)
            writer.key("ids")
            writer.beginArray()
            for id in ids { writer.string(id) }
            writer.endArray()
        case .propose(let id, let plan, let baseVersion, let operation, _):
            writer.member("id", id)
            writer.member("plan", plan)
            writer.key("baseVersion")
            writer.number(baseVersion)
            writer.key("op")
            operation.encodeJSON(into: &writer)
        }
        if let ref { writer.member("ref", ref) }
        writer.endObject()
    }
}
