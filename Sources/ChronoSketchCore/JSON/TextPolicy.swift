/// What a string read from JSON may hold.
///
/// JSON allows `"\u0000"`, but nothing downstream can keep it faithfully: PostgreSQL's `text`
/// cannot hold U+0000, and libpq, the terminal and most C APIs take strings that end at the first
/// NUL (so `"demo\u0000x"` would reach the database as `"demo"`). A string with a NUL is therefore
/// refused where it is read, as `badMessage`, before it can name a plan, a user or a stored value.
/// Every other scalar is kept as sent (lone surrogates cannot occur: the parser refuses them).
public enum TextPolicy {
    /// The reason a string read from JSON is refused, or nil when it is acceptable.
    public static func problem(_ text: String) -> String? {
        containsNUL(text) ? "must not contain U+0000 (NUL)" : nil
    }

    /// Whether `text` holds U+0000, read from its contiguous UTF-8 where it has it (every string
    /// the parser makes does): one pass over the bytes, no iterator per byte.
    @inline(__always)
    public static func containsNUL(_ text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0 { return true }
                index += 1
            }
            return false
        }) {
            return found
        }
        return text.utf8.contains(0)
    }
}

extension JSONValue {
    /// The string this value holds, checked against `TextPolicy`.
    /// - Throws: `DecodingFailure` (`badMessage`) at `path` for another type or a refused string.
    public func text(at path: String) throws(DecodingFailure) -> String {
        guard case .string(let text) = self else {
            throw DecodingFailure(path: path, reason: "expected a string, found \(typeName)")
        }
        if let problem = TextPolicy.problem(text) { throw DecodingFailure(path: path, reason: problem) }
        return text
    }
}
