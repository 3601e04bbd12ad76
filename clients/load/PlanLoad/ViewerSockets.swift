import CNetwork
import ChronoSketchCore
import Glibc
import PlanClient
import Synchronization
import SystemSupport
import WebSocketWire

/// Plain-socket WebSocket clients (RFC 6455, `ws://` only) for thousands of receive-mostly
/// viewers on one epoll thread.
///
/// lws's client parses every received byte through its state machine; at 10,000 viewers that was
/// the load generator's largest cost, more than the server's per message. Here a read that holds
/// whole frames is handed out without copying the stream more than once: the frame header is
/// read, the payload sliced out. Messages the server fragments (over 64 KiB) are handed out in
/// pieces (`ViewerEvent.part`).
/// Client frames are masked as the RFC requires; pings are answered; a close is answered and
/// reported with its code.
final class ViewerSockets: ViewerTransport, @unchecked Sendable {
    enum Command {
        case connect(UInt64, ClientTransport.Endpoint, @Sendable (ViewerEvent) -> Void)
        case send(UInt64, [UInt8])
    }

    /// One connection, touched only by the service thread.
    final class Socket {
        enum Phase { case connecting, upgrading, open }

        let id: UInt64
        let fd: Int32
        let handler: @Sendable (ViewerEvent) -> Void
        var phase = Phase.connecting
        /// The opening handshake sent (its answer is checked against its key).
        var handshake: ClientHandshake?
        /// The server's frames, read with `WebSocketWire` (fragments handed on as they come).
        var decoder = FrameDecoder(
            maxMessageBytes: ViewerSockets.maxFrameBytes, sender: .server, joinsFragments: false, checksUTF8: false)
        /// Received bytes not yet consumed (a partial header, frame or HTTP response).
        var input: [UInt8] = []
        /// Whether a fragmented message is arriving.
        /// Bytes waiting for the socket to take them.
        var output: [UInt8] = []
        /// Messages sent before the connection opened.
        var early: [[UInt8]] = []
        var wantsWritable = false
        /// When the connect began (monotonic nanoseconds), for the upgrade timeout.
        let startedAt = ProcessIO.monotonicNanoseconds()
        /// When bytes last arrived (monotonic nanoseconds), for the idle timeout; whether a ping
        /// asked the silent server for a sign of life since.
        var lastHeard = ProcessIO.monotonicNanoseconds() {
            didSet { probed = false }
        }
        var probed = false

        init(id: UInt64, fd: Int32, handler: @escaping @Sendable (ViewerEvent) -> Void) {
            self.id = id
            self.fd = fd
            self.handler = handler
        }
    }

    private let inbox = Locked<[Command]>([])
    private let stopping = Atomic<Bool>(false)
    private let nextID = Atomic<UInt64>(1)
    private let epoll: Int32
    private let wake: Int32
    private let thread = JoinableThread()
    /// Service-thread state.
    var sockets: [UInt64: Socket] = [:]
    private var scratch = [UInt8](repeating: 0, count: 1 << 18)
    /// Resolved addresses by "host:port" (resolving once, not once per viewer).
    private var addresses: [String: (family: Int32, address: [UInt8])] = [:]
    /// Connections not open yet, and when they were last checked against the upgrade timeout.
    var pendingCount = 0
    var lastSweep: UInt64 = 0

    /// A connection that is not open this long after its connect is given up.
    let upgradeTimeoutNanoseconds: UInt64
    /// An open connection that hears nothing this long is given up (0: never); it is pinged 10 s
    /// before.
    let idleTimeoutNanoseconds: UInt64
    var lastIdleSweep: UInt64 = 0
    /// The largest frame accepted (a larger one closes the connection with 1009).
    static let maxFrameBytes = 256 << 20
    private var maskRandom = SplitMix64(
        seed: ProcessIO.monotonicNanoseconds() ^ UInt64(UInt32(truncatingIfNeeded: getpid())))

