import Dispatch
import Glibc
import PlanProtocol
import PlanTestSupport

/// A minimal RFC 6455 client on a blocking socket, for what PlanConnection cannot send: binary
/// frames, fragments, messages before hello, several frames in one write. Its blocking calls run
/// on a serial Dispatch queue of each socket's own (such queues get a thread whenever they have
/// work, while a shared concurrent queue runs only about as many blocks at once as there are
/// cores: with 2 cores, a third socket's connect waited for other sockets' 10-second reads),
/// never on the tests' cooperative threads; reads time out after 10 s.
final class AsyncRawWebSocket: @unchecked Sendable {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2

    enum Frame {
        case message([UInt8])
        case close(UInt16?)
        case end
    }

    private let fd: Int32
    private var received: [UInt8] = []
    private var pending: [ServerMessage] = []
    private let queue = DispatchQueue(label: "raw-websocket")

    /// Connects to ws://127.0.0.1:port/ws and completes the handshake.
    static func connect(port: Int) async throws -> AsyncRawWebSocket {
        try await blocking(on: DispatchQueue(label: "raw-websocket-connect")) { try AsyncRawWebSocket(port: port) }
    }

    private init(port: Int) throws {
        fd = try connectLoopback(port: port)
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: chronosketch.v1\r\n\r\n"
        try writeAll(Array(request.utf8))
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.indices.dropLast(3).first(where: { Array(received[$0..<$0 + 4]) == separator }) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                received.removeFirst(end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else { throw HarnessError("no upgrade: \(head)") }
                return
            }
            guard try fill() else { throw HarnessError("closed during the handshake") }
        }
    }

    deinit {
        Glibc.close(fd)
    }

    /// Shuts the socket down (the descriptor is closed when the object goes).
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends one frame (masked, as a client must).
    func send(opcode: UInt8, _ payload: [UInt8], final: Bool = true) async throws {
        try await sendFrames([(opcode, payload)], finalLast: final)
    }

    /// Sends several frames in one write.
    func sendFrames(_ frames: [(opcode: UInt8, payload: [UInt8])], finalLast: Bool = true) async throws {
        var bytes: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            bytes += AsyncRawWebSocket.frame(
                opcode: frame.opcode, frame.payload, final: index < frames.count - 1 || finalLast)
        }
        let data = bytes
        try await AsyncRawWebSocket.blocking(on: queue) { try self.writeAll(data) }
    }

    /// Sends bytes as they are: frames made by hand, handshake-level garbage.
    func sendBytes(_ bytes: [UInt8]) async throws {
        try await AsyncRawWebSocket.blocking(on: queue) { try self.writeAll(bytes) }
    }

    /// A masked frame header and payload as a client writes them; `length` may claim more than
    /// `payload` holds (the 64-bit form is used above 65,535 or when asked).
    static func frameBytes(
        opcode: UInt8, _ payload: [UInt8], final: Bool = true, claimedLength: UInt64? = nil
    ) -> [UInt8] {
        guard let claimed = claimedLength else { return frame(opcode: opcode, payload, final: final) }
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode, 0x80 | 127]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((claimed >> UInt64(shift)) & 0xFF)) }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x2E]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    func sendText(_ text: String) async throws {
        try await send(opcode: AsyncRawWebSocket.text, Array(text.utf8))
    }

    /// Sends hello and waits for the welcome.
    func hello(token: String) async throws {
        try await send(opcode: AsyncRawWebSocket.text, ClientMessage.hello(token: token, client: "raw/1").bytes)
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
            switch try await AsyncRawWebSocket.blocking(on: queue, { try self.readFrame() }) {
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
            switch try await AsyncRawWebSocket.blocking(on: queue, { try self.readFrame() }) {
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

    private static func frame(opcode: UInt8, _ payload: [UInt8], final: Bool) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x2E]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw HarnessError("send: errno \(errno)") }
            offset += written
        }
    }

    /// Reads more bytes; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            received += chunk[0..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw HarnessError(errno == EAGAIN ? "nothing received within 10 s" : "recv: errno \(errno)")
    }

    /// The next complete message, close or end of stream; pings are answered, fragments joined.
    private func readFrame() throws -> Frame {
        var message: [UInt8] = []
        while true {
            guard try need(2) else { return .end }
            let first = received[0]
            let second = received[1]
            var length = Int(second & 0x7F)
            var offset = 2
            if length == 126 {
                guard try need(4) else { return .end }
                length = Int(received[2]) << 8 | Int(received[3])
                offset = 4
            } else if length == 127 {
                guard try need(10) else { return .end }
                length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard try need(offset + length) else { return .end }
            let payload = Array(received[offset..<offset + length])
            received.removeFirst(offset + length)
            switch first & 0x0F {
            case 0x8:
                return .close(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
            case 0x9:
                try writeAll(AsyncRawWebSocket.frame(opcode: 0xA, payload, final: true))
            case 0x0, 0x1, 0x2:
                message += payload
                if first & 0x80 != 0 { return .message(message) }
            default:
                break
            }
        }
    }

    private func need(_ count: Int) throws -> Bool {
        while received.count < count {
            guard try fill() else { return false }
        }
        return true
    }
}
