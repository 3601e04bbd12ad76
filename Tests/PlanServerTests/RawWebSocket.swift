import Dispatch
import PlanProtocol
import PlanTestSupport
import WebSocketClient
import WebSocketWire

/// The tests' raw WebSocket: the shared `BlockingWebSocket` (the fuzzers' too) with what the tests
/// ask of it — throwing reads, the contract's messages, and async calls — for what `PlanConnection`
/// never does: binary frames, fragments, invalid UTF-8, messages before hello, several frames in
/// one write, a reader that stops reading, hand-made handshakes and frames.
///
/// Two ways to use it, one at a time:
/// - blocking calls (`init`, `handshake`, `send(_:)`, `readHead`, `readFrames`, …), from
///   `offThePool { }` in an async test;
/// - async calls (`connect`, `send(opcode:)`, `next`, `untilClose`, …), whose blocking work runs
///   on a serial Dispatch queue of each socket's own (such queues get a thread whenever they have
///   work, while a shared concurrent queue runs only about as many blocks at once as there are
///   cores), never on the tests' cooperative threads.
final class RawWebSocket: @unchecked Sendable {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2
    static let ping: UInt8 = 0x9
    static let pong: UInt8 = 0xA

    enum Frame {
        case message([UInt8])
        case close(UInt16?)
        case end
    }

    let socket: BlockingWebSocket
    private var pending: [ServerMessage] = []
    private let queue = DispatchQueue(label: "raw-websocket")

    /// Connects to 127.0.0.1:`port` (no handshake yet). `timeoutSeconds` bounds every read and
    /// write (nil: ten minutes); `receiveBuffer` shrinks the kernel's receive buffer.
    init(port: Int, receiveBuffer: Int32? = nil, timeoutSeconds: Int? = 10) throws {
        socket = try BlockingWebSocket(port: port, timeoutSeconds: timeoutSeconds ?? 600, receiveBuffer: receiveBuffer)
    }

    /// Connects to ws://127.0.0.1:port/ws and completes the handshake.
    static func connect(port: Int, receiveBuffer: Int32? = nil) async throws -> RawWebSocket {
        try await blocking(on: DispatchQueue(label: "raw-websocket-connect")) {
            let socket = try RawWebSocket(port: port, receiveBuffer: receiveBuffer)
            try socket.handshake()
            return socket
        }
    }

    /// Shuts the socket down (the descriptor is closed when the object goes).
    func close() { socket.shutDown() }

    // MARK: - Blocking

    /// Asks for the upgrade to the protocol's WebSocket and checks the answer: 101 and the
    /// `Sec-WebSocket-Accept` that belongs to the key.
    func handshake() throws { try socket.upgrade() }

    /// Sends bytes as they are: frames made by hand, handshake-level garbage.
    @discardableResult
    func send(_ bytes: [UInt8]) throws -> RawWebSocket {
        try socket.send(bytes)
        return self
    }

    /// Sends text in one frame.
    func send(_ text: String) throws {
        try socket.sendFrame(opcode: RawWebSocket.text, Array(text.utf8))
    }