    /// Starts the service thread; a connection not open `upgradeTimeout` after its connect is
    /// closed.
    init(upgradeTimeout: Duration = .seconds(10), idleTimeout: Duration = .zero) throws(ClientError) {
        upgradeTimeoutNanoseconds = upgradeTimeout.inNanoseconds
        idleTimeoutNanoseconds = idleTimeout.inNanoseconds
        cn_raise_descriptor_limit()
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = cn_eventfd()
        guard epoll >= 0, wake >= 0 else {
            throw .transport("cannot create epoll: \(String(cString: strerror(errno)))")
        }
        _ = cn_epoll_control(epoll, EPOLL_CTL_ADD, wake, EPOLLIN.rawValue, 0)
        do {
            try thread.start { self.serviceLoop() }
        } catch {
            throw .transport("cannot start the viewer socket thread: \(error)")
        }
    }

    deinit {
        close(epoll)
        close(wake)
    }

    func reserveConnectionID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    func connect(
        _ id: UInt64, to endpoint: ClientTransport.Endpoint,
        handler: @escaping @Sendable (ViewerEvent) -> Void
    ) {
        post(.connect(id, endpoint, handler))
    }

    func send(_ bytes: [UInt8], on connection: UInt64) {
        post(.send(connection, bytes))
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        signalWake()
        thread.join()
    }

    private func post(_ command: Command) {
        guard !stopping.load(ordering: .acquiring) else { return refuse(command) }
        inbox.withLock { $0.append(command) }
        signalWake()
    }

    /// A command that comes too late: a connect is answered `closed`, a send dropped.
    private func refuse(_ command: Command) {
        if case .connect(_, _, let handler) = command { handler(.closed(code: nil, reason: "client stopped")) }
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    // MARK: Service thread

    private func serviceLoop() {
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        while !stopping.load(ordering: .acquiring) {
            let count = cn_epoll_wait(epoll, &tokens, &events, 256, pendingCount > 0 ? 250 : 1000)
            if count < 0 && errno != EINTR { break }
            for index in 0..<max(0, Int(count)) {
                if tokens[index] == 0 {
                    var value: UInt64 = 0
                    _ = read(wake, &value, 8)
                    continue
                }
                guard let socket = sockets[tokens[index]] else { continue }
                serve(socket, events: events[index])
            }
            drainInbox()
            sweepUpgrades()
            sweepIdle()
        }
        for socket in Array(sockets.values) { finish(socket, code: nil, reason: "client stopped") }
        for command in inbox.withLock({ commands in
            defer { commands = [] }; return commands
        }) { refuse(command) }
    }

    private func drainInbox() {
        let commands = inbox.withLock { commands -> [Command] in
            defer { commands = [] }
            return commands
        }
        for command in commands {
            switch command {
            case .connect(let id, let endpoint, let handler): open(id, endpoint, handler)
            case .send(let id, let bytes):
                guard let socket = sockets[id] else { continue }
                if socket.phase == .open {
                    queueFrame(socket, opcode: 1, payload: bytes)
                } else {
                    socket.early.append(bytes)
                }
            }
        }
    }

    private func open(
        _ id: UInt64, _ endpoint: ClientTransport.Endpoint,
        _ handler: @escaping @Sendable (ViewerEvent) -> Void
    ) {
        guard !endpoint.secure else {
            handler(.closed(code: nil, reason: "plain sockets do not speak TLS (wss://)"))
            return
        }
        guard let (family, address) = resolve(endpoint) else {
            handler(.closed(code: nil, reason: "cannot resolve \(endpoint.host)"))
            return
        }
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            handler(.closed(code: nil, reason: "no socket: \(String(cString: strerror(errno)))"))
            return
        }
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let result = address.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard result == 0 || errno == EINPROGRESS else {
            let reason = "cannot connect: \(String(cString: strerror(errno)))"
            Glibc.close(fd)
            handler(.closed(code: nil, reason: reason))
            return
        }
        let socket = Socket(id: id, fd: fd, handler: handler)
        sockets[id] = socket
        pendingCount += 1
        socket.output = handshake(for: socket, endpoint)
        socket.wantsWritable = true
        _ = cn_epoll_control(epoll, EPOLL_CTL_ADD, fd, EPOLLIN.rawValue | EPOLLOUT.rawValue, id)
    }

