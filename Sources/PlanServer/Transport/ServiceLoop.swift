import CNetwork
import COpenSSL
import Glibc
import PlanProtocol
import SystemSupport

/// One service thread's event loop: an epoll set over its connections, the shared listening
/// socket (each accepted connection stays with the thread that accepted it) and the shard's
/// eventfd, through which other threads hand it work. Every socket call of its connections
/// happens here; nothing here blocks.
final class ServiceLoop {
    let transport: WebSocketTransport
    let shard: WebSocketTransport.Shard
    let epoll: Int32
    let tls: TLSServerContext?
    /// This thread's connections by id: the root through which every connection is reached,
    /// bound to the service thread when it starts running.
    var connections = ThreadBound<[UInt64: Connection]>([:])
    /// Connections with a handshake or close deadline, checked once per second.
    var timed: [UInt64: Connection] = [:]
    /// The last connection id given out (at first the thread's index): ids of this thread are
    /// `index + serviceThreads`, then every `serviceThreads` further (`id % serviceThreads` names
    /// the thread, and no id is 0).
    var nextID: UInt64
    let idStride: UInt64
    var acceptingConnections = true
    /// A read buffer shared by this thread's connections (they keep only what is left over).
    var scratch = [UInt8](repeating: 0, count: 65536)
    /// Change of the queued bytes during one round (one atomic update per round).
    var queuedBytesDelta = 0
    /// Connections whose broadcasts wait for the frame interval, flushed by `flushCoalesced`.
    var coalescing: [Connection] = []
    /// Connections to write after the next round's events (see `writeLater`), and to read again
    /// (TLS input already decrypted).
    var writeSoon: [Connection] = []
    var readSoon: [Connection] = []
    /// Connections not read while the hub is behind.
    var pausedReaders: [Connection] = []
    /// When to watch the listening socket again after running out of descriptors (0: watched).
    var listenerResumeAt: UInt64 = 0
    /// Array frames built lately, with the messages they join (see `joined`).
    var recentBatches: [(parts: [OutgoingBuffer], frame: OutgoingBuffer)] = []
    /// Whether `joined` was called since the last sweep: unused batches are let go then, so that
    /// a plan's messages (and up to 8 frames of 64 KiB) are not held after its audience is gone.
    var recentBatchesUsed = false
    /// `--frame-interval-ms` in nanoseconds.
    let frameIntervalNanoseconds: UInt64
    private var nextSweep: UInt64 = 0

    /// The one ping frame every connection is sent (immutable, shared like any broadcast).
    static let pingFrame = OutgoingBuffer(Array("ping".utf8), opcode: .ping)

    static let wakeToken = UInt64.max
    static let listenerToken = UInt64.max - 1

