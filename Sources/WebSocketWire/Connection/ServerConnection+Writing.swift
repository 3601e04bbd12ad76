/// A frame, or one fragment of a large message, being written: a header of its own (for a
/// fragment; empty when the buffer's frame carries its header) and a span of the buffer.
public struct FrameWrite {
    /// The buffer the bytes belong to (kept alive while they are written).
    public let buffer: OutgoingBuffer
    /// A header written before `body` (empty when `body` is a whole frame with its header).
    public let header: [UInt8]
    /// The bytes after the header.
    public let body: UnsafeRawBufferPointer
    /// Bytes of header and body written so far.
    public internal(set) var sent = 0

    /// Header and body together.
    public var total: Int { header.count + body.count }
}

extension ServerConnection {
    /// Messages up to this size go out whole, and small ones waiting together as one frame; a
    /// larger one goes in fragments of this size, straight from the shared buffer, so that control
    /// frames (pongs, a close) can pass between them.
    public static let fragmentSize = 65536

    /// Pongs that may wait unsent; a newer ping replaces the oldest beyond them.
    static let maxWaitingPongs = 4

    /// Queues a message at `now`: a broadcast (`urgent` false) may wait for the frame interval, a
    /// direct answer is written at once. Returns when to write, or nil when nothing is to be done
    /// (the connection takes no messages, or the message joins a wait already announced).
    ///
    /// The first waiting message (a large snapshot, say) is always accepted; when what piles up
    /// behind it would pass `maxQueueBytes`, the queue is let go and the connection closes with
    /// 1013 (too slow to keep up).
    ///
    /// This runs once per receiver of every broadcast: it stays lean (no copies, no allocation but
    /// the queue's growth).
    public mutating func send(_ buffer: OutgoingBuffer, urgent: Bool, now: UInt64) -> SendOutcome {
        guard phase == .webSocket, pendingClose == nil else { return SendOutcome(action: nil, charged: 0) }
        let count = buffer.count
        if queuedBytes + count > settings.configuration.maxQueueBytes, fragmenting != nil || !queue.isEmpty {
            let first = fragmenting?.buffer.count ?? queue[0].buffer.count
            if queuedBytes - first + count > settings.configuration.maxQueueBytes {
                releaseQueue()
                closeCause = .queueFull
                closeSoon(.tryAgainLater, "too slow to keep up", now: now)
                return SendOutcome(action: .flushSoon, charged: 0)
            }
        }
        if queue.isEmpty, sending == nil, fragmenting == nil, control.isEmpty, pongs.isEmpty { lastProgress = now }
        let charged = ledger.hold(buffer)
        if charged > 0 {
            account?.add(charged)
            chargedBytes += charged
        }
        queue.append(Queued(buffer: buffer, charged: charged))
        queuedBytes += count
        let action: ServerConnectionAction =
            urgent
            ? .flush
            : settings.configuration.frameInterval == 0 || now >= lastWrite &+ settings.configuration.frameInterval
                ? .flushSoon
                : .coalesce
        return SendOutcome(action: action, charged: charged)
    }

    /// When broadcasts waiting for the frame interval are due.
    @inlinable public var flushDue: UInt64 { lastWrite &+ settings.configuration.frameInterval }

    /// Closes after what is queued was written (the application's close): with the close frame,
    /// and a peer that does not answer it within the close timeout is cut off.
    public mutating func close(_ code: CloseCode, _ reason: String, now: UInt64) -> [ServerConnectionAction] {
        switch phase {
        case .webSocket:
            closeSoon(code, reason, now: now)
            return [.flushSoon]
        case .closing, .dropped:
            return []
        default:
            // Not a WebSocket (shutdown): nothing to say goodbye with.
            return dropNow()
        }
    }

    /// The connection's user (or another key for shared limits): what its queue is charged is
    /// counted in `account` too.
    public mutating func assign(_ account: QueueAccount) {
        guard self.account !== account else { return }
        self.account?.add(-chargedBytes)
        self.account?.members.wrappingAdd(-1, ordering: .relaxed)
        account.add(chargedBytes)
        account.members.wrappingAdd(1, ordering: .relaxed)
        self.account = account
    }

