import WebSocketWire

/// The choices a request's `Accept-Encoding` and `Accept-Language` make (RFC 9110 §12.5), as
/// pure functions of the fields' elements (`HTTPRequestHead.elements`: split at commas, trimmed).
public enum ContentNegotiation {
    /// A content coding this server can send.
    public enum Coding: String, Sendable, Equatable {
        /// The bytes as they are.
        case identity
        /// Gzip (RFC 1952).
        case gzip
    }

    /// One element of an `Accept-…` list: its value (lowercased) and its weight in thousandths.
    public struct Preference: Sendable, Equatable {
        /// The coding, language range or `*`, lowercased.
        public let value: String
        /// The `q` parameter in thousandths (1000 when absent; 0 refuses).
        public let weight: Int
    }

    /// The elements as preferences, in order; an element whose value is no token or whose `q` is
    /// no qvalue (`0`, `0.5`, `1.000`; at most three decimals, at most 1) is left out.
    public static func preferences(_ elements: [String]) -> [Preference] {
        elements.compactMap { element in
            let parts = element.split(separator: ";", omittingEmptySubsequences: false).map(\.trimmingSpaces)
            let value = parts[0].lowercased()
            guard !value.isEmpty, value.utf8.allSatisfy(HTTPRequestHead.isTokenByte) else { return nil }
            var weight = 1000
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(
                    \.trimmingSpaces)
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let parsed = qvalue(pair[1]) else { return nil }
                weight = parsed
            }
            return Preference(value: value, weight: weight)
        }
    }

    /// The coding to send for an `Accept-Encoding` with these elements when gzip is on offer:
    /// gzip when its weight (`gzip` or `x-gzip`, else `*`; the first element naming it counts)
    /// is above 0 and not below a weight written for `identity`; else identity, also when the
    /// list refuses identity too (RFC 9110 §12.5.3 lets a server send it then rather than 406).
    /// No field at all, or an empty one, is identity.
    public static func coding(acceptEncoding elements: [String]) -> Coding {
        let preferences = preferences(elements)
        func weight(_ names: Set<String>) -> Int? { preferences.first { names.contains($0.value) }?.weight }
        let gzip = weight(["gzip", "x-gzip"]) ?? weight(["*"]) ?? 0
        return gzip > 0 && gzip >= weight(["identity"]) ?? 0 ? .gzip : .identity
    }

    /// The language a page for an `Accept-Language` with these elements is made for, as the web
    /// client picks it (`languageFor` in `clients/web/js/strings.mjs`: German for any `de…`, else
    /// English): the first range, in the order written and not refused (`q=0`), whose primary
    /// subtag is among `available` and is not `fallback`; else `fallback`.
    public static func language(acceptLanguage elements: [String], available: Set<String>, fallback: String)
        -> String
    {
        for preference in preferences(elements) where preference.weight > 0 {
            let primary = String(preference.value.prefix { $0 != "-" })
            if primary != fallback, available.contains(primary) { return primary }
        }
        return fallback
    }

    /// A qvalue (RFC 9110 §12.4.2) in thousandths, or nil.
    static func qvalue(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var thousandths = Int(first - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return thousandths }
        let decimals = bytes.dropFirst(2)
        guard bytes[1] == UInt8(ascii: "."), decimals.count <= 3 else { return nil }
        var scale = 100
        for digit in decimals {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
