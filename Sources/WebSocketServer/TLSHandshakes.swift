import CNetwork
import COpenSSL
import Glibc
import Synchronization
import SystemSupport

/// The TLS handshakes of new wss:// connections, on a thread of their own that runs at a lower
/// scheduling priority than the service threads: a flood of ClientHellos (each costs the server a
/// key exchange and a signature) takes what the service threads leave, and established sessions
/// keep their latency. A connection whose handshake completes is handed to a service thread
/// with its session; one that fails, or does not finish within the head timeout, is closed.
final class TLSHandshakes: Sendable {
    let context: TLSServerContext
    private let inbox = Locked<[Accepted]>([])
    private let wakeFD: Int32
    private let thread = JoinableThread()
    private let stopping = Atomic<Bool>(false)

    /// Nice value of the handshake thread: the service threads (0) come first when cores are busy.
    static let niceness: Int32 = 10

    init(context: TLSServerContext) throws(TransportError) {
        self.context = context
        wakeFD = cn_eventfd()
        guard wakeFD >= 0 else { throw TransportError(message: "cannot create an eventfd") }
    }

    deinit {
        Glibc.close(wakeFD)
    }

    /// Starts the thread; handed-over connections go to `transport`'s service threads in turn.
    func start(_ transport: WebSocketTransport) throws(TransportError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0, cn_epoll_control(epoll, EPOLL_CTL_ADD, wakeFD, EPOLLIN.rawValue, UInt64.max) == 0 else {
            throw TransportError(message: "cannot create the TLS handshake loop")
        }
        do {
            try thread.start { [self] in
                cn_lower_thread_priority(TLSHandshakes.niceness)
                var loop = HandshakeLoop(handshakes: self, transport: transport, epoll: epoll)
                loop.run()
                Glibc.close(epoll)
            }
        } catch {
            Glibc.close(epoll)
            throw TransportError(message: "cannot start the TLS handshake thread: \(error)")
        }
    }

    /// Hands over an accepted connection for its handshake.
    func enqueue(_ accepted: Accepted) {
        inbox.withLock { $0.append(accepted) }
        cn_eventfd_signal(wakeFD)
    }

    /// Ends the thread (pending handshakes are closed) and waits for it.
    func stop() {
        stopping.store(true, ordering: .releasing)
        cn_eventfd_signal(wakeFD)
        thread.join()
    }

    fileprivate var isStopping: Bool { stopping.load(ordering: .acquiring) }

    fileprivate func take() -> [Accepted] {
        cn_eventfd_drain(wakeFD)
        return inbox.withLock { accepted in
            defer { accepted = [] }
            return accepted
        }
    }
}

/// The handshake thread's state: the handshakes under way by descriptor.
private struct HandshakeLoop {
    let handshakes: TLSHandshakes
    let transport: WebSocketTransport
    let epoll: Int32
    var pending: [Int32: (accepted: Accepted, session: OpaquePointer)] = [:]

    mutating func run() {
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var nextSweep: UInt64 = 0
        while !handshakes.isStopping {
            let count = cn_epoll_wait(epoll, &tokens, &events, 256, 1000)
            for index in 0..<max(0, Int(count)) {
                if tokens[index] == UInt64.max {
                    for accepted in handshakes.take() { begin(accepted) }
                } else {
                    advance(Int32(truncatingIfNeeded: tokens[index]))
                }
            }
            let now = ServiceLoop.now()
            if now >= nextSweep {
                nextSweep = now + 1_000_000_000
                expire(now: now)
            }
        }
        for fd in Array(pending.keys) { fail(fd) }
        for accepted in handshakes.take() { ServiceLoop.discard(accepted, tls: nil, transport: transport) }
    }

    private mutating func begin(_ accepted: Accepted) {
        guard let session = handshakes.context.session(fd: accepted.fd) else {
            ServiceLoop.discard(accepted, tls: nil, transport: transport)
            return
        }
        guard cn_epoll_control(epoll, EPOLL_CTL_ADD, accepted.fd, EPOLLIN.rawValue, UInt64(accepted.fd)) == 0 else {
            ServiceLoop.discard(accepted, tls: TLSSession(session: session), transport: transport)
            return
        }
        pending[accepted.fd] = (accepted, session)
        advance(accepted.fd)
    }

    /// Takes a handshake as far as the socket allows.
    private mutating func advance(_ fd: Int32) {
        guard let (accepted, session) = pending[fd] else { return }
        switch Channel(fd: fd, tls: session).acceptTLS() {
        case .moved:
            pending[fd] = nil
            _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, fd, 0, 0)
            let target = transport.nextShard.wrappingAdd(1, ordering: .relaxed).oldValue % transport.shards.count
            transport.shards[target].enqueue(.adopt(accepted, TLSSession(session: session)))
        case .wouldBlock(let needsWritable):
            let events = needsWritable ? EPOLLOUT.rawValue : EPOLLIN.rawValue
            _ = cn_epoll_control(epoll, EPOLL_CTL_MOD, fd, events, UInt64(fd))
        case .closed:
            fail(fd)
        }
    }

    private mutating func fail(_ fd: Int32) {
        guard let (accepted, session) = pending.removeValue(forKey: fd) else { return }
        _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, fd, 0, 0)
        ServiceLoop.discard(accepted, tls: TLSSession(session: session), transport: transport)
    }

    /// Closes handshakes not finished within the head timeout.
    private mutating func expire(now: UInt64) {
        let timeout = transport.configuration.connection.headTimeout
        for (fd, entry) in pending where now &- entry.accepted.at >= timeout { fail(fd) }
    }
}