    /// The next bytes to write, or nil when nothing waits. `join` makes one frame of several
    /// small messages (a cache may give the same frame to many connections).
    public mutating func nextWrite(now: UInt64, join: ([OutgoingBuffer]) -> OutgoingBuffer) -> FrameWrite? {
        if sending == nil { sending = takeNext(now: now, join: join) }
        return sending
    }

    /// Whether more follows the write under way at once (the kernel may hold a partial packet).
    @inlinable public var moreFollows: Bool {
        !pongs.isEmpty || !control.isEmpty || !queue.isEmpty || hasFragmentsLeft
    }

    /// `count` bytes of the write `nextWrite` returned went out at `now`.
    public mutating func wrote(_ count: Int, now: UInt64) {
        guard var write = sending, count > 0 else { return }
        writeBlocked = false
        lastProgress = now
        write.sent += count
        if write.sent < write.total {
            sending = write
            return
        }
        sending = nil
        lastWrite = now
        if let entry = fragmenting, fragmentOffset == entry.buffer.count {
            // The last fragment of a large message went out.
            fragmenting = nil
            dequeue(entry)
        }
    }

    /// The socket took nothing: the rest waits until it is writable.
    public mutating func blocked() {
        writeBlocked = true
    }

    /// Everything waiting was written (`nextWrite` returned nil) at `now`: a plain HTTP answer
    /// ends the connection or reads the next request; our written close frame waits for the
    /// peer's (our side ended) or ends the connection.
    public mutating func drained(now: UInt64) -> [ServerConnectionAction] {
        writeBlocked = false
        switch phase {
        case .answering(keepAlive: true):
            phase = .requestHead
            deadline = now + settings.configuration.headTimeout
            // A request that came behind the one answered (pipelined) is read now, even from a
            // peer that ended its side after sending it.
            let waiting = input
            input = []
            var actions = waiting.isEmpty ? [] : waiting.withUnsafeBytes { received($0, now: now) }
            if peerClosed, phase == .requestHead { actions += dropNow() }
            return actions
        case .answering:
            if peerClosed { return dropNow() }
            phase = .lingering
            deadline = now + settings.configuration.lingerTimeout
            return [.endOurSide]
        case .closing where closeQueued && control.isEmpty && sending == nil:
            var actions = reportClosed()
            if peerClosed {
                actions += dropNow()
            } else {
                actions.append(.endOurSide)
            }
            return actions
        default:
            return []
        }
    }

    /// The next write: control frames first, then the next fragment of a large message, then
    /// queued data (small messages batched), then a pending close.
    private mutating func takeNext(now: UInt64, join: ([OutgoingBuffer]) -> OutgoingBuffer) -> FrameWrite? {
        if !pongs.isEmpty { return whole(pongs.removeFirst()) }
        if !control.isEmpty { return whole(control.removeFirst()) }
        if closeQueued { return nil }  // nothing follows a close frame
        if hasFragmentsLeft, let entry = fragmenting { return fragment(of: entry, at: fragmentOffset) }
        if !queue.isEmpty {
            let taken = takenTogether()
            if taken <= 1, queue[0].buffer.count > ServerConnection.fragmentSize {
                return fragment(of: queue.removeFirst(), at: 0)
            }
            if taken <= 1 {
                let entry = queue.removeFirst()
                dequeue(entry)
                return whole(entry.buffer)
            }
            var parts: [OutgoingBuffer] = []
            parts.reserveCapacity(taken)
            for entry in queue[..<taken] {
                parts.append(entry.buffer)
                dequeue(entry)
            }
            queue.removeFirst(taken)
            return whole(join(parts))
        }
        if let (code, reason) = pendingClose {
            queueClose(code, reason, now: now)
            return control.isEmpty ? nil : whole(control.removeFirst())
        }
        return nil
    }

    /// How many of the queued messages (their sizes, in order) go out together as one frame:
    /// small ones, up to one fragment's size in all. A joined frame is a copy of its own (unless
    /// the same batch went to another connection just before), so a connection that resumes with
    /// thousands of messages queued must not copy them all at once. 0 or 1: the first goes alone.
    public static func batchLength(_ sizes: some Sequence<Int>) -> Int {
        var total = 0
        var count = 0
        for size in sizes {
            total += size
            guard size <= fragmentSize, total <= fragmentSize else { break }
            count += 1
        }
        return count
    }

