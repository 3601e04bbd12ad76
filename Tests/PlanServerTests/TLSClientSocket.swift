import COpenSSL
import Glibc
import PlanProtocol
import PlanTestSupport
import WebSocketWire

/// A blocking wss:// client from a source address of the test's choosing (127.0.0.2, 127.0.0.3,
/// …: the whole of 127/8 is loopback on Linux), to stand for distinct clients in front of a
/// TLS-terminating proxy. The certificate is not checked (the test's own, self-signed). Every read
/// waits at most `timeoutSeconds`, so a silent peer fails the test instead of hanging it.
final class TLSClientSocket: @unchecked Sendable {
    private let fd: Int32
    private let context: OpaquePointer
    private let session: OpaquePointer
    private var buffer: [UInt8] = []
    private var decoder = FrameDecoder(maxMessageBytes: 64 << 20, sender: .server)

    /// Connects from `source` to 127.0.0.1:`port` and completes the TLS handshake.
    init(from source: String, port: Int, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            close(fd)
            throw HarnessError("no TLS client context")
        }
        self.context = context
        guard let session = SSL_new(context) else {
            SSL_CTX_free(context)
            close(fd)
            throw HarnessError("no TLS session")
        }
        self.session = session
        guard Self.attach(fd, source: source, port: 0) == 0,
            Self.attach(fd, source: "127.0.0.1", port: port, connect: true) == 0
        else { throw HarnessError("cannot connect from \(source) to port \(port): errno \(errno)") }
        SSL_set_fd(session, fd)
        guard SSL_connect(session) == 1 else { throw HarnessError("TLS handshake from \(source) failed") }
    }

    deinit {
        SSL_free(session)
        SSL_CTX_free(context)
        close(fd)
    }

    /// Binds (or with `connect`, connects) the socket to an IPv4 address and port.
    private static func attach(_ fd: Int32, source: String, port: Int, connect: Bool = false) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(source)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect
                    ? Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    : bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { SSL_write(session, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { throw HarnessError("TLS write failed") }
    }

    /// Reads what arrives next into the buffer; false at the end of the stream or on timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { SSL_read(session, $0.baseAddress, Int32($0.count)) }
        guard count > 0 else { return false }
        buffer += chunk[0..<Int(count)]
        return true
    }

    /// Asks for the WebSocket upgrade at `/ws`; nil when it was accepted, else the whole answer
    /// (status line, head and body: a refusal says why).
    func upgrade() throws -> String? {
        let nonce = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let handshake = ClientHandshake(host: "127.0.0.1", nonce: nonce)
        try send(handshake.request)
        while ClientHandshake.headEnd(buffer) == nil {
            guard fill() else {
                throw HarnessError("no answer to the upgrade: \(String(decoding: buffer, as: UTF8.self))")
            }
        }
        let end = ClientHandshake.headEnd(buffer)!
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end)
        if handshake.check(head) == .accepted { return nil }
        // The body, as long as Content-Length says (a proxy may keep the connection open).
        let length =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingSpaces) } ?? 0
        while buffer.count < length, fill() {}
        return head + String(decoding: buffer.prefix(length), as: UTF8.self)
    }

    /// Sends one client message.
    func send(_ message: ClientMessage) throws {
        try send(ClientFrame.make(opcode: 1, message.bytes))
    }

    /// The next server message of type `type`, skipping the others; nil when the connection ends
    /// or the time is up first.
    func next(_ type: String) throws -> ServerMessage? {
        while true {
            switch buffer.withUnsafeBytes({ decoder.step($0) }) {
            case .needMore:
                guard fill() else { return nil }
            case .consumed(let count):
                buffer.removeFirst(count)
            case .fail(let code, let reason):
                throw HarnessError("broken frame \(code): \(reason)")
            case .event(let event, let count):
                buffer.removeFirst(count)
                if case .text(let payload) = event,
                    let message = try ServerMessage.decodeFrame(payload).first(where: { $0.typeName == type })
                {
                    return message
                }
                if case .close = event { return nil }
            }
        }
    }
}