    init(transport: WebSocketTransport, shard: WebSocketTransport.Shard, tls: TLSServerContext?) throws(TransportError)
    {
        self.transport = transport
        self.shard = shard
        self.tls = tls
        idStride = UInt64(transport.shards.count)
        nextID = UInt64(shard.index)
        let interval = transport.configuration.frameInterval
        frameIntervalNanoseconds = interval.inNanoseconds
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw TransportError(message: "cannot create an epoll set") }
        let listener = transport.listener.load(ordering: .acquiring)
        guard cn_epoll_control(epoll, EPOLL_CTL_ADD, shard.wakeFD, EPOLLIN.rawValue, ServiceLoop.wakeToken) == 0,
            cn_epoll_control(
                epoll, EPOLL_CTL_ADD, listener, EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, ServiceLoop.listenerToken)
                == 0
        else {
            Glibc.close(epoll)
            throw TransportError(message: "cannot watch the listening socket")
        }
    }

    /// Runs until the transport stops, then closes every connection it still holds.
    func run() {
        connections.bind()
        var tokens = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        while !transport.stopping.load(ordering: .acquiring) {
            // Broadcasts due in the last round are written after this round's events: whatever
            // arrived for them meanwhile goes in the same frame (more messages, fewer frames).
            let deferred = writeSoon
            writeSoon = []
            let reads = readSoon
            readSoon = []
            let timeout = deferred.isEmpty && reads.isEmpty ? (listenerResumeAt == 0 ? 1000 : 50) : 0
            let count = cn_epoll_wait(epoll, &tokens, &events, 256, Int32(timeout))
            for index in 0..<max(0, Int(count)) {
                switch tokens[index] {
                case ServiceLoop.wakeToken:
                    cn_eventfd_drain(shard.wakeFD)
                    drainOutbox()
                    flushCoalesced()
                    resumeReadingIfCaughtUp()
                case ServiceLoop.listenerToken:
                    acceptConnections()
                case let token:
                    guard let connection = connections.value[token] else { continue }
                    service(connection, events: events[index])
                }
            }
            for connection in deferred {
                connection.awaitingWrite = false
                if !connection.dropped { connection.flush() }
            }
            for connection in reads where !connection.dropped { connection.readable() }
            let now = ServiceLoop.now()
            if listenerResumeAt != 0, now >= listenerResumeAt { watchListener() }
            if now >= nextSweep {
                nextSweep = now + 1_000_000_000
                sweepDeadlines(now: now)
                if !recentBatchesUsed { recentBatches = [] }
                recentBatchesUsed = false
            }
            if queuedBytesDelta != 0 {
                transport.queuedBytesTotal.wrappingAdd(queuedBytesDelta, ordering: .relaxed)
                queuedBytesDelta = 0
            }
        }
        for connection in Array(connections.value.values) { drop(connection) }
        // Connections handed over after the last drain were never adopted: close them.
        let left = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        for case .adopt(let fd) in left { Glibc.close(fd) }
        Glibc.close(epoll)
    }

    private func service(_ connection: Connection, events: UInt32) {
        let failed = EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue
        if events & EPOLLOUT.rawValue != 0 {
            if connection.phase == .tlsHandshake || connection.readNeedsWritable {
                connection.readNeedsWritable = false
                connection.readable()
            }
            if !connection.dropped { connection.flush() }
        }
        // An error or hang-up is read (and ends the connection) even while reading is paused:
        // epoll reports it whatever the interest, and ignoring it would spin this thread.
        if !connection.dropped, events & (EPOLLIN.rawValue | failed) != 0 {
            connection.readable(despitePause: events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0)
        }
    }

    /// Accepts waiting connections (at most 64 at a time, so the other threads get theirs).
    private func acceptConnections() {
        let listener = transport.listener.load(ordering: .acquiring)
        for _ in 0..<64 {
            let fd = cn_accept(listener)
            guard fd >= 0 else {
                switch cn_errno() {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: the backlog waits while connections close (a listener
                    // left readable would spin this thread).
                    _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, listener, 0, 0)
                    listenerResumeAt = ServiceLoop.now() + 50_000_000
                case EAGAIN, EWOULDBLOCK: break
                default: continue  // an error of that one connection (Linux reports them here)
                }
                return
            }
            guard acceptingConnections, transport.accepting.load(ordering: .acquiring) else {
                Glibc.close(fd)
                continue
            }
            // Connections go to the threads in turn, whichever thread the kernel woke.
            let target = transport.nextShard.wrappingAdd(1, ordering: .relaxed).oldValue % transport.shards.count
            if target != shard.index {
                transport.shards[target].enqueue(.adopt(fd))
                continue
            }
            adopt(fd)
        }
    }

    /// Watches the listening socket again.
    private func watchListener() {
        listenerResumeAt = 0
        let listener = transport.listener.load(ordering: .acquiring)
        _ = cn_epoll_control(
            epoll, EPOLL_CTL_ADD, listener, EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, ServiceLoop.listenerToken)
    }

    /// Starts serving a connection this thread accepted or was handed.
    func adopt(_ fd: Int32) {
        guard acceptingConnections else {
            Glibc.close(fd)
            return
        }
        var session: OpaquePointer?
        if let tls {
            guard let made = tls.session(fd: fd) else {
                Glibc.close(fd)
                return
            }
            session = made
        }
        nextID &+= idStride
        var name = [CChar](repeating: 0, count: 64)
        cn_peer_numeric_address(fd, &name, name.count)
        let connection = Connection(
            id: ConnectionID(nextID), fd: fd, tls: session, loop: self,
            address: name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) },
            maxMessageBytes: transport.configuration.maxMessageBytes)
        guard cn_epoll_control(epoll, EPOLL_CTL_ADD, fd, EPOLLIN.rawValue | EPOLLRDHUP.rawValue, nextID) == 0 else {
            if let session { SSL_free(session) }
            Glibc.close(fd)
            return
        }
        connections.value[nextID] = connection
        setDeadline(connection, seconds: UInt64(transport.configuration.handshakeTimeout.components.seconds))
    }

    // MARK: What connections ask of the loop

    /// The connection was upgraded: the hub hears of it.
    func opened(_ connection: Connection) {
        transport.openConnectionCount.wrappingAdd(1, ordering: .releasing)
        transport.onEvent(.opened(connection.id, address: connection.address))
    }

    /// Watches (or stops watching) the socket for writability.
    func setWriteInterest(_ connection: Connection, _ wanted: Bool) {
        guard !connection.dropped else { return }
        guard connection.writeInterest != wanted || connection.readStopped else { return }
        connection.writeInterest = wanted
        updateInterest(connection)
    }

    /// What epoll watches for the connection: reading unless paused, writing while wanted.
    private func updateInterest(_ connection: Connection) {
        let events =
            (connection.readPaused || connection.readStopped ? 0 : EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
            | (connection.writeInterest ? EPOLLOUT.rawValue : 0)
        _ = cn_epoll_control(epoll, EPOLL_CTL_MOD, connection.fd, events, connection.id.rawValue)
    }

    /// Stops reading the connection while the hub is behind (`WebSocketTransport.intakeIsFull`):
    /// its bytes wait in the kernel, and TCP slows the peer down.
    func pauseReading(_ connection: Connection) {
        guard !connection.readPaused, !connection.dropped else { return }
        connection.readPaused = true
        pausedReaders.append(connection)
        transport.readPauses.wrappingAdd(1, ordering: .relaxed)
        updateInterest(connection)
    }

    /// Reads the paused connections again once the hub has caught up.
    func resumeReadingIfCaughtUp() {
        guard !pausedReaders.isEmpty, transport.intakeHasRoom else { return }
        let paused = pausedReaders
        pausedReaders = []
        let now = ServiceLoop.now()
        for connection in paused where !connection.dropped {
            connection.readPaused = false
            connection.lastHeard = now  // not heard because not listened to
            updateInterest(connection)
        }
    }

    /// Reads the connection again in the next round.
    func readLater(_ connection: Connection) {
        readSoon.append(connection)
    }

    /// Writes the connection after the next round's events, once.
    func writeLater(_ connection: Connection) {
        guard !connection.awaitingWrite else { return }
        connection.awaitingWrite = true
        writeSoon.append(connection)
    }

    /// Gives the connection `seconds` to finish its handshake or close.
    func setDeadline(_ connection: Connection, seconds: UInt64) {
        connection.deadline = ServiceLoop.now() + seconds * 1_000_000_000
        timed[connection.id.rawValue] = connection
    }

    /// The hub hears that the connection is closed (once): when our close frame is written, or
    /// when the descriptor is closed, whichever comes first. What is left of the close handshake
    /// is the transport's own business.
    func reportClosed(_ connection: Connection) {
        guard connection.opened else { return }
        connection.opened = false
        transport.openConnectionCount.wrappingAdd(-1, ordering: .releasing)
        let closing = connection.closedWith ?? connection.pendingClose
        transport.onEvent(.closed(connection.id, code: closing?.0, reason: closing?.1))
    }

    /// Closes the descriptor and forgets the connection; the hub hears of it if it knew it.
    func drop(_ connection: Connection) {
        guard !connection.dropped else { return }
        connection.dropped = true
        connections.value[connection.id.rawValue] = nil
        timed[connection.id.rawValue] = nil
        connection.releaseQueue()
        connection.control = []
        connection.sending = nil
        _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, connection.fd, 0, 0)
        if let session = connection.channel.tls { SSL_free(session) }
        Glibc.close(connection.fd)
        reportClosed(connection)
    }

    /// Ends connections whose handshake or close took too long.
    private func sweepDeadlines(now: UInt64) {
        for connection in Array(timed.values) where connection.deadline != 0 && now >= connection.deadline {
            drop(connection)
        }
        timed = timed.filter { $0.value.deadline != 0 && !$0.value.dropped }
        checkLiveness(now: now)
        resumeReadingIfCaughtUp()
    }

    /// Pings connections silent for a ping interval; closes those silent for two (a dead peer or
    /// a cut link would otherwise hold its memory, and queue broadcasts, until TCP gives up).
    private func checkLiveness(now: UInt64) {
        let interval = UInt64(transport.configuration.pingInterval.components.seconds) * 1_000_000_000
        guard interval > 0 else { return }
        var silent: [Connection] = []
        for connection in connections.value.values where connection.phase == .webSocket && !connection.readPaused {
            // Spread over half an interval by id: viewers that joined together (after a restart)
            // are not all pinged, and do not all answer, in the same round.
            let offset = (connection.id.rawValue % 1024) * (interval / 2048)
            let quiet = (now &- connection.lastHeard) &- min(offset, now &- connection.lastHeard)
            if quiet >= 2 * interval {
                silent.append(connection)
            } else if quiet >= interval, !connection.pingOutstanding {
                connection.pingOutstanding = true
                connection.control.append(ServiceLoop.pingFrame)
                writeLater(connection)
            }
        }
        let seconds = transport.configuration.pingInterval.components.seconds * 2
        for connection in silent {
            connection.fail(.goingAway, "no answer to pings for \(seconds) s")
            drop(connection)
        }
    }

    /// The array frame of `parts`, reused when the same messages were joined lately:
    /// connections of one plan mostly hold the same broadcasts when their turn comes, so one
    /// join serves thousands of writes.
    func joined(_ parts: [OutgoingBuffer]) -> OutgoingBuffer {
        recentBatchesUsed = true
        if let hit = recentBatches.first(where: { entry in
            entry.parts.count == parts.count && zip(entry.parts, parts).allSatisfy { $0 === $1 }
        }) {
            return hit.frame
        }
        let frame = OutgoingBuffer(batching: parts)
        recentBatches.append((parts, frame))
        if recentBatches.count > 8 { recentBatches.removeFirst() }
        return frame
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 { ProcessIO.monotonicNanoseconds() }
}
