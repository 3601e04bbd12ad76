import CNetwork
import Glibc
import Synchronization
import SystemSupport
import WebSocketWire

/// The WebSocket and HTTP endpoint, our own (RFC 6455 and HTTP/1.1 from `WebSocketWire`, epoll,
/// OpenSSL for wss://): service threads do all socket work and never block; other threads hand
/// them outgoing buffers through a locked outbox per thread and wake them through an eventfd.
///
/// Every service thread watches the one listening socket (`EPOLLEXCLUSIVE`: one of them is woken
/// per connection) and hands accepted connections to the threads in turn; a connection's id tells
/// which thread serves it (`id % serviceThreads`). TLS handshakes run on a thread of their own.
///
/// Each connection is a `ServerConnection` state machine with a send queue of shared immutable
/// frames. What the queues hold is bounded three ways: per connection (`maxQueueBytes`), per
/// account (a user's connections together) and in all (`QueueLedger`); a peer that takes nothing
/// for `writeTimeout` is closed whatever it sends.
public final class WebSocketTransport: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// The interface to bind, such as 127.0.0.1 (an IPv6 literal such as `::` listens
        /// dual-stack).
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (see `port` after `start()`).
        public var port = 8080
        /// PEM certificate and key for wss://, both or neither.
        public var tlsCertificatePath: String?
        /// PEM private key for wss://.
        public var tlsKeyPath: String?
        /// What each connection runs with: message and queue limits, frame interval, deadlines.
        public var connection = ServerConnection.Configuration()
        /// Service threads, each serving its share of the connections (at least 1).
        public var serviceThreads = 1
        /// Helper threads per service thread that take a share of its big broadcast passes
        /// (`SharedPass`; 0: none). They sleep between passes.
        public var writeHelpers = 1
        /// Messages read but not yet taken by the consumer beyond which sockets are not read
        /// (memory stays bounded when the hub falls behind; TCP slows the senders down).
        public var maxIntakeBacklog = 10000
        /// Messages of one connection read but not yet taken by the consumer beyond which that
        /// connection is not read: a flooding peer has at most this many messages ahead of
        /// everyone else's.
        public var maxIntakePerConnection = 64
        /// Connections one peer address may hold at once, counted from accept (0: no limit); a
        /// trusted proxy's (`connection.trustedProxies`) count against their clients once known.
        public var maxConnectionsPerAddress = 0
        /// Bytes all send queues may hold together, each buffer counted once (0: no budget).
        public var queueBudget = 0
        /// Bytes the queues of one account's connections may be charged together (0: no share).
        public var accountShare = 0

        /// The defaults.
        public init() {}
    }

    /// Work for a service thread.
    enum Command: Sendable {
        /// A connection accepted elsewhere (with its TLS session once the handshake is done).
        case adopt(Accepted, TLSSession?)
        case send(OutgoingBuffer, [ConnectionID], urgent: Bool)
        case close(ConnectionID, CloseCode, String)
        /// The answer to a plain HTTP request the application took time over.
        case respond(ConnectionID, HTTPAnswer)
        case closeAll(CloseCode, String)
        /// The connection's queue is charged to an account from now on.
        case assign(ConnectionID, QueueAccount)
    }

    /// One service thread's share: its outbox, the eventfd that wakes it, its thread.
    final class Shard: Sendable {
        let index: Int
        let outbox = Locked<[Command]>([])
        let wakeFD: Int32
        let thread = JoinableThread()
        /// Connections whose broadcasts wait for the frame interval; while any do, a ticker wakes
        /// the service thread twice per interval to flush them.
        let coalescingCount = Atomic<Int>(0)
        /// Each connection's messages handed to the consumer and not yet taken.
        let intake = Locked(ConnectionIntake())

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

    /// What the transport runs with.
    public let configuration: Configuration
    let onEvent: @Sendable (TransportEvent) -> Void
    let onHTTP: @Sendable (HTTPRequestHead, ConnectionID) -> HTTPAnswer?
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
    /// Connections per peer address, from accept on.
    let addresses: AddressBook
    /// What the send queues hold, and the budget.
    public let ledger: QueueLedger
    /// What every connection runs with, shared.
    let connectionSettings: ServerConnection.Settings
    /// Accounts by name, while a connection uses them.
    let accounts = Locked<[String: QueueAccount]>([:])
    /// The TLS handshake thread (nil without TLS).
    let handshakes: TLSHandshakes?
    /// Connections refused at accept (their address held its limit), and closes by cause.
    let refusedConnections = Atomic<Int>(0)
    let closeCounts = Locked<[CloseCause: Int]>([:])

    /// Creates a transport; `onEvent` and `onHTTP` run on the service threads (concurrently when
    /// there are several) and must not block. `onHTTP` answers a plain HTTP request at once, or
    /// returns nil and answers later with `respond(_:to:)` (from any thread; nothing more is read
    /// from that connection until then).
    /// - Throws: `TransportError` when the TLS certificate or key cannot be used.
    public init(
        configuration: Configuration, onEvent: @escaping @Sendable (TransportEvent) -> Void,
        onHTTP: @escaping @Sendable (HTTPRequestHead, ConnectionID) -> HTTPAnswer?
    ) throws(TransportError) {
        var configuration = configuration
        configuration.serviceThreads = max(1, configuration.serviceThreads)
        configuration.maxIntakeBacklog = max(2, configuration.maxIntakeBacklog)
        self.configuration = configuration
        self.onEvent = onEvent
        self.onHTTP = onHTTP
        shards = (0..<configuration.serviceThreads).map(Shard.init)
        addresses = AddressBook(limit: configuration.maxConnectionsPerAddress)
        ledger = QueueLedger(budget: configuration.queueBudget, accountShare: configuration.accountShare)
        connectionSettings = ServerConnection.Settings(configuration.connection)
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            handshakes = try TLSHandshakes(context: TLSServerContext(certificatePath: certificate, keyPath: key))
        } else {
            handshakes = nil
        }
    }

    /// The port actually listened on (after `start()`).
    public var port: Int { listeningPort.load(ordering: .acquiring) }

    /// Unsent bytes queued across all connections (a buffer counted once per connection).
    public var queuedBytes: Int { queuedBytesTotal.load(ordering: .relaxed) }

    /// Listens and starts the service threads (and the TLS handshake thread for wss://).
    /// - Throws: `TransportError` when the port cannot be bound or TLS files are unusable.
    public func start() throws(TransportError) {
        cn_raise_descriptor_limit()
        guard shards.allSatisfy({ $0.wakeFD >= 0 }) else { throw TransportError(message: "cannot create an eventfd") }
        var bound: Int32 = 0
        let fd = cn_listen_tcp(configuration.host, Int32(configuration.port), 4096, &bound)
        guard fd >= 0 else {
            throw TransportError(message: "cannot listen on \(configuration.host):\(configuration.port)")
        }
        listener.store(fd, ordering: .releasing)
        listeningPort.store(Int(bound), ordering: .releasing)
        try handshakes?.start(self)
        for shard in shards {
            let loop = try ServiceLoop(transport: self, shard: shard)
            let helpers = loop.sharedPass
            do {
                try shard.thread.start { loop.run() }
            } catch {
                helpers?.stop()
                throw TransportError(message: "cannot start a service thread: \(error)")
            }
        }
        if configuration.connection.frameInterval > 0 { try startTicker() }
    }

    /// Wakes the service threads while broadcasts wait to be coalesced (on a thread of its own).
    private func startTicker() throws(TransportError) {
        try TransportError.wrapping { () throws(SystemError) in
            try SystemThread.repeating(every: .nanoseconds(configuration.connection.frameInterval / 2)) {
                [weak self] in
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
    /// it may wait up to the frame interval to share a frame with what follows.
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

    /// Answers the plain HTTP request `onHTTP` left unanswered (returned nil for). A connection
    /// that is gone by then is skipped.
    public func respond(_ answer: HTTPAnswer, to connection: ConnectionID) {
        shard(of: connection).enqueue(.respond(connection, answer))
    }

    /// Closes a connection after what is queued for it has been written.
    public func close(_ connection: ConnectionID, code: CloseCode, reason: String) {
        shard(of: connection).enqueue(.close(connection, code, reason))
    }

    /// Charges the connection's queue to the account named `name` (a user) from now on: the
    /// account's connections together stay within `accountShare`.
    public func assign(_ connection: ConnectionID, toAccount name: String) {
        let account = accounts.withLock { accounts in
            if let account = accounts[name] { return account }
            let account = QueueAccount(name: name)
            accounts[name] = account
            return account
        }
        shard(of: connection).enqueue(.assign(connection, account))
    }

    /// A connection stopped using `account`: the account is forgotten once none does.
    func leave(_ account: QueueAccount) {
        accounts.withLock { accounts in
            if account.members.load(ordering: .relaxed) <= 0, accounts[account.name] === account {
                accounts[account.name] = nil
            }
        }
    }

    /// The accounts whose connections are charged more than the share.
    func accountsOverShare() -> [QueueAccount] {
        guard ledger.accountShare > 0 else { return [] }
        return accounts.withLock { $0.values.filter { $0.chargedBytes > ledger.accountShare } }
    }

    /// Connections refused because their address held its limit: as they were accepted, or a
    /// trusted proxy's once their client was known.
    public var refusedConnectionCount: Int { refusedConnections.load(ordering: .relaxed) }

    /// Connections closed by each of the transport's bounds so far.
    public var boundedCloses: [CloseCause: Int] { closeCounts.withLock { $0 } }

    /// Counts a connection closed by one of the transport's bounds.
    func count(_ cause: CloseCause) {
        closeCounts.withLock { $0[cause, default: 0] += 1 }
    }

    /// Stops accepting connections, closes every connection with `code` after flushing what is
    /// queued (for at most `flushSeconds`), then ends the service threads.
    public func shutdown(code: CloseCode = .goingAway, reason: String = "server shutting down", flushSeconds: Int = 5) {
        accepting.store(false, ordering: .releasing)
        for shard in shards { shard.enqueue(.closeAll(code, reason)) }
        let deadline = ContinuousClock.now + .seconds(flushSeconds)
        // The service threads report when no connection is left; wait for that or the deadline.
        while ContinuousClock.now < deadline, openConnectionCount.load(ordering: .acquiring) > 0 {
            SystemThread.sleep(for: .milliseconds(10))
        }
        stopping.store(true, ordering: .releasing)
        handshakes?.stop()
        for shard in shards {
            shard.wake()
            shard.thread.join()
        }
        let fd = listener.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Open WebSocket connections, maintained by the service threads.
    let openConnectionCount = Atomic<Int>(0)
    /// Messages handed to the consumer (the hub) and not yet taken; above `maxIntakeBacklog`
    /// the service threads stop reading sockets until it is back to half of that.
    let intakeBacklog = Atomic<Int>(0)
    /// How often a connection's reading was paused for the backlog.
    let readPauses = Atomic<Int>(0)
    /// Broadcast passes shared with write helpers, and the connections the helpers wrote in them.
    let sharedPasses = Atomic<Int>(0)
    let helperWrites = Atomic<Int>(0)

    /// Broadcast passes shared with write helpers (for `/metrics`).
    public var sharedPassCount: Int { sharedPasses.load(ordering: .relaxed) }

    /// Connections the write helpers wrote in shared passes (for `/metrics`): with the passes'
    /// sizes, how much of the fan-out the helpers took.
    public var helperWrittenConnections: Int { helperWrites.load(ordering: .relaxed) }
}

/// Why the transport (or a server around it) could not start.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }

    /// What `body` returns; a system failure while starting becomes a transport error.
    public static func wrapping<T>(_ body: () throws(SystemError) -> T) throws(TransportError) -> T {
        do { return try body() } catch { throw TransportError(message: error.description) }
    }
}
