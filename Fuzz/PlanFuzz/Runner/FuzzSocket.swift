import Glibc
import SystemSupport
import WebSocketWire

/// A TCP connection to the server on a blocking socket with timeouts, reading the server's frames
/// with `WebSocketWire`; what it writes is up to the caller (any bytes at all, `WebSocketFrame`
/// makes frames with every field free). Apart from the tests' `RawWebSocket` because it is the
/// fuzzer's (a product, not a test helper): deadlines instead of errors, nothing thrown.
public final class FuzzSocket {
    /// What reading produced.
    public enum Event: Equatable {
        /// A complete text or binary message (fragments joined).
        case message(opcode: UInt8, payload: [UInt8])
        /// A close frame with its code (nil when it had none).
        case close(UInt16?)
        /// The connection ended without a close frame.
        case end
        /// Nothing complete arrived in time.
        case timeout
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var decoder = FrameDecoder(maxMessageBytes: 64 << 20, sender: .server)
    /// Set once the peer ended the stream.
    public private(set) var ended = false

    /// Connects to 127.0.0.1 (or `host`) at `port`; nil when the connection is refused.
    public init?(host: String, port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
            Glibc.close(fd)
            return nil
        }
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Sends one final, masked text frame.
    @discardableResult
    public func sendText(_ bytes: [UInt8]) -> Bool {
        send(WebSocketFrame(opcode: WebSocketFrame.Opcode.text, payload: bytes).bytes)
    }

    /// Reads an HTTP response head (up to the blank line); nil on end of stream or timeout.
    public func readHTTPHead(timeoutMilliseconds: Int) -> String? {
        let deadline = Clock.milliseconds() + timeoutMilliseconds
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Everything the peer sends until it ends the stream or `timeoutMilliseconds` pass.
    public func drainRaw(timeoutMilliseconds: Int) -> [UInt8] {
        let deadline = Clock.milliseconds() + timeoutMilliseconds
        while fill(until: deadline) {}
        defer { buffer = [] }
        return buffer
    }

    /// The next event, waiting at most until `deadline` (see `Clock.milliseconds()`).
    public func next(deadline: Int) -> Event {
        while true {
            if let event = parseFrame() { return event }
            guard fill(until: deadline) else { return ended ? .end : .timeout }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The next event in what was read (the server's frames, read by `WebSocketWire`); pings are
    /// answered on the way. A server that breaks RFC 6455 (or a message over 64 MiB) reads as a
    /// close without a code.
    private func parseFrame() -> Event? {
        while true {
            switch buffer.withUnsafeBytes({ decoder.step($0) }) {
            case .needMore:
                return nil
            case .consumed(let count):
                buffer.removeFirst(count)
            case .fail:
                return .close(nil)
            case .event(let event, let count):
                buffer.removeFirst(count)
                switch event {
                case .text(let payload): return .message(opcode: WebSocketFrame.Opcode.text, payload: payload)
                case .binary(let payload): return .message(opcode: WebSocketFrame.Opcode.binary, payload: payload)
                case .close(let payload):
                    return .close(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
                case .ping(let payload):
                    // A client answers pings (the server closes peers that stay silent).
                    send(WebSocketFrame(opcode: WebSocketFrame.Opcode.pong, payload: payload).bytes)
                case .pong:
                    break
                }
            }
        }
    }

    /// Reads what is there, waiting until `deadline`; false on timeout or end of stream.
    private func fill(until deadline: Int) -> Bool {
        guard !ended else { return false }
        let wait = deadline - Clock.milliseconds()
        guard wait > 0 else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(clamping: wait)) > 0 else { return false }
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

/// A monotonic clock in milliseconds.
public enum Clock {
    /// Milliseconds since an arbitrary start.
    public static func milliseconds() -> Int {
        Int(ProcessIO.monotonicNanoseconds() / 1_000_000)
    }
}
