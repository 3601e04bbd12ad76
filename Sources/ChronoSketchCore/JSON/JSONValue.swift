/// A parsed JSON document.
///
/// Objects keep their members in a `JSONObject` (a repeated name keeps its last value); numbers are
/// `Double`, which holds every integer the contract uses exactly (up to 2⁵³).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Parses UTF-8 JSON text strictly (RFC 8259): no trailing commas, comments or bare words,
    /// valid UTF-8 only, nesting at most `maxDepth` arrays and objects deep.
    /// - Throws: `JSONParseError` with the byte offset of the problem.
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONParseError) {
        let array = Array(bytes)
        self = try array.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return try parser.parseDocument()
        }
    }

    /// Parses UTF-8 JSON text as `init(parsing:maxDepth:)` does, except that an array or object
    /// nested deeper than `maxDepth` is skipped (its brackets and strings checked, nothing built)
    /// and read as `null`: what lies above it can still be read (the id of a message that nests
    /// too deep, say). Returns the value and whether anything was skipped.
    /// - Throws: `JSONParseError` for text that is not JSON.
    public static func parsingShallow(_ bytes: some Collection<UInt8>, maxDepth: Int) throws(JSONParseError) -> (
        value: JSONValue, skippedDeep: Bool
    ) {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(buffer, maxDepth: maxDepth, skipsDeep: true)
            let value = try parser.parseDocument()
            return (value, parser.skippedDeep)
        }
    }

    /// Parses JSON text; see `init(parsing:maxDepth:)`.
    public init(parsing text: String, maxDepth: Int = 64) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }

    /// The name of this value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why JSON text could not be parsed.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset of the problem in the input.
    public let offset: Int
    /// What is wrong there.
    public let reason: String

    /// `invalid JSON at byte N: reason`.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }

    /// Whether the problem is text that is not valid UTF-8 (the contract closes with 1007).
    public var isInvalidUTF8: Bool { reason == JSONParser.invalidUTF8 }
    /// Whether the problem is nesting beyond the limit.
    public var isTooDeep: Bool { reason.hasPrefix(JSONParser.tooDeepPrefix) }
}
