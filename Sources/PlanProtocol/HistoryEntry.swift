import ChronoSketchCore

/// One version of a plan's log as `history` lists it (protocol.md §9.1).
public struct HistoryEntry: Sendable, Hashable, JSONEncodable {
    /// The version it produced.
    public var version: Int
    /// When the server confirmed it (UTC, RFC 3339 with milliseconds).
    public var at: String
    /// The proposal id.
    public var mutationID: String
    /// The proposing user.
    public var user: String
    /// The op as confirmed (for an undo, the op the server built, with `"undoes"`), as compact
    /// JSON text; nil when the log does not have it.
    public var opJSON: String?
    /// The `changes` the version's `confirmed` carried, as JSON text.
    public var changesJSON: String

    /// Combines the parts.
    public init(version: Int, at: String, mutationID: String, user: String, opJSON: String?, changesJSON: String) {
        self.version = version
        self.at = at
        self.mutationID = mutationID
        self.user = user
        self.opJSON = opJSON
        self.changesJSON = changesJSON
    }

    /// The version it undoes, when it is a confirmed undo.
    public var undoes: Int? {
        guard let opJSON, let op = try? JSONObjectReader(JSONValue(parsing: Array(opJSON.utf8))) else { return nil }
        return try? op.optionalInteger("undoes")
    }

    /// Writes `{"version":…,"at":…,"mutation":{"id":…,"user":…},"op":{…},"changes":{…}}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version")
        writer.number(version)
        writer.key("at")
        writer.string(at)
        writer.key("mutation")
        writer.beginObject()
        writer.key("id")
        writer.string(mutationID)
        writer.key("user")
        writer.string(user)
        if let undoes {
            writer.key("undoes")
            writer.number(undoes)
        }
        writer.endObject()
        writer.key("op")
        if let opJSON { writer.raw(opJSON.utf8) } else { writer.null() }
        writer.key("changes")
        writer.raw(changesJSON.utf8)
        writer.endObject()
    }

    /// Decodes one entry of a `history` message.
    public init(json: JSONValue, path: String) throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let mutation = try object.object("mutation")
        func text(_ value: JSONValue) -> String {
            var writer = JSONWriter()
            writer.value(value)
            return writer.string
        }
        self.init(
            version: try object.integer("version"), at: try object.string("at"), mutationID: try mutation.string("id"),
            user: try mutation.string("user"), opJSON: object.isPresent("op") ? text(try object.required("op")) : nil,
            changesJSON: text(try object.required("changes")))
    }
}