    /// `batchLength` of the queue, read without copying it.
    private func takenTogether() -> Int {
        var total = 0
        var count = 0
        for entry in queue {
            let size = entry.buffer.count
            total += size
            guard size <= ServerConnection.fragmentSize, total <= ServerConnection.fragmentSize else { break }
            count += 1
        }
        return count
    }

    private func whole(_ buffer: OutgoingBuffer) -> FrameWrite {
        FrameWrite(buffer: buffer, header: [], body: buffer.frame)
    }

    /// The fragment of a large message's payload that starts at `offset`; the message counts as
    /// queued until its last fragment is written (`fragmenting` then holds it at its end).
    private mutating func fragment(of entry: Queued, at offset: Int) -> FrameWrite {
        let buffer = entry.buffer
        let end = min(offset + ServerConnection.fragmentSize, buffer.count)
        let final = end == buffer.count
        fragmenting = entry
        fragmentOffset = end
        let header = FrameHeader.make(opcode: offset == 0 ? .text : .continuation, length: end - offset, final: final)
        return FrameWrite(
            buffer: buffer, header: header, body: UnsafeRawBufferPointer(rebasing: buffer.payload[offset..<end]))
    }

    /// A message leaves the queue's accounting (written, or let go).
    mutating func dequeue(_ entry: Queued) {
        queuedBytes -= entry.buffer.count
        if entry.charged > 0 {
            chargedBytes -= entry.charged
            account?.add(-entry.charged)
        }
        ledger.release(entry.buffer)
    }

    /// Lets the data queue go (its bytes no longer count).
    mutating func releaseQueue() {
        for entry in queue { dequeue(entry) }
        queue = []
        if let entry = fragmenting {
            fragmenting = nil
            dequeue(entry)
        }
    }

    /// Unsent bytes start to wait at `now`, unless some waited already (their progress counts).
    mutating func noteOutput(now: UInt64) {
        if !hasOutput { lastProgress = now }
    }

    /// Closes after what is queued, with the close frame.
    mutating func closeSoon(_ code: CloseCode, _ reason: String, now: UInt64) {
        guard pendingClose == nil else { return }
        noteOutput(now: now)
        pendingClose = (code, reason)
        deadline = now + settings.configuration.closeTimeout
    }

    /// Queues our close frame: after the frame being written, before any data.
    mutating func queueClose(_ code: CloseCode, _ reason: String, now: UInt64) {
        guard !closeQueued else { return }
        closeQueued = true
        phase = .closing
        if closedWith == nil { closedWith = (code, reason) }
        control.append(OutgoingBuffer(CloseFrame.payload(code: code.rawValue, reason: reason), opcode: .close))
        if deadline == 0 { deadline = now + settings.configuration.closeTimeout }
    }

    /// The peer broke the protocol (or sent too much): what is queued is let go, the close frame
    /// with `code` is sent, and the connection ends.
    mutating func fail(_ code: CloseCode, _ reason: String, now: UInt64) -> [ServerConnectionAction] {
        releaseQueue()
        noteOutput(now: now)
        if closedWith == nil { closedWith = (code, reason) }
        queueClose(code, reason, now: now)
        deadline = now + settings.configuration.closeTimeout
        return [.flush]
    }

    /// Reports the close to the application, once (if it knew the connection).
    mutating func reportClosed() -> [ServerConnectionAction] {
        guard opened else { return [] }
        opened = false
        let closing = closedWith ?? pendingClose
        return [.closed(code: closing?.0, reason: closing?.1)]
    }

    /// Ends the connection at once: the queue is let go and the descriptor is to be closed.
    public mutating func dropNow() -> [ServerConnectionAction] {
        guard phase != .dropped else { return [] }
        releaseQueue()
        control = []
        pongs = []
        sending = nil
        let actions = reportClosed()
        phase = .dropped
        return actions + [.drop]
    }
}

/// What queuing a message decided: when to write (nil: the connection takes no messages), and
/// the bytes charged to the connection (the message was held by no other queue).
public struct SendOutcome: Equatable, Sendable {
    /// `.flush`, `.flushSoon` or `.coalesce`; nil when nothing is to be done.
    public let action: ServerConnectionAction?
    /// The bytes charged to this connection (and its account).
    public let charged: Int
}
