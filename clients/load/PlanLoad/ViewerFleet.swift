import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization
import SystemSupport

/// Many subscribed viewers on one transport (plain sockets, or lws with `--viewer-transport lws`). Per received frame a viewer does only a
/// little byte scanning: the version of each `confirmed` (for gaps), the send time the editor put
/// into the proposal id (`…-sent=<monotonic ns>`, echoed as `mutation.id`, for fan-out latency),
/// and a running hash of every `confirmed` message's bytes: every viewer of a plan must
/// end with the same hash. A few sample viewers also decode every frame in full and apply it to
/// a `ClientPlanCopy`, compared with a fresh snapshot at the end.
///
/// With `reconnect`, a viewer whose connection drops reconnects after a short random delay and
/// resubscribes with `since` its last version, counting whether it got a snapshot or `resumed`.
final class ViewerFleet: Sendable {
    /// State only the transport's thread touches (all viewer callbacks run there), read by the
    /// run once the fleet is frozen.
    final class Tallies: @unchecked Sendable {
        var lastVersion: [Int]
        var streamHash: [UInt64]
        var hasSnapshot: [Bool]
        var firstVersion: [Int]
        /// Viewers whose stream restarted from a snapshot after a drop (their hash covers less).
        var restarted: Set<Int> = []
        var connectStarted: [UInt64]
        var disconnectedAt: [UInt64]
        var gaps = 0
        var frames = 0
        /// Messages that arrived in several WebSocket fragments (a large snapshot, for one).
        var fragmentedMessages = 0
        var latencies: [Double] = []
        var snapshotLatencies: [Double] = []
        var closed = 0
        var closeCodes: [Int: Int] = [:]
        var reconnects = 0
        /// Attempts in a row without a resume, by viewer (the reconnect delay grows with them).
        var attempts: [Int]
        var resumeSnapshots = 0
        var resumed = 0
        var resumeLatencies: [Double] = []
        var lastResumeAt: UInt64 = 0
        var firstDropAt: UInt64 = 0
        var copies: [Int: ClientPlanCopy] = [:]
        var sampleErrors: [String] = []
        /// Messages arriving in pieces, by viewer.
        var partial: [Int: PartialMessage] = [:]

        init(count: Int) {
            lastVersion = [Int](repeating: -1, count: count)
            streamHash = [UInt64](repeating: fnvOffsetBasis, count: count)
            hasSnapshot = [Bool](repeating: false, count: count)
            firstVersion = [Int](repeating: -1, count: count)
            connectStarted = [UInt64](repeating: 0, count: count)
            disconnectedAt = [UInt64](repeating: 0, count: count)
            attempts = [Int](repeating: 0, count: count)
            latencies.reserveCapacity(1 << 20)
            snapshotLatencies.reserveCapacity(count)
        }
    }

    let tallies: Tallies
    /// Viewers that hold a snapshot (first subscription only).
    let subscribedCount = Atomic<Int>(0)
    /// Viewers currently without a connection.
    let disconnectedCount = Atomic<Int>(0)
    /// Closes of viewers that held no snapshot yet (refused, or closed early); with reconnects one
    /// viewer can count more than once.
    let closedBeforeSnapshot = Atomic<Int>(0)
    /// `confirmed` messages received by all viewers (readable while the run goes on).
    let deliveredCount = Atomic<Int>(0)
    /// Set at the end: no more reconnects, no more tallying.
    let frozen = Atomic<Bool>(false)
    let sample: Int
    let plans: [String]
    let reconnect: Bool
    /// Where a refusal by policy (1008) is recorded: the run stops on it.
    let refusal: Refusal
    let transport: any ViewerTransport
    let endpoint: ClientTransport.Endpoint
    let hello: [UInt8]

    init(
        configuration: LoadConfiguration, transport: any ViewerTransport, endpoint: ClientTransport.Endpoint,
        refusal: Refusal
    ) {
        self.refusal = refusal
        sample = min(configuration.sampleViewers, configuration.viewers)
        plans = configuration.plans
        reconnect = configuration.reconnect
        self.transport = transport
        self.endpoint = endpoint
        hello = ClientMessage.hello(token: configuration.token, client: "plan-load/viewer").bytes
        tallies = Tallies(count: configuration.viewers)
    }

    /// The plan viewer `index` follows.
    func plan(of index: Int) -> String { plans[index % plans.count] }

    /// Connects viewers `range` (each subscribes once its connection is open).
    func connect(_ range: Range<Int>) {
        let now = ProcessIO.monotonicNanoseconds()
        for index in range {
            tallies.connectStarted[index] = now
            open(index)
        }
    }

