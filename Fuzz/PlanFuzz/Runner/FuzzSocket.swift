import SystemSupport
import WebSocketClient

/// The fuzzer's view of the shared raw client (`BlockingWebSocket`, the tests' too): deadlines
/// instead of errors, nothing thrown, a server that breaks RFC 6455 read as a close without a code.
/// What it writes is up to the caller (any bytes at all; `WebSocketFrame` makes frames with every
/// field free).
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

    private let socket: BlockingWebSocket

    /// Whether the peer ended the stream.
    public var ended: Bool { socket.ended }

    /// Connects to 127.0.0.1 (or `host`) at `port`; nil when the connection is refused.
    public init?(host: String, port: Int) {
        guard let socket = try? BlockingWebSocket(host: host, port: port, timeoutSeconds: 5) else { return nil }
        self.socket = socket
    }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        (try? socket.send(bytes)) != nil
    }

    /// Sends one final, masked text frame.
    @discardableResult
    public func sendText(_ bytes: [UInt8]) -> Bool {
        send(WebSocketFrame(opcode: WebSocketFrame.Opcode.text, payload: bytes).bytes)
    }

    /// Reads an HTTP response head (up to the blank line); nil on end of stream or timeout.
    public func readHTTPHead(timeoutMilliseconds: Int) -> String? {
        socket.readHead(timeoutMilliseconds: timeoutMilliseconds).map { String($0.dropLast(4)) }
    }

    /// Everything the peer sends until it ends the stream or `timeoutMilliseconds` pass.
    public func drainRaw(timeoutMilliseconds: Int) -> [UInt8] {
        socket.drainRaw(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The next event, waiting at most until `deadline` (see `Clock.milliseconds()`); pings are
    /// answered on the way.
    public func next(deadline: Int) -> Event {
        while true {
            switch socket.next(timeoutMilliseconds: max(0, deadline - Clock.milliseconds())) {
            case .message(let opcode, let payload): return .message(opcode: opcode, payload: payload)
            case .close(let code): return .close(code)
            case .broken: return .close(nil)
            case .end: return .end
            case .timeout: return .timeout
            case .ping, .pong: continue
            }
        }
    }
}

/// A monotonic clock in milliseconds.
public enum Clock {
    /// Milliseconds since an arbitrary start.
    public static func milliseconds() -> Int {
        Int(ProcessIO.monotonicNanoseconds() / 1_000_000)
    }
}
