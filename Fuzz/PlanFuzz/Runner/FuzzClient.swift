import ChronoSketchCore

/// A WebSocket client for the runner's own requests: upgrade, `hello`, and the server's
/// messages as parsed JSON objects (a batch frame is split into its messages).
final class FuzzClient {
    let socket: FuzzSocket
    /// The close code once the server closed (nil while open; `Optional(nil)` for no code).
    private(set) var closed: UInt16?? = nil
    private var pending: [JSONObject] = []

    /// Connects and upgrades; nil when either fails.
    init?(host: String, port: Int) {
        guard let socket = FuzzSocket(host: host, port: port) else { return nil }
        self.socket = socket
        guard socket.send(HandshakeGenerator.valid(host: "\(host):\(port)").bytes),
            let head = socket.readHTTPHead(timeoutMilliseconds: 5000), head.hasPrefix("HTTP/1.1 101")
        else { return nil }
    }

    /// Sends `hello` and waits for `welcome`; false when none came.
    func hello(token: String) -> Bool {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type")
        writer.string("hello")
        writer.key("token")
        writer.string(token)
        writer.key("client")
        writer.string("plan-fuzz/1")
        writer.endObject()
        socket.sendText(writer.bytes)
        return next(within: 5000) { $0.string("type") == "welcome" } != nil
    }

    /// The next message that satisfies `wanted` (others are dropped), or nil after `milliseconds`.
    func next(within milliseconds: Int, where wanted: (JSONObject) -> Bool) -> JSONObject? {
        let deadline = Clock.milliseconds() + milliseconds
        while let message = next(deadline: deadline) {
            if wanted(message) { return message }
        }
        return nil
    }

    /// The next message, or nil on timeout or close.
    func next(deadline: Int) -> JSONObject? {
        while pending.isEmpty {
            guard closed == nil else { return nil }
            switch socket.next(deadline: deadline) {
            case .message(let opcode, let payload):
                guard opcode == 1, let value = try? JSONValue(parsing: payload) else { continue }
                switch value {
                case .object(let object): pending.append(object)
                case .array(let elements):
                    for case .object(let object) in elements { pending.append(object) }
                default: continue
                }
            case .close(let code): closed = .some(code)
            case .end: closed = .some(nil)
            case .timeout: return nil
            }
        }
        return pending.removeFirst()
    }
}

extension JSONObject {
    /// The member `key` if it is a string.
    func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { return text }
        return nil
    }

    /// The member `key` if it is an integral number.
    func integer(_ key: String) -> Int? {
        if case .number(let number)? = self[key], number.rounded() == number, abs(number) < 1e15 { return Int(number) }
        return nil
    }

    /// The member `key` if it is an array.
    func array(_ key: String) -> [JSONValue] {
        if case .array(let elements)? = self[key] { return elements }
        return []
    }
}
