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
    ///
    /// Plain requests may speak HTTP/1.1 or HTTP/1.0 (a load balancer's health check often speaks
    /// 1.0); an upgrade needs HTTP/1.1 (426 otherwise); other versions get 505. HTTP/1.1 needs
    /// exactly one `Host` (RFC 9112 §3.2), HTTP/1.0 at most one.
    public static func decide(_ head: HTTPRequestHead, path: String, subprotocol: String) -> WebSocketHandshake {
        let upgrade = head.tokens("Upgrade").contains("websocket")
        guard head.version == "HTTP/1.1" || head.version == "HTTP/1.0" else {
            return .refuse(status: 505, reason: "HTTP/1.1 or HTTP/1.0 is required", extraHeaders: [])
        }
        let hosts = head.values("Host").count
        guard hosts == 1 || (hosts == 0 && head.version == "HTTP/1.0") else {
            return .refuse(status: 400, reason: "one Host field is required", extraHeaders: [])
        }
        if upgrade, head.version != "HTTP/1.1" {
            return .refuse(
                status: 426, reason: "a WebSocket upgrade needs HTTP/1.1", extraHeaders: ["Upgrade: websocket"])
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
