import CNetwork
import COpenSSL
import Glibc
import SystemSupport
import WebSocketWire

/// One service thread's event loop: an epoll set over its connections, the shared listening
/// socket (each accepted connection stays with the thread it is handed to) and the shard's
/// eventfd, through which other threads hand it work. It carries out what each connection's
/// `ServerConnection` decides — reads, writes, deliveries to the hub, closes — and keeps the
/// lists that span connections (writes after this round, coalesced broadcasts, paused readers,
/// memory budgets). Every socket call of its connections happens here, but the writes its write
/// helpers take in a shared pass (`SharedPass`); nothing here blocks but waiting for a helper's
/// chunk of 64 writes.
final class ServiceLoop: ConnectionWriter {
    let transport: WebSocketTransport
    let shard: WebSocketTransport.Shard
    let epoll: Int32
    /// This thread's connections by id: the root through which every connection is reached,
    /// bound to the service thread when it starts running.
    var connections = ThreadBound<[UInt64: ConnectionSlot]>([:])
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
    var coalescing: [ConnectionSlot] = []
    /// Connections to write after the next round's events (see `writeLater`), and to read again
    /// (TLS input already decrypted).
    var writeSoon: [ConnectionSlot] = []
    var readSoon: [ConnectionSlot] = []
    /// Connections not read while the hub is behind.
    var pausedReaders: [ConnectionSlot] = []
    /// When to watch the listening socket again after running out of descriptors (0: watched).
    var listenerResumeAt: UInt64 = 0
    /// Array frames built lately (let go by the sweep when unused since the last).
    var batches = BatchCache()
    /// Accounts whose connections were queued more this round (checked against their share).
    var accountsCharged: [QueueAccount] = []
    var nextSweep: UInt64 = 0
    /// The helper threads that share this loop's big broadcast passes (none when configured so),
    /// and when the last pass of `SharedPass.busyFrom` connections or more ended.
    var sharedPass: SharedPass?
    var lastBusyPass: UInt64 = 0

    static let wakeToken = UInt64.max
    static let listenerToken = UInt64.max - 1
    static let listenerEvents = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue

