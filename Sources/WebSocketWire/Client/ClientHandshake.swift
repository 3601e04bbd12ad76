/// A client's side of the opening handshake (RFC 6455 §4.1): the request, and the check of the
/// server's answer (status 101 and the `Sec-WebSocket-Accept` that belongs to the key).
public struct ClientHandshake: Sendable, Equatable {
    /// The key sent (16 bytes in Base64).
    public let key: String
    /// The request bytes.
    public let request: [UInt8]

    /// A request for `path` at `host` (host[:port] as the `Host` field gives it), offering
    /// `subprotocol` (nil: none), with `nonce` as the key (16 bytes; RFC 6455 asks for a random one).
    public init(host: String, path: String = "/ws", subprotocol: String? = "chronosketch.v1", nonce: [UInt8]) {
        key = Base64.encode(nonce)
        var lines = [
            "GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13",
        ]
        if let subprotocol { lines.append("Sec-WebSocket-Protocol: \(subprotocol)") }
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// How the server answered.
    public enum Answer: Sendable, Equatable {
        /// 101 with the right accept value: frames follow.
        case accepted
        /// Anything else: the status line (or why the answer is not a valid upgrade).
        case refused(String)
    }

    /// Checks the server's response head (up to the blank line).
    public func check(_ head: String) -> Answer {
        // ("\r\n" is one Character in Swift.)
        let status = String(head.prefix { $0 != "\r\n" && $0 != "\n" })
        guard status.hasPrefix("HTTP/1.1 101") else { return .refused(status) }
        let expected = WebSocketHandshake.acceptValue(key: key)
        let accept = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
        guard let accept, accept.dropFirst("sec-websocket-accept:".count).trimmingSpaces == expected else {
            return .refused("\(status), without the Sec-WebSocket-Accept of its key")
        }
        return .accepted
    }

    /// Where the response head in `bytes` ends (the index after its blank line), if it is there.
    public static func headEnd(_ bytes: some Collection<UInt8>) -> Int? {
        var matched = 0
        var index = 0
        for byte in bytes {
            index += 1
            matched = byte == [13, 10, 13, 10][matched] ? matched + 1 : (byte == 13 ? 1 : 0)
            if matched == 4 { return index }
        }
        return nil
    }
}
