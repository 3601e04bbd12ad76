import CNetwork
import WebSocketWire

/// What writing a connection needs beyond the connection itself: the batch frames built lately,
/// the tally of queued bytes, the epoll set, and where connections go that must be written again
/// or acted on. The service loop is one writer; a pass helper writing its share of a big
/// broadcast pass (`SharedPass`) is another, which hands back to the loop what only the loop may do.
protocol ConnectionWriter: AnyObject {
    /// The epoll set the connections are registered in.
    var epoll: Int32 { get }
    /// Change of the queued bytes since the writer's owner last counted them.
    var queuedBytesDelta: Int { get set }
    /// The array frame of `parts` (see `BatchCache`).
    func joined(_ parts: [OutgoingBuffer]) -> OutgoingBuffer
    /// Writes the connection again after the next round's events.
    func writeLater(_ slot: ConnectionSlot)
    /// Carries out what the connection decided.
    func perform(_ slot: ConnectionSlot, _ actions: [ServerConnectionAction])
}

extension ConnectionWriter {
    /// At most this much is written to one connection per call of `flush`; the rest follows in a
    /// later round, so that a large snapshot to a thousand viewers does not keep the thread from
    /// the others (and from accepting and reading) until each socket is full. (1 MiB: the storm of
    /// `ops/bench` took 9 s with 64 KiB per turn, 5.9–7.0 s with 1 MiB, 6.9–7.6 s without a bound.)
    static var bytesPerTurn: Int { 16 * ServerConnection.fragmentSize }

    /// Writes what the connection has waiting until the socket would block, nothing is left or
    /// the turn is used up (then it is written again in the next round).
    func flush(_ slot: ConnectionSlot) {
        var written = 0
        defer { settleQueuedBytes(slot) }
        while !slot.closed {
            guard written < Self.bytesPerTurn else {
                writeLater(slot)
                return
            }
            let now = ServiceLoop.now()
            guard let write = slot.machine.nextWrite(now: now, join: joined) else {
                updateInterest(slot)
                perform(slot, slot.machine.drained(now: now))
                return
            }
            let more = slot.machine.moreFollows
            let result: ChannelResult
            if write.sent < write.header.count {
                result = slot.channel.write(header: write.header, from: write.sent, body: write.body, more: more)
            } else {
                result = slot.channel.write(
                    UnsafeRawBufferPointer(rebasing: write.body[(write.sent - write.header.count)...]), more: more)
            }
            switch result {
            case .moved(let count):
                written += count
                slot.machine.wrote(count, now: now)
            case .wouldBlock:
                slot.machine.blocked()
                updateInterest(slot)
                return
            case .closed:
                perform(slot, slot.machine.dropNow())
                return
            }
        }
    }

    /// Writes a connection whose turn came in a pass (it no longer waits for one).
    func writeInPass(_ slot: ConnectionSlot) {
        slot.awaitingWrite = false
        if !slot.closed { flush(slot) }
    }

    /// Counts the change of the connection's queued bytes since it was last counted.
    func settleQueuedBytes(_ slot: ConnectionSlot) {
        let queued = slot.machine.queuedBytes
        queuedBytesDelta += queued - slot.countedQueuedBytes
        slot.countedQueuedBytes = queued
    }

    /// Registers what the connection wants watched, when it changed.
    func updateInterest(_ slot: ConnectionSlot) {
        guard !slot.closed else { return }
        let wanted = slot.wantedEvents
        guard wanted != slot.registered else { return }
        slot.registered = wanted
        _ = cn_epoll_control(epoll, EPOLL_CTL_MOD, slot.fd, wanted, slot.id.rawValue)
    }
}

/// Array frames built lately, with the messages they join: connections of one plan mostly hold
/// the same broadcasts when their turn comes, so one join serves thousands of writes.
struct BatchCache {
    private var recent: [(parts: [OutgoingBuffer], frame: OutgoingBuffer)] = []
    /// Whether `joined` was called since the last `sweep`.
    private var used = false

    /// The array frame of `parts`, reused when the same messages were joined lately.
    mutating func joined(_ parts: [OutgoingBuffer], batching: MessageBatching) -> OutgoingBuffer {
        used = true
        if let hit = recent.first(where: { entry in
            entry.parts.count == parts.count && zip(entry.parts, parts).allSatisfy { $0 === $1 }
        }) {
            return hit.frame
        }
        let frame = OutgoingBuffer(joining: parts, with: batching)
        recent.append((parts, frame))
        if recent.count > 8 { recent.removeFirst() }
        return frame
    }

    /// Lets the frames go unless `joined` was called since the last sweep, so that a plan's
    /// messages (and up to 8 frames of 64 KiB) are not held after its audience is gone.
    mutating func sweep() {
        if !used { recent = [] }
        used = false
    }

    /// Lets every frame go.
    mutating func clear() {
        recent = []
        used = false
    }
}
