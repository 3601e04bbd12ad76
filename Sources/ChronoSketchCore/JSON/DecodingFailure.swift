/// Why a JSON value could not be turned into a domain value.
///
/// `code` is `badMessage` for a malformed shape (a missing field, a wrong type) and the domain's
/// rejection code for a well-formed but invalid value (`invalidSchedule` for `"2026-02-30"`,
/// `invalidProgress` for 150, …). `path` names the offending field, such as `tasks[3].schedule.end`.
public struct DecodingFailure: PlanRejection, Hashable, CustomStringConvertible {
    /// The rejection code.
    public let code: RejectionCode
    /// Where in the document the problem is (`$` for the root).
    public let path: String
    /// What is wrong there.
    public let reason: String

    /// Creates a failure.
    public init(code: RejectionCode = .badMessage, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var message: String { "\(path): \(reason)" }

    /// `code: path: reason`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The failure with `[index]` after `base`, the array's path it was reported under.
    func atElement(_ index: Int, of base: String) -> DecodingFailure {
        guard path.hasPrefix(base) else { return self }
        return DecodingFailure(code: code, path: "\(base)[\(index)]\(path.dropFirst(base.count))", reason: reason)
    }
}

/// Typed, path-aware access to the members of one JSON object.
public struct JSONObjectReader: Sendable {
    /// The object's members.
    public let members: JSONObject
    /// The path of the object itself, used in error messages.
    public let path: String

    /// Wraps `value`, which must be an object.
    /// - Throws: `DecodingFailure` (`badMessage`) when it is not an object.
    public init(_ value: JSONValue, path: String = "$") throws(DecodingFailure) {
        guard case .object(let members) = value else {
            throw DecodingFailure(path: path, reason: "expected an object, found \(value.typeName)")
        }
        self.members = members
        self.path = path
    }

    /// The path of a member.
    public func path(_ key: String) -> String {
        path == "$" ? key : "\(path).\(key)"
    }

    /// A failure at a member.
    public func failure(_ key: String, _ reason: String, code: RejectionCode = .badMessage) -> DecodingFailure {
        DecodingFailure(code: code, path: path(key), reason: reason)
    }

    /// The member's value, which must be present (it may be null).
    public func required(_ key: String) throws(DecodingFailure) -> JSONValue {
        guard let value = members[key] else { throw failure(key, "is missing") }
        return value
    }

    /// A required string member (refused when it holds U+0000, see `TextPolicy`).
    public func string(_ key: String) throws(DecodingFailure) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw failure(key, "expected a string, found \(value.typeName)") }
        // The path is only spelled out for a failure (building it for every field costs a decode).
        if let problem = TextPolicy.problem(text) { throw failure(key, problem) }
        return text
    }

    /// A string member that may be absent or null (refused when it holds U+0000).
    public func optionalString(_ key: String) throws(DecodingFailure) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string?: return try string(key)
        case let value?: throw failure(key, "expected a string or null, found \(value.typeName)")
        }
    }

    /// A required number member.
    public func number(_ key: String) throws(DecodingFailure) -> Double {
        let value = try required(key)
        guard case .number(let number) = value else {
            throw failure(key, "expected a number, found \(value.typeName)")
        }
        return number
    }

    /// A number member that may be absent or null.
    public func optionalNumber(_ key: String) throws(DecodingFailure) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .number(let number)?: return number
        case let value?: throw failure(key, "expected a number, found \(value.typeName)")
        }
    }

    /// A required integer member (a number without fraction, within ±2⁵³).
    public func integer(_ key: String) throws(DecodingFailure) -> Int {
        let number = try number(key)
        guard number == number.rounded(), abs(number) <= 0x1p53 else { throw failure(key, "expected an integer") }
        return Int(number)
    }

    /// Whether the member is there and not null (one lookup).
    public func isPresent(_ key: String) -> Bool {
        if let value = members[key] { value != .null } else { false }
    }

    /// An integer member that may be absent or null.
    public func optionalInteger(_ key: String) throws(DecodingFailure) -> Int? {
        guard isPresent(key) else { return nil }
        return try integer(key)
    }

    /// A boolean member that may be absent or null.
    public func optionalBool(_ key: String) throws(DecodingFailure) -> Bool? {
        guard let value = members[key], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw failure(key, "expected a boolean, found \(value.typeName)") }
        return flag
    }

    /// A required array member.
    public func array(_ key: String) throws(DecodingFailure) -> [JSONValue] {
        let value = try required(key)
        guard case .array(let elements) = value else {
            throw failure(key, "expected an array, found \(value.typeName)")
        }
        return elements
    }

    /// An array member that may be absent (then empty).
    public func optionalArray(_ key: String) throws(DecodingFailure) -> [JSONValue] {
        guard isPresent(key) else { return [] }
        return try array(key)
    }

    /// A required object member.
    public func object(_ key: String) throws(DecodingFailure) -> JSONObjectReader {
        try JSONObjectReader(try required(key), path: path(key))
    }

    /// An object member that may be absent or null.
    public func optionalObject(_ key: String) throws(DecodingFailure) -> JSONObjectReader? {
        guard let value = members[key], value != .null else { return nil }
        return try JSONObjectReader(value, path: path(key))
    }

    /// Decodes each element of an array member with `decode`, passing the array's path: a
    /// failure's path then gets the element's index after it (`tasks` → `tasks[3]`), so that no
    /// path is written for the elements that decode.
    public func map<T>(
        _ key: String, optional: Bool = false, _ decode: (JSONValue, String) throws(DecodingFailure) -> T
    ) throws(DecodingFailure) -> [T] {
        let elements = optional ? try optionalArray(key) : try array(key)
        var result: [T] = []
        result.reserveCapacity(elements.count)
        let base = path(key)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try decode(element, base))
            } catch {
                throw error.atElement(index, of: base)
            }
        }
        return result
    }

    /// The strings of an array member (`[]` for an absent one when `optional`).
    public func strings(_ key: String, optional: Bool = false) throws(DecodingFailure) -> [String] {
        try map(key, optional: optional) { value, path throws(DecodingFailure) in
            guard case .string(let text) = value else {
                throw DecodingFailure(path: path, reason: "expected a string, found \(value.typeName)")
            }
            return text
        }
    }
}