    init(transport: WebSocketTransport, shard: WebSocketTransport.Shard) throws(TransportError) {
        self.transport = transport
        self.shard = shard
        idStride = UInt64(transport.shards.count)
        nextID = UInt64(shard.index)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw TransportError(message: "cannot create an epoll set") }
        let listener = transport.listener.load(ordering: .acquiring)
        guard cn_epoll_control(epoll, EPOLL_CTL_ADD, shard.wakeFD, EPOLLIN.rawValue, ServiceLoop.wakeToken) == 0,
            cn_epoll_control(epoll, EPOLL_CTL_ADD, listener, ServiceLoop.listenerEvents, ServiceLoop.listenerToken) == 0
        else {
            Glibc.close(epoll)
            throw TransportError(message: "cannot watch the listening socket")
        }
        if transport.configuration.writeHelpers > 0 {
            do {
                sharedPass = try SharedPass(
                    helpers: transport.configuration.writeHelpers, epoll: epoll,
                    batching: transport.configuration.connection.batching)
            } catch {
                Glibc.close(epoll)
                throw error
            }
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
                    releaseIntake()
                case ServiceLoop.listenerToken:
                    acceptConnections()
                case let token:
                    guard let slot = connections.value[token] else { continue }
                    service(slot, events: events[index])
                }
            }
            writePass(deferred)
            for slot in reads where !slot.closed { read(slot) }
            let now = ServiceLoop.now()
            if listenerResumeAt != 0, now >= listenerResumeAt { watchListener() }
            if now >= nextSweep {
                nextSweep = now + 1_000_000_000
                sweep(now: now)
            }
            if queuedBytesDelta != 0 {
                transport.queuedBytesTotal.wrappingAdd(queuedBytesDelta, ordering: .relaxed)
                queuedBytesDelta = 0
            }
        }
        sharedPass?.stop()
        for slot in Array(connections.value.values) { perform(slot, slot.machine.dropNow()) }
        closeUnadopted()
        Glibc.close(epoll)
    }

    private func service(_ slot: ConnectionSlot, events: UInt32) {
        let failed = EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue
        if events & EPOLLOUT.rawValue != 0 {
            if slot.readNeedsWritable {
                slot.readNeedsWritable = false
                read(slot)
            }
            if !slot.closed { flush(slot) }
        }
        // An error or hang-up is read (and ends the connection) even while reading is paused:
        // epoll reports it whatever the interest, and ignoring it would spin this thread.
        if !slot.closed, events & (EPOLLIN.rawValue | failed) != 0 {
            read(slot, despitePause: events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0)
        }
    }

    // MARK: Reading and writing

    /// Reads what the socket holds, at most 256 KiB per call so that one busy peer does not hold
    /// the thread, and hands it to the connection; at most the connection's intake credit of
    /// messages go to the hub (the rest waits in the connection, then in the kernel).
    func read(_ slot: ConnectionSlot, despitePause: Bool = false) {
        if slot.machine.holdsMessages, !slot.closed {
            let credit = despitePause ? .max : intakeCredit(slot)
            guard credit > 0 else { return holdIntake(slot) }
            perform(slot, slot.machine.resume(now: ServiceLoop.now(), deliveries: credit))
            if slot.machine.holdsMessages { return holdIntake(slot) }
        }
        for _ in 0..<4 where !slot.closed {
            if slot.machine.phase == .webSocket, !despitePause, transport.intakeIsFull {
                pauseReading(slot)
                return
            }
            let credit = despitePause ? .max : intakeCredit(slot)
            guard credit > 0 else { return holdIntake(slot) }
            let result = scratch.withUnsafeMutableBytes { slot.channel.read($0) }
            switch result {
            case .moved(let count):
                let actions = scratch.withUnsafeBytes {
                    slot.machine.received(
                        UnsafeRawBufferPointer(rebasing: $0[..<count]), now: ServiceLoop.now(), deliveries: credit)
                }
                perform(slot, actions)
                if slot.machine.holdsMessages { return holdIntake(slot) }
            case .wouldBlock(let needsWritable):
                slot.readNeedsWritable = needsWritable
                updateInterest(slot)
                return
            case .closed:
                perform(slot, slot.machine.readEnded(now: ServiceLoop.now()))
                return
            }
        }
        // Plaintext OpenSSL already took off the socket raises no epoll event: come back for it.
        if !slot.closed, slot.channel.hasBufferedInput { readSoon.append(slot) }
        if !slot.closed { updateInterest(slot) }
    }

    /// Carries out what a connection decided, in order.
    func perform(_ slot: ConnectionSlot, _ actions: [ServerConnectionAction]) {
        settleQueuedBytes(slot)
        countHandedOver(slot, actions)
        for action in actions {
            switch action {
            case .opened:
                transport.openConnectionCount.wrappingAdd(1, ordering: .releasing)
                transport.onEvent(.opened(slot.id, address: slot.address))
            case .text(let bytes):
                transport.deliver(.message(slot.id, bytes))
            case .binary:
                transport.deliver(.binaryMessage(slot.id))
            case .serveHTTP(let head):
                // nil: the application answers later (`WebSocketTransport.respond`).
                if let answer = transport.onHTTP(head, slot.id) {
                    perform(slot, slot.machine.respond(answer, now: ServiceLoop.now()))
                }
            case .flush:
                if !slot.closed { flush(slot) }
            case .flushSoon:
                writeLater(slot)
            case .coalesce:
                if !slot.awaitingFlush {
                    slot.awaitingFlush = true
                    coalescing.append(slot)
                }
            case .endOurSide:
                slot.channel.endOurSide()
            case .closed(let code, let reason):
                transport.openConnectionCount.wrappingAdd(-1, ordering: .releasing)
                transport.onEvent(.closed(slot.id, code: code, reason: reason))
            case .drop:
                if let cause = slot.machine.closeCause { transport.count(cause) }
                close(slot)
            case .flushAndDrop:
                if !slot.closed { flush(slot) }
                perform(slot, slot.machine.dropNow())
            }
        }
    }

    /// Closes the descriptor and forgets the connection (its machine already let its queue go).
    private func close(_ slot: ConnectionSlot) {
        guard !slot.closed else { return }
        slot.closed = true
        connections.value[slot.id.rawValue] = nil
        _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, slot.fd, 0, 0)
        if let session = slot.channel.tls { SSL_free(session) }
        Glibc.close(slot.fd)
        shard.intake.withLock { $0.forget(slot.id.rawValue) }
        if slot.counted { transport.addresses.release(slot.address) }
        if let account = slot.machine.account { transport.leave(account) }
    }

    // MARK: What connections need of the loop

    /// Stops reading the connection while the hub is behind (`WebSocketTransport.intakeIsFull`):
    /// its bytes wait in the kernel, and TCP slows the peer down.
    func pauseReading(_ slot: ConnectionSlot) {
        guard !slot.readPaused, !slot.closed else { return }
        slot.readPaused = true
        pausedReaders.append(slot)
        transport.readPauses.wrappingAdd(1, ordering: .relaxed)
        updateInterest(slot)
    }

    /// Reads the paused connections again once the hub has caught up.
    func resumeReadingIfCaughtUp() {
        guard !pausedReaders.isEmpty, transport.intakeHasRoom else { return }
        let paused = pausedReaders
        pausedReaders = []
        let now = ServiceLoop.now()
        for slot in paused where !slot.closed {
            slot.readPaused = false
            slot.machine.readingResumed(now: now)
            updateInterest(slot)
        }
    }

    /// Writes the connection after the next round's events, once.
    func writeLater(_ slot: ConnectionSlot) {
        guard !slot.awaitingWrite, !slot.closed else { return }
        slot.awaitingWrite = true
        writeSoon.append(slot)
    }

    /// The array frame of `parts`, reused when the same messages were joined lately.
    func joined(_ parts: [OutgoingBuffer]) -> OutgoingBuffer {
        batches.joined(parts, batching: transport.configuration.connection.batching)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 { ProcessIO.monotonicNanoseconds() }
}
