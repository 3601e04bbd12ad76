/// The head of one HTTP/1.1 (or HTTP/1.0) request (request line and header fields), parsed
/// strictly from bytes as they arrive: lines end with CRLF (a bare LF is an error), field names
/// are tokens, and the head is at most `maxBytes` long. The target may be in origin form
/// (`/healthz`) or in absolute form (`http://host:8080/healthz`, which RFC 9112 §3.2.2 says a
/// server must accept).
public struct HTTPRequestHead: Sendable, Equatable {
    /// `GET`, `POST`, …
    public var method: String
    /// The request target as sent (`/ws`, `/healthz?x=1`, `http://host/healthz`).
    public var target: String
    /// `HTTP/1.1`, `HTTP/1.0`, …
    public var version: String
    /// The header fields in order, names as sent.
    public var fields: [(name: String, value: String)]

    /// A head with these parts (as `parse` makes them).
    public init(method: String, target: String, version: String, fields: [(name: String, value: String)]) {
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
    }

    /// Whether the target is in absolute form (`http://authority/path`).
    public var isAbsoluteForm: Bool {
        let lowered = target.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The target's path without its query; for an absolute-form target, the path after the
    /// authority (`/` when there is none).
    public var path: Substring {
        var rest = Substring(target)
        if isAbsoluteForm {
            rest = rest[rest.index(rest.firstIndex(of: ":")!, offsetBy: 3)...]
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            rest = rest[slash...]
            if rest.first == "?" { return "/" }
        }
        return rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }

    /// Whether the connection stays open after the answer (RFC 9112 §9.3): HTTP/1.1 unless the
    /// request says `Connection: close`; HTTP/1.0 only when it says `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let connection = tokens("Connection")
        if connection.contains("close") { return false }
        return version == "HTTP/1.1" || connection.contains("keep-alive")
    }

    /// Whether a body follows the head (`Content-Length` other than 0, or `Transfer-Encoding`):
    /// this server reads no request bodies, so such a connection ends after its answer.
    public var announcesBody: Bool {
        !values("Transfer-Encoding").isEmpty || values("Content-Length").contains { $0 != "0" }
    }

    /// The values of every field named `name` (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The comma-separated elements of every field named `name` (RFC 9110 §5.6.1), trimmed, in
    /// order, empty ones left out.
    public func elements(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }.map(\.trimmingSpaces).filter { !$0.isEmpty }
    }

    /// The comma-separated tokens of every field named `name`, trimmed and lowercased.
    public func tokens(_ name: String) -> [String] {
        elements(name).map { $0.lowercased() }
    }

    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// What the bytes received so far hold.
    public enum Parse: Sendable, Equatable {
        /// The head is not complete yet: read more.
        case incomplete
        /// A complete head, and how many bytes it took (what follows belongs to the next layer).
        case complete(HTTPRequestHead, byteCount: Int)
        /// Not a request this server accepts: answer with `status` and close.
        case invalid(status: Int, reason: String)
    }

    /// The longest head accepted (431 beyond it).
    public static let maxBytes = 8192

    /// Parses the head at the start of `bytes`.
    public static func parse(_ bytes: some Collection<UInt8>) -> Parse {
        let bytes = Array(bytes.prefix(maxBytes + 4))
        guard let end = headEnd(bytes) else {
            if bytes.count > maxBytes {
                return .invalid(status: 431, reason: "request head larger than \(maxBytes) bytes")
            }
            if let problem = bareLineFeed(bytes) { return problem }
            return .incomplete
        }
        if let problem = bareLineFeed(bytes[..<end]) { return problem }
        let lines = split(lines: bytes[..<end])
        guard let requestLine = lines.first, let request = parseRequestLine(requestLine) else {
            return .invalid(status: 400, reason: "malformed request line")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let field = parseField(line) else { return .invalid(status: 400, reason: "malformed header field") }
            fields.append(field)
        }
        let head = HTTPRequestHead(method: request.0, target: request.1, version: request.2, fields: fields)
        return .complete(head, byteCount: end + 4)
    }

    /// The index of the CRLF CRLF that ends the head, if there is one.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// A LF not preceded by CR (RFC 9112 lets a server refuse it; a lenient parser here would
    /// read requests differently from proxies in front of it).
    private static func bareLineFeed(_ bytes: some Collection<UInt8>) -> Parse? {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 10, previous != 13 { return .invalid(status: 400, reason: "line ending without CR") }
            if byte == 0 { return .invalid(status: 400, reason: "NUL in the request head") }
            previous = byte
        }
        return nil
    }

    private static func split(lines bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> (String, String, String)? {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte),
            parts[1].first == UInt8(ascii: "/") || isAbsoluteTarget(parts[1]),
            parts[1].allSatisfy({ $0 > 32 && $0 < 127 }), isVersion(parts[2])
        else { return nil }
        return (
            String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self),
            String(decoding: parts[2], as: UTF8.self)
        )
    }

    /// `http://` or `https://` (any case) followed by an authority.
    private static func isAbsoluteTarget(_ target: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: target.prefix(9), as: UTF8.self).lowercased()
        return (text.hasPrefix("http://") && target.count > 7) || (text.hasPrefix("https://") && target.count > 8)
    }

    /// `HTTP/` and two digits around a dot (RFC 9112 §2.3); which versions are served is the
    /// handshake's decision.
    private static func isVersion(_ bytes: ArraySlice<UInt8>) -> Bool {
        let version = Array(bytes)
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: ".") else {
            return false
        }
        return [version[5], version[7]].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func parseField(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return nil }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingSpaces)
    }

    /// A byte of an HTTP token: RFC 9110 `tchar` (`*` among them).
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    public var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
