/// A named version of a plan that clients draw under the live bars (protocol.md §9.3).
public struct PlanBaseline: Sendable, Hashable, JSONEncodable {
    /// The most Unicode scalars a name may have.
    public static let maxNameLength = 128

    /// The name, unique per plan: 1…128 scalars, not blank.
    public var name: String
    /// The version it names.
    public var version: Int
    /// When it was set (UTC, RFC 3339 with milliseconds).
    public var at: String

    /// Combines the parts.
    public init(name: String, version: Int, at: String) {
        self.name = name
        self.version = version
        self.at = at
    }

    /// Writes `{"name":…,"version":12,"at":…}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("name")
        writer.string(name)
        writer.key("version")
        writer.number(version)
        writer.key("at")
        writer.string(at)
        writer.endObject()
    }

    /// Decodes `{"name":…,"version":12,"at":…}`.
    public init(json: JSONValue, path: String) throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        self.init(
            name: try PlanBaseline.validName(object, "name"), version: try object.integer("version"),
            at: try object.string("at"))
    }

    /// The member `key` of `object` as a baseline name: 1…128 scalars, not blank, else `badMessage`.
    static func validName(_ object: JSONObjectReader, _ key: String) throws(DecodingFailure) -> String {
        let name = try object.string(key)
        guard !name.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) else {
            throw object.failure(key, "a baseline name cannot be blank")
        }
        guard name.unicodeScalars.count <= maxNameLength else {
            throw object.failure(key, "a baseline name has at most \(maxNameLength) characters")
        }
        return name
    }
}

/// What a plan's data is judged with besides itself: the version it is at and the time of the
/// judgement (baselines name the one and record the other).
public struct JudgingContext: Sendable, Hashable {
    /// The version of the data being judged against.
    public var version: Int
    /// The oldest version still readable (a baseline cannot name an older one).
    public var logStart: Int
    /// The time of the judgement (UTC, RFC 3339 with milliseconds).
    public var at: String

    /// Combines the parts.
    public init(version: Int, logStart: Int = 0, at: String = "") {
        self.version = version
        self.logStart = logStart
        self.at = at
    }
}
