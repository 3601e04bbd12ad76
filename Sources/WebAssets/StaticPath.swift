/// Turns the path of a request target into the name of a file under a web root, refusing every
/// path that could name something outside it. Pure: no file system is consulted, so the answer
/// does not depend on what the disk holds (the server serves only files it loaded at start).
///
/// Accepted: `/` (the root's `index.html`), `/a/b.js`, a directory path ending in `/` (its
/// `index.html`). Refused: anything that is not absolute, invalid or incomplete percent escapes,
/// percent-encoded slashes or backslashes, bytes that are not UTF-8, control characters (NUL
/// included), backslashes, empty segments (`//`), `.` and `..` segments (also when encoded as
/// `%2e%2e`), and names starting with a dot (hidden files are never served).
public enum StaticPath {
    /// What a request path names.
    public enum Resolution: Sendable, Equatable {
        /// A file name relative to the web root, segments joined by `/` (`index.html`, `js/app.js`).
        case file(String)
        /// A path this server never serves; the reason is for the response body.
        case invalid(String)
    }

    /// The longest path accepted.
    public static let maxLength = 1024

    /// Resolves `path` (the request target without its query).
    public static func resolve(_ path: some StringProtocol) -> Resolution {
        let raw = Array(path.utf8)
        guard raw.count <= maxLength else { return .invalid("path too long") }
        guard raw.first == UInt8(ascii: "/") else { return .invalid("the path must start with /") }
        let segments = raw.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var names: [String] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.isEmpty {
                guard isLast else { return .invalid("empty path segment") }
                names.append("index.html")
                continue
            }
            switch name(of: segment) {
            case .success(let name): names.append(name)
            case .failure(let problem): return .invalid(problem.reason)
            }
        }
        return .file(names.joined(separator: "/"))
    }

    /// Why a segment was refused.
    struct Problem: Error {
        let reason: String
    }

    /// One decoded, checked segment.
    private static func name(of segment: ArraySlice<UInt8>) -> Result<String, Problem> {
        guard let decoded = percentDecoded(segment) else { return .failure(Problem(reason: "invalid percent escape")) }
        for byte in decoded {
            if byte < 0x20 || byte == 0x7F { return .failure(Problem(reason: "control character in the path")) }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") {
                return .failure(Problem(reason: "slash or backslash inside a path segment"))
            }
        }
        guard decoded.first != UInt8(ascii: ".") else {
            return .failure(Problem(reason: "dot segments and hidden files are not served"))
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            return .failure(Problem(reason: "the path is not UTF-8"))
        }
        return .success(text)
    }

    /// The bytes with `%XX` escapes decoded, or nil for a broken escape (also for the plan
    /// documents' paths and queries).
    public static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            else { return nil }
            result.append(high << 4 | low)
            index += 3
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
