/// An HTTP upgrade request to send, and whether the contract promises `101` for it.
public struct Handshake: Sendable, Hashable {
    /// What was changed from the valid request ("valid" for none).
    public var label: String
    /// The bytes to send.
    public var bytes: [UInt8]
    /// True only for requests a server must upgrade (valid ones).
    public var mustUpgrade: Bool
    /// True when the request was cut short: the client sends it and then goes quiet.
    public var truncated: Bool
}

/// Valid and mutated WebSocket upgrade requests (RFC 6455 §4.1).
public enum HandshakeGenerator {
    /// The header lines of a valid upgrade to `/ws` on `host`.
    static func validHeaders(host: String) -> [(String, String)] {
        [
            ("Host", host), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Protocol", "chronosketch.v1"),
        ]
    }

    /// A valid upgrade request.
    public static func valid(host: String, subprotocol: Bool = true) -> Handshake {
        let headers = validHeaders(host: host).filter { subprotocol || $0.0 != "Sec-WebSocket-Protocol" }
        return Handshake(
            label: subprotocol ? "valid" : "valid, no subprotocol",
            bytes: render(requestLine: "GET /ws HTTP/1.1", headers: headers), mustUpgrade: true, truncated: false)
    }

    /// A valid request (one time in four) or one mutation of it.
    public static func make(host: String, random: inout FuzzRandom) -> Handshake {
        if random.chance(0.25) { return valid(host: host, subprotocol: random.chance(0.8)) }
        var requestLine = "GET /ws HTTP/1.1"
        var headers = validHeaders(host: host)
        var lineEnd = "\r\n"
        let label: String
        switch random.int(0...9) {
        case 0:
            let method = random.pick([
                "POST", "HEAD", "PUT", "get", "GET\u{0}", "OPTIONS", String(repeating: "G", count: 5000),
            ])
            requestLine = "\(method) /ws HTTP/1.1"
            label = "method \(method.prefix(12))"
        case 1:
            let path = random.pick([
                "/", "/wsx", "/ws/", "/ws?x=1", "*", "ws", "/%00", String(repeating: "/a", count: 6000),
            ])
            requestLine = "GET \(path) HTTP/1.1"
            label = "path \(path.prefix(12))"
        case 2:
            let version = random.pick(["HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTP/1", "", "HTTP/1.1 extra"])
            requestLine = "GET /ws \(version)"
            label = "http version \(version)"
        case 3:
            let value = random.pick(["8", "12", "14", "", "13, 8", "99999999999999999999", "-13", "0x0d"])
            headers = headers.map { $0.0 == "Sec-WebSocket-Version" ? ($0.0, value) : $0 }
            label = "Sec-WebSocket-Version \(value)"
        case 4:
            let key = random.pick([
                "", "short", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ===", "!!!!!!!!!!!!!!!!!!!!!!!!",
                String(repeating: "A", count: 10_000),
            ])
            headers = headers.map { $0.0 == "Sec-WebSocket-Key" ? ($0.0, key) : $0 }
            label = "key of \(key.count) characters"
        case 5:
            let dropped = random.int(0...headers.count - 1)
            label = "without \(headers[dropped].0)"
            headers.remove(at: dropped)
        case 6:
            lineEnd = "\n"
            label = "bare LF"
        case 7:
            let value = random.pick(["other.v2", "chronosketch.v1, other", "", "chronosketch.v2", "\u{0}"])
            headers = headers.map { $0.0 == "Sec-WebSocket-Protocol" ? ($0.0, value) : $0 }
            label = "subprotocol \(value)"
        case 8:
            let header = random.pick([
                ("X-Big", String(repeating: "x", count: random.int(1...120_000))), ("Upgrade", "websocket"),
                ("Connection", "keep-alive"), ("Upgrade", "h2c"), ("Content-Length", "99999999"),
                ("Transfer-Encoding", "chunked"), ("X-Nul", "a\u{0}b"), ("Bad Header", "x"), (":", ":"),
            ])
            headers.insert(header, at: random.int(0...headers.count))
            label = "extra header \(header.0)"
        default:
            var bytes = render(requestLine: requestLine, headers: headers)
            let cut = random.int(0...bytes.count - 1)
            bytes.removeLast(bytes.count - cut)
            return Handshake(label: "truncated at \(cut)", bytes: bytes, mustUpgrade: false, truncated: true)
        }
        let bytes = render(requestLine: requestLine, headers: headers, lineEnd: lineEnd)
        return Handshake(label: label, bytes: bytes, mustUpgrade: false, truncated: false)
    }

    static func render(requestLine: String, headers: [(String, String)], lineEnd: String = "\r\n") -> [UInt8] {
        var text = requestLine + lineEnd
        for (name, value) in headers { text += "\(name): \(value)\(lineEnd)" }
        return Array((text + lineEnd).utf8)
    }
}