    private func open(_ index: Int) {
        let id = transport.reserveConnectionID()
        transport.connect(id, to: endpoint) { [self] event in
            switch event {
            case .opened:
                // Reached the server: the next drop starts the delays over.
                tallies.attempts[index] = 0
                transport.send(hello, on: id)
                let since = tallies.hasSnapshot[index] ? tallies.lastVersion[index] : nil
                transport.send(ClientMessage.subscribe(plan: plan(of: index), since: since).bytes, on: id)
            case .message(let bytes):
                guard !frozen.load(ordering: .relaxed) else { return }
                receive(bytes, viewer: index)
            case .part(let bytes, let first, let last):
                guard !frozen.load(ordering: .relaxed) else { return }
                receivePart(bytes, first: first, last: last, viewer: index)
            case .closed(let code, let reason):
                guard !frozen.load(ordering: .relaxed) else { return }
                tallies.partial[index] = nil
                tallies.closeCodes[Int(code ?? 0), default: 0] += 1
                closed(index, refused: refusal.record("viewer \(index)", code: code, reason: reason))
            }
        }
    }

    private func closed(_ index: Int, refused: Bool) {
        tallies.closed += 1
        if !tallies.hasSnapshot[index] { closedBeforeSnapshot.wrappingAdd(1, ordering: .relaxed) }
        guard reconnect, !refused else { return }
        let now = ProcessIO.monotonicNanoseconds()
        if tallies.disconnectedAt[index] == 0 {
            tallies.disconnectedAt[index] = now
            disconnectedCount.wrappingAdd(1, ordering: .relaxed)
            if tallies.firstDropAt == 0 { tallies.firstDropAt = now }
        }
        tallies.reconnects += 1
        let delay = ViewerFleet.reconnectDelay(attempt: tallies.attempts[index], jitter: Int.random(in: 0..<500))
        tallies.attempts[index] += 1
        Task { [self] in
            try? await Task.sleep(for: .milliseconds(delay))
            guard !frozen.load(ordering: .relaxed) else { return }
            open(index)
        }
    }

    /// Milliseconds before reconnect attempt `attempt` (0 for the first after a drop): 50 ms plus
    /// `jitter` (0…499) at first, so a restarting server is not hit by every viewer at once, then
    /// doubling up to 2 s plus the jitter, so a link that stays down (where a connect fails at
    /// once) is not tried thousands of times a second by a large fleet, and a viewer is back
    /// within about 2.5 s of the path's return.
    static func reconnectDelay(attempt: Int, jitter: Int) -> Int {
        min(50 << min(attempt, 6), 2_000) + jitter
    }

    /// A resume (snapshot or `resumed`) arrived for a viewer that had been disconnected.
    private func resumeDone(_ viewer: Int, at now: UInt64, snapshot: Bool) {
        tallies.attempts[viewer] = 0
        guard tallies.disconnectedAt[viewer] != 0 else { return }
        tallies.resumeLatencies.append(Double(now - tallies.disconnectedAt[viewer]) / 1e6)
        tallies.disconnectedAt[viewer] = 0
        tallies.lastResumeAt = now
        if snapshot {
            tallies.resumeSnapshots += 1
            tallies.restarted.insert(viewer)
        } else {
            tallies.resumed += 1
        }
        disconnectedCount.wrappingSubtract(1, ordering: .relaxed)
    }

