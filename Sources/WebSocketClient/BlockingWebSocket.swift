import Glibc
import SystemSupport
import WebSocketWire

/// A WebSocket client on one plain blocking socket, built on `WebSocketWire`: the handshake
/// (`ClientHandshake`), the server's frames (`FrameDecoder` reading a server's frames) and the
/// client's (`ClientFrame`). What it writes is up to the caller — any bytes at all — so the tests
/// and the fuzzers use it for what a well-behaved client never does: hand-made frames and
/// handshakes, fragments, invalid UTF-8, a reader that stops reading. The load generator's viewers
/// use the same handshake and frame reading on sockets of their own (`ViewerSockets`).
///
/// Every read waits until a deadline (poll), so a silent server shows as `.timeout`, never as a
/// hang. One thread uses a socket at a time.
public final class BlockingWebSocket: @unchecked Sendable {
    /// What reading produced.
    public enum Event: Equatable, Sendable {
        /// A complete text (opcode 1) or binary (2) message, fragments joined.
        case message(opcode: UInt8, payload: [UInt8])
        /// A ping (answered already unless `answersPings` is off) or a pong.
        case ping([UInt8])
        case pong([UInt8])
        /// A close frame with its code (nil when it had none).
        case close(UInt16?)
        /// The stream ended without a close frame.
        case end
        /// Nothing complete arrived in time.
        case timeout
        /// The server broke RFC 6455 (or sent more than the size limit).
        case broken(String)
    }

    /// The socket's descriptor.
    public let fd: Int32
    /// How long a read waits by default, in milliseconds.
    public let timeoutMilliseconds: Int
    /// Whether pings are answered as they are read.
    public var answersPings = true
    /// Set once the peer ended the stream.
    public private(set) var ended = false
    private var buffer: [UInt8] = []
    private var decoder = FrameDecoder(maxMessageBytes: 64 << 20, sender: .server)

    /// Connects to `host` (an IPv4 address) at `port`. `timeoutSeconds` bounds every read and
    /// write by default; `receiveBuffer` shrinks the kernel's receive buffer first (a reader that
    /// falls behind sooner).
    /// - Throws: `ClientSocketError` when the socket cannot be made or the connection is refused.
    public init(host: String = "127.0.0.1", port: Int, timeoutSeconds: Int = 10, receiveBuffer: Int32? = nil)
        throws(ClientSocketError)
    {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientSocketError("socket: errno \(errno)") }
        timeoutMilliseconds = timeoutSeconds * 1000
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientSocketError("connect to \(host):\(port): errno \(code)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Shuts the socket down both ways (the descriptor is closed when the object goes).
    public func shutDown() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    // MARK: Writing

    /// Writes all of `bytes` as they are.
    /// - Throws: `ClientSocketError` when the peer is gone or the write timed out.
    public func send(_ bytes: [UInt8]) throws(ClientSocketError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw ClientSocketError("send: errno \(errno)") }
            offset += written
        }
    }

    /// Sends one final, masked frame of `opcode`.
    public func sendFrame(opcode: UInt8, _ payload: [UInt8], final: Bool = true) throws(ClientSocketError) {
        try send(ClientFrame.make(opcode: opcode, payload, final: final))
    }

    // MARK: Reading

    /// Sends the opening handshake for `path` and checks the answer.
    /// - Throws: `ClientSocketError` naming the status when the upgrade is refused.
    public func upgrade(path: String = "/ws", subprotocol: String? = "chronosketch.v1") throws(ClientSocketError) {
        var nonce = [UInt8](repeating: 0, count: 16)
        for index in nonce.indices { nonce[index] = UInt8.random(in: 0...255) }
        let handshake = ClientHandshake(host: "127.0.0.1", path: path, subprotocol: subprotocol, nonce: nonce)
        try send(handshake.request)
        guard let head = readHead() else { throw ClientSocketError("no answer to the upgrade") }
        if case .refused(let status) = handshake.check(head) { throw ClientSocketError("upgrade refused: \(status)") }
    }

    /// Reads an HTTP response head, up to and including its blank line; nil on end of stream or
    /// after `timeoutMilliseconds` (the default's when nil).
    public func readHead(timeoutMilliseconds: Int? = nil) -> String? {
        let deadline = deadline(timeoutMilliseconds)
        while true {
            if let end = ClientHandshake.headEnd(buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end)
                return head
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Everything the peer sends until it ends the stream or the time is up.
    public func drainRaw(timeoutMilliseconds: Int? = nil) -> [UInt8] {
        let deadline = deadline(timeoutMilliseconds)
        while fill(until: deadline) {}
        defer { buffer = [] }
        return buffer
    }

    /// The next message or control frame, waiting at most `timeoutMilliseconds` (the default's
    /// when nil). Pings are answered on the way unless `answersPings` is off.
    public func next(timeoutMilliseconds: Int? = nil) -> Event {
        let deadline = deadline(timeoutMilliseconds)
        while true {
            if let event = parse() { return event }
            guard fill(until: deadline) else { return ended ? .end : .timeout }
        }
    }

    private func deadline(_ milliseconds: Int?) -> UInt64 {
        ProcessIO.monotonicNanoseconds() + UInt64(max(0, milliseconds ?? timeoutMilliseconds)) * 1_000_000
    }

    /// The next event in what was read, if a whole one is there.
    private func parse() -> Event? {
        while true {
            switch buffer.withUnsafeBytes({ decoder.step($0) }) {
            case .needMore:
                return nil
            case .consumed(let count):
                buffer.removeFirst(count)
            case .fail(let code, let reason):
                buffer = []
                return .broken("\(code): \(reason)")
            case .event(let event, let count):
                buffer.removeFirst(count)
                switch event {
                case .text(let payload): return .message(opcode: 1, payload: payload)
                case .binary(let payload): return .message(opcode: 2, payload: payload)
                case .fragment(let payload, _, _, let text): return .message(opcode: text ? 1 : 2, payload: payload)
                case .close(let payload):
                    return .close(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
                case .ping(let payload):
                    // A client answers pings (a server closes peers that stay silent).
                    if answersPings { try? send(ClientFrame.make(opcode: 0xA, payload)) }
                    return .ping(payload)
                case .pong(let payload): return .pong(payload)
                }
            }
        }
    }

    /// Reads what is there, waiting until `deadline`; false on timeout or end of stream.
    private func fill(until deadline: UInt64) -> Bool {
        guard !ended else { return false }
        let now = ProcessIO.monotonicNanoseconds()
        guard deadline > now else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(clamping: (deadline - now) / 1_000_000 + 1)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else {
            ended = true
            return false
        }
        buffer += chunk[0..<count]
        return true
    }
}

/// Why a client socket could not do what was asked.
public struct ClientSocketError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
