import CNetwork
import Glibc
import PlanProtocol
import Synchronization
import SystemSupport
import WebSocketWire

/// The WebSocket and HTTP endpoint, our own (RFC 6455 and HTTP/1.1 from `WebSocketWire`, epoll,
/// OpenSSL for wss://): service threads do all socket work and never block; other threads hand
/// them outgoing buffers through a locked outbox per thread and wake them through an eventfd.
///
/// Every service thread watches the one listening socket (`EPOLLEXCLUSIVE`: one of them is woken
/// per connection) and keeps the connections it accepted; a connection's id tells which thread
/// serves it (`id % serviceThreads`).
///
/// Each connection has a send queue of shared immutable frames; when a socket is writable the
/// small messages waiting go out as one frame (several messages as a JSON array), a large one
/// alone, straight from the shared buffer. A connection whose queue passes `maxQueueBytes` is
/// closed with 1013 and its queue released at once.
public final class WebSocketTransport: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// The interface to bind, such as 127.0.0.1.
        public var host: String
        /// The port; 0 picks a free one (see `port` after `start()`).
        public var port: Int
        /// PEM certificate and key for wss://, both or neither.
        public var tlsCertificatePath: String?
        /// PEM private key for wss://.
        public var tlsKeyPath: String?
        /// A larger message closes the connection with 1009.
        public var maxMessageBytes: Int
        /// Unsent bytes beyond this close the connection with 1013.
        public var maxQueueBytes: Int
        /// Broadcasts to one connection are written at most once per this interval (what arrives
        /// meanwhile goes out together, as one frame); direct answers are written at once. Zero
        /// writes every broadcast as soon as the socket is writable.
        public var frameInterval: Duration = .zero
        /// Service threads, each serving its share of the connections (at least 1).
        public var serviceThreads = 1
        /// A connection whose HTTP request (and TLS handshake) is not complete this long after it
        /// was accepted is closed.
        public var handshakeTimeout: Duration = .seconds(10)
        /// A connection silent this long is sent a ping; one silent twice as long (a dead peer, a
        /// cut link) is closed and its memory freed. Zero: no pings.
        public var pingInterval: Duration = .seconds(20)
        /// Messages read but not yet taken by the consumer beyond which sockets are not read
        /// (memory stays bounded when the hub falls behind; TCP slows the senders down).
        public var maxIntakeBacklog = 10000

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil,
            maxMessageBytes: Int = 1 << 20, maxQueueBytes: Int = 8 << 20, frameInterval: Duration = .zero,
            serviceThreads: Int = 1, handshakeTimeout: Duration = .seconds(10), pingInterval: Duration = .seconds(20),
            maxIntakeBacklog: Int = 10000
        ) {
            self.maxIntakeBacklog = max(2, maxIntakeBacklog)
            self.handshakeTimeout = handshakeTimeout
            self.pingInterval = pingInterval
            self.frameInterval = frameInterval
            self.serviceThreads = max(1, serviceThreads)
            self.host = host
            self.port = port
            self.tlsCertificatePath = tlsCertificatePath
            self.tlsKeyPath = tlsKeyPath
            self.maxMessageBytes = maxMessageBytes
            self.maxQueueBytes = maxQueueBytes
        }
    }

    /// Work for the service thread.
    enum Command: Sendable {
        /// A connection another thread accepted, for this one to serve.
        case adopt(Int32)
        case send(OutgoingBuffer, [ConnectionID], urgent: Bool)
        case close(ConnectionID, CloseCode, String)
        case closeAll(CloseCode, String)
    }

    /// One service thread's share: its outbox, the eventfd that wakes it, its thread.
    final class Shard: Sendable {
        let index: Int
        let outbox = Mutex<[Command]>([])
        let wakeFD: Int32
        let thread = JoinableThread()
        /// Connections whose broadcasts wait for the frame interval; while any do, a ticker wakes
        /// the service thread twice per interval to flush them.
        let coalescingCount = Atomic<Int>(0)

        init(index: Int) {
            self.index = index
            wakeFD = cn_eventfd()
        }

        deinit {
            if wakeFD >= 0 { Glibc.close(wakeFD) }
        }

        /// Queues a command; wakes the service thread only when the outbox was empty (it drains
        /// the whole outbox at once, so a wake for the earlier commands is still pending otherwise).
        func enqueue(_ command: Command) {
            let wasEmpty = outbox.withLock { commands in
                defer { commands.append(command) }
                return commands.isEmpty
            }
            if wasEmpty { wake() }
        }

        func wake() {
            cn_eventfd_signal(wakeFD)
        }
    }

    let configuration: Configuration
    let onEvent: @Sendable (TransportEvent) -> Void
    let onHTTP: @Sendable (HTTPRequestHead) -> HTTPResponse
    let shards: [Shard]
    let stopping = Atomic<Bool>(false)
    /// False once shutting down: new connections are closed at once.
    let accepting = Atomic<Bool>(true)
    let listeningPort = Atomic<Int>(0)
    let queuedBytesTotal = Atomic<Int>(0)
    /// The listening socket, watched by every service thread.
    let listener = Atomic<Int32>(-1)
    /// Accepted connections are handed to the threads in turn.
    let nextShard = Atomic<Int>(0)

    /// Creates a transport; `onEvent` and `onHTTP` run on the service threads (concurrently when
    /// there are several) and must not block.
    public init(
        configuration: Configuration, onEvent: @escaping @Sendable (TransportEvent) -> Void,
        onHTTP: @escaping @Sendable (HTTPRequestHead) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.onEvent = onEvent
        self.onHTTP = onHTTP
        shards = (0..<configuration.serviceThreads).map(Shard.init)
    }

    /// The port actually listened on (after `start()`).
    public var port: Int { listeningPort.load(ordering: .acquiring) }

    /// Unsent bytes queued across all connections.
    public var queuedBytes: Int { queuedBytesTotal.load(ordering: .relaxed) }

    /// Listens and starts the service threads.
    /// - Throws: `TransportError` when the port cannot be bound or TLS files are unusable.
    public func start() throws(TransportError) {
        cn_raise_descriptor_limit()
        var tls: TLSServerContext?
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            tls = try TLSServerContext(certificatePath: certificate, keyPath: key)
        }
        guard shards.allSatisfy({ $0.wakeFD >= 0 }) else { throw TransportError(message: "cannot create an eventfd") }
        var bound: Int32 = 0
        let fd = cn_listen_tcp(configuration.host, Int32(configuration.port), 4096, &bound)
        guard fd >= 0 else {
            throw TransportError(message: "cannot listen on \(configuration.host):\(configuration.port)")
        }
        listener.store(fd, ordering: .releasing)
        listeningPort.store(Int(bound), ordering: .releasing)
        for shard in shards {
            let loop = try ServiceLoop(transport: self, shard: shard, tls: tls)
            do {
                try shard.thread.start { loop.run() }
            } catch {
                throw TransportError(message: "cannot start a service thread: \(error)")
            }
        }
        if configuration.frameInterval > .zero { try startTicker() }
    }

    /// Wakes the service threads while broadcasts wait to be coalesced (on a thread of its own).
    private func startTicker() throws(TransportError) {
        try TransportError.wrapping { () throws(SystemError) in
            try SystemThread.repeating(every: configuration.frameInterval / 2) { [weak self] in
                guard let self, !self.stopping.load(ordering: .relaxed) else { return false }
                for shard in self.shards where shard.coalescingCount.load(ordering: .relaxed) > 0 { shard.wake() }
                return true
            }
        }
    }

    /// The index of the shard serving a connection: ids name their thread, `id % threads`.
    private func shardIndex(of connection: ConnectionID) -> Int {
        Int(connection.rawValue % UInt64(shards.count))
    }

    /// The shard serving a connection.
    private func shard(of connection: ConnectionID) -> Shard { shards[shardIndex(of: connection)] }

    /// Queues one buffer to many connections (encoded once, shared by all). With `coalesce`
    /// it may wait up to `frameInterval` to share a frame with what follows.
    public func broadcast(_ buffer: OutgoingBuffer, to connections: [ConnectionID], coalesce: Bool = true) {
        guard shards.count > 1 else {
            if !connections.isEmpty { shards[0].enqueue(.send(buffer, connections, urgent: !coalesce)) }
            return
        }
        // Split once: each service thread gets only its own connections, and only if it has any.
        var parts = [[ConnectionID]](repeating: [], count: shards.count)
        for connection in connections { parts[shardIndex(of: connection)].append(connection) }
        for (shard, part) in zip(shards, parts) where !part.isEmpty {
            shard.enqueue(.send(buffer, part, urgent: !coalesce))
        }
    }

    /// Queues a direct answer to one connection: written as soon as the socket is writable,
    /// together with whatever is queued before it.
    public func send(_ buffer: OutgoingBuffer, to connection: ConnectionID) {
        shard(of: connection).enqueue(.send(buffer, [connection], urgent: true))
    }

    /// Closes a connection after what is queued for it has been written.
    public func close(_ connection: ConnectionID, code: CloseCode, reason: String) {
        shard(of: connection).enqueue(.close(connection, code, reason))
    }

    /// Stops accepting connections, closes every connection with `code` after flushing what is
    /// queued (for at most `flushSeconds`), then ends the service threads and destroys their contexts.
    public func shutdown(code: CloseCode = .goingAway, reason: String = "server shutting down", flushSeconds: Int = 5) {
        accepting.store(false, ordering: .releasing)
        for shard in shards { shard.enqueue(.closeAll(code, reason)) }
        let deadline = ContinuousClock.now + .seconds(flushSeconds)
        // The service threads report when no connection is left; wait for that or the deadline.
        while ContinuousClock.now < deadline, openConnectionCount.load(ordering: .acquiring) > 0 {
            SystemThread.sleep(for: .milliseconds(10))
        }
        stopping.store(true, ordering: .releasing)
        for shard in shards {
            shard.wake()
            shard.thread.join()
        }
        let fd = listener.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { Glibc.close(fd) }
    }

    // MARK: Bounded intake

    /// Messages handed to the consumer (the hub) and not yet taken; above `maxIntakeBacklog`
    /// the service threads stop reading sockets until it is back to half of that.
    let intakeBacklog = Atomic<Int>(0)
    /// How often a connection's reading was paused for the backlog.
    let readPauses = Atomic<Int>(0)

    /// Whether the consumer is too far behind for more reading.
    var intakeIsFull: Bool {
        intakeBacklog.load(ordering: .relaxed) >= configuration.maxIntakeBacklog
    }

    /// Whether the consumer is back to half the bound (reading resumes: no pause and resume at
    /// every message around the bound).
    var intakeHasRoom: Bool {
        intakeBacklog.load(ordering: .relaxed) <= configuration.maxIntakeBacklog / 2
    }

    /// Messages waiting for the consumer (for `/metrics`).
    public var intakeWaiting: Int { intakeBacklog.load(ordering: .relaxed) }

    /// How often reading was paused because the consumer was behind (for `/metrics`).
    public var intakePauses: Int { readPauses.load(ordering: .relaxed) }

    /// Hands a message to the consumer, counting it in the backlog.
    func deliver(_ event: TransportEvent) {
        intakeBacklog.wrappingAdd(1, ordering: .relaxed)
        onEvent(event)
    }

    /// The consumer took a message: when the backlog falls to half the bound, the service threads
    /// read again.
    public func messageTaken() {
        let before = intakeBacklog.wrappingAdd(-1, ordering: .relaxed).oldValue
        if before == configuration.maxIntakeBacklog / 2 + 1 {
            for shard in shards { shard.wake() }
        }
    }

    /// Open WebSocket connections, maintained by the service threads.
    let openConnectionCount = Atomic<Int>(0)
}

/// Why the transport could not start.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