    private func receive(_ bytes: [UInt8], viewer: Int, countFrame: Bool = true) {
        let now = ProcessIO.monotonicNanoseconds()
        if countFrame { tallies.frames += 1 }
        if viewer < sample { decodeFully(bytes, viewer: viewer) }
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while let found = find(Needles.type, in: buffer, from: index) {
                index = found + Needles.type.count
                if starts(buffer, at: found, with: Needles.confirmed) {
                    guard let version = number(after: Needles.version, in: buffer, from: found) else { continue }
                    if tallies.lastVersion[viewer] >= 0, version != tallies.lastVersion[viewer] + 1 {
                        tallies.gaps += 1
                    }
                    tallies.lastVersion[viewer] = version
                    deliveredCount.wrappingAdd(1, ordering: .relaxed)
                    // The message runs to the next "type":" or the end of the frame, less the
                    // closing brackets and separators (which differ between batched and single).
                    var end = find(Needles.type, in: buffer, from: index) ?? buffer.count
                    while end > found, isTrailing(buffer[end - 1]) { end -= 1 }
                    tallies.streamHash[viewer] = streamHash(tallies.streamHash[viewer], buffer, found..<end)
                    if let sent = sentMarker(in: buffer, from: found, to: end), sent < now {
                        tallies.latencies.append(Double(now - sent) / 1e6)
                    }
                } else if starts(buffer, at: found, with: Needles.snapshot) {
                    snapshotArrived(
                        version: number(after: Needles.version, in: buffer, from: found) ?? -1, viewer: viewer)
                } else if starts(buffer, at: found, with: Needles.resumed) {
                    if let version = number(after: Needles.version, in: buffer, from: found),
                        version != tallies.lastVersion[viewer]
                    {
                        tallies.gaps += 1
                    }
                    resumeDone(viewer, at: now, snapshot: false)
                }
            }
        }
    }

    /// A whole snapshot is there (its version read from its start).
    private func snapshotArrived(version: Int, viewer: Int, hash: UInt64? = nil) {
        let now = ProcessIO.monotonicNanoseconds()
        if !tallies.hasSnapshot[viewer] {
            tallies.hasSnapshot[viewer] = true
            tallies.firstVersion[viewer] = version
            // The stream of a viewer that started from a streamed snapshot includes its bytes.
            if let hash { tallies.streamHash[viewer] = hash }
            tallies.snapshotLatencies.append(Double(now - tallies.connectStarted[viewer]) / 1e6)
            subscribedCount.wrappingAdd(1, ordering: .relaxed)
        } else {
            // A resubscription answered with a snapshot: the stream restarts there.
            resumeDone(viewer, at: now, snapshot: true)
        }
        tallies.lastVersion[viewer] = version
    }

    /// A piece of a fragmented message. A snapshot is hashed piece by piece and never held
    /// whole (its version is near its start), except by sample viewers, which also join it to
    /// decode it; anything else is joined and handled as a whole message.
    private func receivePart(_ bytes: UnsafeBufferPointer<UInt8>, first: Bool, last: Bool, viewer: Int) {
        if first {
            tallies.frames += 1
            tallies.fragmentedMessages += 1
            if starts(bytes, at: 0, with: Needles.snapshot) {
                let version = number(after: Needles.version, in: bytes, from: 0) ?? -1
                tallies.partial[viewer] = .snapshot(
                    version: version, hash: fnvOffsetBasis, joined: viewer < sample ? [] : nil)
            } else {
                tallies.partial[viewer] = .joining([])
            }
        }
        guard let partial = tallies.partial.removeValue(forKey: viewer) else { return }
        // Consumed, so that the joined bytes are uniquely referenced and grow in place.
        switch consume partial {
        case .snapshot(let version, let hash, var joined):
            let hash = streamHash(hash, bytes, 0..<bytes.count)
            joined?.append(contentsOf: bytes)
            if last {
                if let joined { decodeFully(joined, viewer: viewer) }
                snapshotArrived(version: version, viewer: viewer, hash: hash)
            } else {
                tallies.partial[viewer] = .snapshot(version: version, hash: hash, joined: joined)
            }
        case .joining(var joined):
            joined.append(contentsOf: bytes)
            if last {
                receive(joined, viewer: viewer, countFrame: false)
            } else {
                tallies.partial[viewer] = .joining(joined)
            }
        }
    }

    /// `sent=<digits>` inside the `mutation.id` of one confirmed message.
    private func sentMarker(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> UInt64? {
        guard let mutation = find(Needles.mutation, in: buffer, from: start), mutation < end else { return nil }
        var index = mutation + Needles.mutation.count
        // The id ends at the next quote; look for the marker inside it.
        while index < end, buffer[index] != 34 {
            if buffer[index] == 115, starts(buffer, at: index, with: Needles.sent) {
                var value: UInt64 = 0
                var cursor = index + Needles.sent.count
                while cursor < end, buffer[cursor] >= 48, buffer[cursor] <= 57 {
                    value = value &* 10 &+ UInt64(buffer[cursor] - 48)
                    cursor += 1
                }
                return value
            }
            index += 1
        }
        return nil
    }

    /// The sample's full path: decode, apply to a copy, report any inconsistency.
    private func decodeFully(_ bytes: [UInt8], viewer: Int) {
        let messages: [ServerMessage]
        do {
            messages = try ServerMessage.decodeFrame(bytes)
        } catch {
            tallies.sampleErrors.append("viewer \(viewer): undecodable frame: \(error)")
            return
        }
        for message in messages {
            switch message {
            case .snapshot(let snapshot, _):
                tallies.copies[viewer] = ClientPlanCopy(snapshot)
            case .confirmed, .resumed:
                // Taken out of the dictionary, the copy is uniquely referenced and changes in place
                // (a second reference would copy every task on each message).
                guard var copy = tallies.copies.removeValue(forKey: viewer) else {
                    tallies.sampleErrors.append("viewer \(viewer): \(message.typeName) before a snapshot")
                    continue
                }
                do throws(ClientPlanCopyError) {
                    try copy.apply(message)
                } catch {
                    tallies.sampleErrors.append("viewer \(viewer): \(error)")
                }
                tallies.copies[viewer] = copy
            default:
                break
            }
        }
    }
}

/// A message arriving in pieces: a snapshot being hashed (and joined for a sample viewer), or
/// anything else being joined.
enum PartialMessage {
    case snapshot(version: Int, hash: UInt64, joined: [UInt8]?)
    case joining([UInt8])
}
