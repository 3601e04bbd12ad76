/// The server's decision on a request head (RFC 6455 §4.2): upgrade to a WebSocket, serve plain
/// HTTP, or refuse with a status. Pure: the transport writes what it returns.
public enum WebSocketHandshake: Sendable, Equatable {
    /// Answer 101 with these response bytes; the connection speaks WebSocket from then on.
    case upgrade(response: [UInt8])
    /// A plain GET for `path` (health, metrics).
    case http(path: String)
    /// Answer with this status (and extra header lines) and close.
    case refuse(status: Int, reason: String, extraHeaders: [String])

    /// The GUID RFC 6455 appends to the key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Decides for `head`: the WebSocket endpoint is `path`; `subprotocol` is the one this
    /// server speaks (chosen when the client offers it; a client offering only others gets no
    /// `Sec-WebSocket-Protocol` back, as RFC 6455 §4.2.2 says, and decides itself).
    public static func decide(_ head: HTTPRequestHead, path: String, subprotocol: String) -> WebSocketHandshake {
        let upgrade = head.tokens("Upgrade").contains("websocket")
        guard head.version == "HTTP/1.1" else {
            return .refuse(
                status: upgrade ? 426 : 505, reason: "HTTP/1.1 is required",
                extraHeaders: upgrade ? ["Upgrade: websocket"] : [])
        }
        guard head.values("Host").count == 1 else {
            return .refuse(status: 400, reason: "one Host field is required", extraHeaders: [])
        }
        guard upgrade else {
            guard head.method == "GET" || head.method == "HEAD" else {
                return .refuse(status: 405, reason: "only GET is served", extraHeaders: ["Allow: GET"])
            }
            return .http(path: String(head.path))
        }
        guard head.path == path else {
            return .refuse(status: 404, reason: "no WebSocket endpoint here; use \(path)", extraHeaders: [])
        }
        guard head.method == "GET" else {
            return .refuse(status: 405, reason: "a WebSocket upgrade is a GET", extraHeaders: ["Allow: GET"])
        }
        guard head.tokens("Connection").contains("upgrade") else {
            return .refuse(status: 400, reason: "Connection: Upgrade is required", extraHeaders: [])
        }
        let versions = head.values("Sec-WebSocket-Version")
        guard versions == ["13"] else {
            return .refuse(
                status: 426, reason: "Sec-WebSocket-Version 13 is required", extraHeaders: ["Sec-WebSocket-Version: 13"]
            )
        }
        let keys = head.values("Sec-WebSocket-Key")
        guard keys.count == 1, let nonce = Base64.decode(keys[0]), nonce.count == 16 else {
            return .refuse(status: 400, reason: "Sec-WebSocket-Key must be 16 bytes in Base64", extraHeaders: [])
        }
        var lines = [
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: \(acceptValue(key: keys[0]))",
        ]
        if head.tokens("Sec-WebSocket-Protocol").contains(subprotocol.lowercased()) {
            lines.append("Sec-WebSocket-Protocol: \(subprotocol)")
        }
        return .upgrade(response: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// `Sec-WebSocket-Accept` for a key: Base64(SHA-1(key + GUID)).
    public static func acceptValue(key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }
}

/// A complete HTTP/1.1 response that ends the connection.
public enum HTTPResponseBytes {
    /// The status line, headers and body; `Connection: close`. `Cache-Control: no-store` unless
    /// `extraHeaders` set a `Cache-Control` of their own. A `304` has no content headers (its
    /// validators are in `extraHeaders`); with `includeBody` false (a `HEAD`), the length of
    /// `body` is announced but the body is not sent.
    public static func make(
        status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8], extraHeaders: [String] = [],
        includeBody: Bool = true
    ) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status) \(reasonPhrase(status))"]
        if status != 304 { lines += ["Content-Type: \(contentType)", "Content-Length: \(body.count)"] }
        if !extraHeaders.contains(where: { $0.lowercased().hasPrefix("cache-control:") }) {
            lines.append("Cache-Control: no-store")
        }
        lines += ["X-Content-Type-Options: nosniff", "Connection: close"]
        lines += extraHeaders
        let sent = includeBody && status != 304 ? body : []
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + sent
    }

    /// The reason phrase of the statuses this server sends.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