    /// Sends `bytes` and reads everything until the server closes.
    func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        try send(bytes)
        return socket.drainRaw(timeoutMilliseconds: 600_000)
    }

    /// Reads an HTTP response head, up to and including the blank line.
    func readHead() throws -> String {
        guard let head = socket.readHead() else { throw HarnessError("no response head") }
        return head
    }

    /// The next message (fragments joined) or control frame, pings not answered; nil at the end
    /// of the stream.
    func readEvent() throws -> FrameDecoder.Event? {
        socket.answersPings = false
        defer { socket.answersPings = true }
        switch socket.next() {
        case .message(let opcode, let payload): return opcode == RawWebSocket.text ? .text(payload) : .binary(payload)
        case .ping(let payload): return .ping(payload)
        case .pong(let payload): return .pong(payload)
        case .close(let code): return .close(code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? [])
        case .end: return nil
        case .timeout: throw HarnessError("nothing received in time")
        case .broken(let reason): throw HarnessError("the server broke RFC 6455: \(reason)")
        }
    }

    /// Reads messages and control frames as (opcode, payload) until `count` were read or the
    /// stream ended; pings are not answered.
    func readFrames(count: Int = .max) throws -> [(UInt8, [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        while frames.count < count, let event = try readEvent() {
            switch event {
            case .text(let payload): frames.append((RawWebSocket.text, payload))
            case .binary(let payload): frames.append((RawWebSocket.binary, payload))
            case .close(let payload): frames.append((0x8, payload))
            case .ping(let payload): frames.append((RawWebSocket.ping, payload))
            case .pong(let payload): frames.append((RawWebSocket.pong, payload))
            case .fragment(let payload, _, _, _): frames.append((RawWebSocket.continuation, payload))
            }
        }
        return frames
    }

    /// Reads until a close frame; returns its code (nil if the socket just ended).
    func readUntilClose() throws -> UInt16? {
        while true {
            switch socket.next() {
            case .close(let code): return code
            case .end: return nil
            case .timeout: throw HarnessError("nothing received in time")
            case .broken(let reason): throw HarnessError("the server broke RFC 6455: \(reason)")
            default: continue
            }
        }
    }

    /// Reads text messages until one contains `needle`; nil when the server closes first.
    func readText(containing needle: String) throws -> String? {
        while case .message(let frame) = try readFrame() {
            let text = String(decoding: frame, as: UTF8.self)
            if text.contains(needle) { return text }
        }
        return nil
    }

    /// The next complete message, close or end of stream; pings are answered.
    func readFrame() throws -> Frame {
        while true {
            switch socket.next() {
            case .message(_, let payload): return .message(payload)
            case .close(let code): return .close(code)
            case .end: return .end
            case .ping, .pong: continue
            case .timeout: throw HarnessError("nothing received in time")
            case .broken(let reason): throw HarnessError("the server broke RFC 6455: \(reason)")
            }
        }
    }

    /// A masked frame as a client writes it (`ClientFrame`); `claimedLength` writes a header
    /// that claims that length in the 64-bit form, whatever `payload` holds.
    static func frameBytes(
        opcode: UInt8, _ payload: [UInt8], final: Bool = true, claimedLength: UInt64? = nil
    ) -> [UInt8] {
        guard let claimed = claimedLength else { return ClientFrame.make(opcode: opcode, payload, final: final) }
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode, 0x80 | 127]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((claimed >> UInt64(shift)) & 0xFF)) }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x2E]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    // MARK: - Async

    /// Sends one frame.
    func send(opcode: UInt8, _ payload: [UInt8], final: Bool = true) async throws {
        try await sendFrames([(opcode, payload)], finalLast: final)
    }

    /// Sends several frames in one write.
    func sendFrames(_ frames: [(opcode: UInt8, payload: [UInt8])], finalLast: Bool = true) async throws {
        var bytes: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            bytes += RawWebSocket.frameBytes(
                opcode: frame.opcode, frame.payload, final: index < frames.count - 1 || finalLast)
        }
        try await sendBytes(bytes)
    }

    /// Sends bytes as they are.
    func sendBytes(_ bytes: [UInt8]) async throws {
        _ = try await RawWebSocket.blocking(on: queue) { try self.send(bytes) }
    }

    func sendText(_ text: String) async throws {
        try await send(opcode: RawWebSocket.text, Array(text.utf8))
    }

    /// Sends hello and waits for the welcome.
    func hello(token: String) async throws {
        try await send(opcode: RawWebSocket.text, ClientMessage.hello(token: token, client: "raw/1").bytes)
        let welcome = try await next()
        guard welcome.typeName == "welcome" else { throw HarnessError("no welcome: \(welcome)") }
    }

    /// The next server message (of a batch, or alone), skipping the given types.
    func next(skipping skipped: Set<String> = []) async throws -> ServerMessage {
        while true {
            while !pending.isEmpty {
                let message = pending.removeFirst()
                if !skipped.contains(message.typeName) { return message }
            }
            switch try await RawWebSocket.blocking(on: queue, { try self.readFrame() }) {
            case .message(let bytes): pending = try ServerMessage.decodeFrame(bytes)
            case .close(let code): throw HarnessError("closed with \(code.map(String.init) ?? "no code")")
            case .end: throw HarnessError("the connection ended")
            }
        }
    }

    /// Every message until the server closes, and its close code.
    func untilClose() async throws -> (messages: [ServerMessage], code: UInt16?) {
        var messages = pending
        pending = []
        while true {
            switch try await RawWebSocket.blocking(on: queue, { try self.readFrame() }) {
            case .message(let bytes): messages += try ServerMessage.decodeFrame(bytes)
            case .close(let code): return (messages, code)
            case .end: return (messages, nil)
            }
        }
    }

    private static func blocking<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
