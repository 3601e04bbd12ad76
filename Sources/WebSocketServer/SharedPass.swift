import SystemSupport
import WebSocketWire

/// Helper threads that take a share of a service loop's big broadcast passes. A change to a plan
/// with ten thousand viewers is written to ten thousand sockets; on loopback one write costs
/// about 10 µs, so one thread reached the last viewer some 100 ms after the first. With helpers,
/// the loop and its helpers take the pass's connections in chunks, each the next chunk left, until
/// none is; whichever thread has a core does more. Between passes the helpers sleep.
///
/// While a pass is shared, each of its connections is touched only by the thread that took its
/// chunk: the loop pauses the helpers (and waits for their chunks) before it touches any other,
/// as when it drains its outbox mid-pass. A helper only writes; what only the loop may do (carry
/// out a connection's decisions, write it again next round) it hands back, and the loop does it
/// when the pass is over.
final class SharedPass: @unchecked Sendable {
    /// Passes of at least this many connections are shared (a smaller one is over sooner than a
    /// helper wakes)…
    static let sharedFrom = 1024
    /// …when the loop wrote no pass of `busyFrom` connections or more for this long (100 ms): a
    /// change to a quiet plan's whole audience. Under a steady stream of passes (10 changes a
    /// second to 10,000 viewers, a burst of edits) the loop is busy anyway and the writes are
    /// paced by the frame interval; shared, they only took the other core from whatever else
    /// runs there (on 2 cores beside the load generator: fan-out p99 172–177 ms against 161–166).
    static let quietFor: UInt64 = 100_000_000
    static let busyFrom = 256

    /// Whether a pass of `count` connections at `now` is shared, when the last pass of
    /// `busyFrom` or more ended at `lastBusyPass`.
    static func shares(_ count: Int, now: UInt64, lastBusyPass: UInt64) -> Bool {
        count >= sharedFrom && now >= lastBusyPass &+ quietFor
    }

    /// Connections a thread takes at a time: the longest the loop waits for a helper's chunk.
    static let chunk = 64

    private struct State {
        var slots: [ConnectionSlot] = []
        /// The first connection no thread took yet.
        var next = 0
        /// Helpers writing a chunk now.
        var busy = 0
        var paused = false
        var stopping = false

        var helpersMayTake: Bool { !paused && next < slots.count }

        mutating func take() -> Range<Int> {
            let range = next..<min(next + SharedPass.chunk, slots.count)
            next = range.upperBound
            return range
        }
    }

    private let state = WaitableLock(State())
    /// One writer per helper thread; read by the loop only between passes.
    let helpers: [PassHelper]
    private let threads: [JoinableThread]

    /// Starts `count` helper threads writing for the loop whose epoll set is `epoll`.
    /// - Throws: `TransportError` when a thread cannot be started (those started are stopped).
    init(helpers count: Int, epoll: Int32, batching: MessageBatching) throws(TransportError) {
        helpers = (0..<count).map { _ in PassHelper(epoll: epoll, batching: batching) }
        threads = helpers.map { _ in JoinableThread() }
        for (helper, thread) in zip(helpers, threads) {
            do {
                try thread.start { [self] in serve(helper) }
            } catch {
                stop()
                throw TransportError(message: "cannot start a write helper thread: \(error)")
            }
        }
    }

    /// Ends the helper threads (between passes) and waits for them.
    func stop() {
        state.change { $0.stopping = true }
        for thread in threads { thread.join() }
    }

    /// Offers `slots` to the helpers; the loop then takes chunks with `take()` until none is left.
    func begin(_ slots: [ConnectionSlot]) {
        state.change { pass in
            pass.slots = slots
            pass.next = 0
        }
    }

    /// The next chunk for the loop, or nil when every chunk was taken.
    func take() -> Range<Int>? {
        state.withLock { pass in pass.next < pass.slots.count ? pass.take() : nil }
    }

    /// Stops the helpers taking chunks and waits for those they hold: the loop may then touch
    /// any connection until `resume()`.
    func pause() {
        state.withLock { $0.paused = true }
        state.wait(until: { $0.busy == 0 }, then: { _ in })
    }

    /// Lets the helpers take chunks again.
    func resume() {
        state.change { $0.paused = false }
    }

    /// Waits until every chunk was taken and the helpers wrote theirs (the loop calls it once
    /// `take()` found none left): the pass is over, and what the helpers hand back may be read.
    func finish() {
        state.wait(until: { $0.next >= $0.slots.count && $0.busy == 0 }, then: { $0.slots = [] })
    }

    private func serve(_ helper: PassHelper) {
        while true {
            let chunk = state.wait(until: { $0.stopping || $0.helpersMayTake }) {
                pass -> (slots: [ConnectionSlot], range: Range<Int>)? in
                guard !pass.stopping else { return nil }
                pass.busy += 1
                return (pass.slots, pass.take())
            }
            guard let chunk else { return }
            for slot in chunk.slots[chunk.range] { helper.writeInPass(slot) }
            helper.written += chunk.range.count
            state.change { $0.busy -= 1 }
        }
    }
}

/// The writer of one helper thread: it writes connections and keeps what the loop must do.
/// Touched by its thread during a pass and by the loop only after `finish()`, which orders them.
final class PassHelper: ConnectionWriter, @unchecked Sendable {
    let epoll: Int32
    var queuedBytesDelta = 0
    private var batches = BatchCache()
    private let batching: MessageBatching
    /// Connections to write again after the next round (their turn was used up).
    var later: [ConnectionSlot] = []
    /// Decisions of connections for the loop to carry out (a write found the peer gone).
    var decided: [(slot: ConnectionSlot, actions: [ServerConnectionAction])] = []
    /// Connections of the pass this helper took.
    var written = 0

    init(epoll: Int32, batching: MessageBatching) {
        self.epoll = epoll
        self.batching = batching
    }

    func joined(_ parts: [OutgoingBuffer]) -> OutgoingBuffer {
        batches.joined(parts, batching: batching)
    }

    func writeLater(_ slot: ConnectionSlot) {
        later.append(slot)
    }

    func perform(_ slot: ConnectionSlot, _ actions: [ServerConnectionAction]) {
        if !actions.isEmpty { decided.append((slot, actions)) }
    }

    /// Empties what the pass left: the frames joined (not held until the next pass), and the
    /// lists handed back.
    func reset() {
        batches.clear()
        later = []
        decided = []
        queuedBytesDelta = 0
        written = 0
    }
}