    /// The endpoint's first address (IPv4 or IPv6), resolved once.
    private func resolve(_ endpoint: ClientTransport.Endpoint) -> (Int32, [UInt8])? {
        let key = "\(endpoint.host):\(endpoint.port)"
        if let known = addresses[key] { return known }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, let first = found else {
            return nil
        }
        defer { freeaddrinfo(found) }
        let bytes = Array(
            UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        addresses[key] = (first.pointee.ai_family, bytes)
        return (first.pointee.ai_family, bytes)
    }

    private func handshake(for socket: Socket, _ endpoint: ClientTransport.Endpoint) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 16)
        for index in nonce.indices { nonce[index] = UInt8(truncatingIfNeeded: nextMask()) }
        let handshake = ClientHandshake(host: "\(endpoint.host):\(endpoint.port)", path: endpoint.path, nonce: nonce)
        socket.handshake = handshake
        return handshake.request
    }

    private func serve(_ socket: Socket, events: UInt32) {
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0, events & EPOLLIN.rawValue == 0 {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket.fd, SOL_SOCKET, SO_ERROR, &error, &length)
            let reason =
                socket.phase == .connecting ? "cannot connect: \(String(cString: strerror(error)))" : "connection lost"
            return finish(socket, code: nil, reason: reason)
        }
        if events & EPOLLOUT.rawValue != 0 {
            if socket.phase == .connecting { socket.phase = .upgrading }
            flush(socket)
            guard sockets[socket.id] != nil else { return }
        }
        if events & EPOLLIN.rawValue != 0 { receive(socket) }
    }

    /// Reads until the socket is empty, handing out every whole frame.
    private func receive(_ socket: Socket) {
        while sockets[socket.id] != nil {
            let count = scratch.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return finish(socket, code: nil, reason: "connection closed by the server") }
            if count > 0 { socket.lastHeard = ProcessIO.monotonicNanoseconds() }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                return finish(socket, code: nil, reason: "connection lost: \(String(cString: strerror(errno)))")
            }
            if socket.input.isEmpty {
                // The common case: whole frames in this read, parsed where they lie.
                let used = scratch.withUnsafeBufferPointer {
                    consume(socket, UnsafeBufferPointer(rebasing: $0[0..<count]))
                }
                if used < count, sockets[socket.id] != nil { socket.input.append(contentsOf: scratch[used..<count]) }
            } else {
                socket.input.append(contentsOf: scratch[0..<count])
                let input = socket.input
                let used = input.withUnsafeBufferPointer { consume(socket, $0) }
                if sockets[socket.id] != nil { socket.input.removeFirst(used) }
            }
            if count < scratch.count { return }
        }
    }

    /// Queues one masked frame and writes what the socket takes.
    func queueFrame(_ socket: Socket, opcode: UInt8, payload: [UInt8]) {
        socket.output.append(0x80 | opcode)
        if payload.count < 126 {
            socket.output.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            socket.output.append(0x80 | 126)
            socket.output.append(UInt8(payload.count >> 8))
            socket.output.append(UInt8(payload.count & 0xFF))
        } else {
            socket.output.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                socket.output.append(UInt8((payload.count >> shift) & 0xFF))
            }
        }
        let mask = UInt32(truncatingIfNeeded: nextMask())
        let maskBytes = [UInt8(mask >> 24), UInt8((mask >> 16) & 0xFF), UInt8((mask >> 8) & 0xFF), UInt8(mask & 0xFF)]
        socket.output.append(contentsOf: maskBytes)
        for (index, byte) in payload.enumerated() { socket.output.append(byte ^ maskBytes[index & 3]) }
        flush(socket)
    }

    private func flush(_ socket: Socket) {
        guard sockets[socket.id] != nil else { return }
        while !socket.output.isEmpty {
            let written = socket.output.withUnsafeBytes {
                Glibc.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { break }
                return finish(socket, code: nil, reason: "connection lost: \(String(cString: strerror(errno)))")
            }
            socket.output.removeFirst(written)
        }
        let wants = !socket.output.isEmpty
        if wants != socket.wantsWritable {
            socket.wantsWritable = wants
            let events = EPOLLIN.rawValue | (wants ? EPOLLOUT.rawValue : 0)
            _ = cn_epoll_control(epoll, EPOLL_CTL_MOD, socket.fd, events, socket.id)
        }
    }

    func finish(_ socket: Socket, code: UInt16?, reason: String) {
        guard sockets.removeValue(forKey: socket.id) != nil else { return }
        if socket.phase != .open { pendingCount -= 1 }
        _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, socket.fd, 0, 0)
        Glibc.close(socket.fd)
        socket.handler(.closed(code: code, reason: reason))
    }

    private func nextMask() -> UInt64 { maskRandom.next() }
}
