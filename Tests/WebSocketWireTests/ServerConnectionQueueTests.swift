import Testing

@testable import WebSocketWire

/// What a connection holds for a peer, and every bound on it: the per-connection cap, the write
/// deadline, the transport's budget and a user's share.
@Suite("Connection transcripts: the send queue and its bounds")
struct ServerConnectionQueueTests {
    typealias Transcript = ConnectionTranscript

    static func message(_ bytes: Int) -> OutgoingBuffer {
        OutgoingBuffer([UInt8](repeating: UInt8(ascii: "x"), count: bytes))
    }

    @Test(
        "small messages go together up to one fragment; a large or an overflowing one ends the batch",
        arguments: [
            ([100, 200, 300], 3), ([65536], 1), ([65537, 10], 0), ([10, 65536], 1), ([32768, 32768, 1], 2),
            (Array(repeating: 500, count: 3_000), 131), ([], 0),
        ])
    func batches(sizes: [Int], expected: Int) {
        #expect(ServerConnection.batchLength(sizes) == expected)
    }

    @Test("broadcasts waiting together go out as one array frame; a direct answer is written at once")
    func batching() {
        var transcript = Transcript.open { $0.frameInterval = 100_000_000 }
        transcript.advance(seconds: 1)
        #expect(
            transcript.connection.send(OutgoingBuffer(Array("1".utf8)), urgent: false, now: transcript.now).action
                == .flushSoon)
        _ = transcript.write()
        #expect(
            transcript.connection.send(OutgoingBuffer(Array("2".utf8)), urgent: false, now: transcript.now).action
                == .coalesce
        )
        #expect(
            transcript.connection.send(OutgoingBuffer(Array("3".utf8)), urgent: false, now: transcript.now).action
                == .coalesce
        )
        #expect(transcript.connection.flushDue == transcript.now + 100_000_000)
        #expect(
            transcript.connection.send(OutgoingBuffer(Array("4".utf8)), urgent: true, now: transcript.now).action
                == .flush)
        _ = transcript.write()
        #expect(transcript.frames.map(\.payload) == [Array("1".utf8), Array("[2,3,4]".utf8)])
    }

    @Test("a message over 64 KiB goes in fragments; a pong passes between them; it counts until its last fragment")
    func fragments() {
        var transcript = Transcript.open()
        _ = transcript.connection.send(Self.message(150_000), urgent: true, now: transcript.now)
        _ = transcript.write(capacity: 65_536 + 4)
        #expect(transcript.connection.queuedBytes == 150_000)
        _ = transcript.receive(maskedFrame(9, Array("p".utf8)))
        _ = transcript.write()
        #expect(transcript.connection.queuedBytes == 0)
        let frames = transcript.frames
        #expect(frames.map(\.opcode) == [0x1, 0xA, 0x0, 0x0])
        #expect(frames.map(\.fin) == [false, true, false, true])
        #expect(frames.filter { $0.opcode != 0xA }.reduce(0) { $0 + $1.payload.count } == 150_000)
    }

    @Test("the first waiting message is always taken; more than maxQueueBytes behind it closes with 1013")
    func queueCap() {
        var transcript = Transcript.open { $0.maxQueueBytes = 1000 }
        let now = transcript.now
        #expect(transcript.connection.send(Self.message(5000), urgent: true, now: now).action == .flush)
        _ = transcript.write(capacity: 0)
        // The first is being written; the second waits first in line, whatever its size.
        #expect(transcript.connection.send(Self.message(1500), urgent: true, now: now).action == .flush)
        #expect(transcript.connection.send(Self.message(1000), urgent: true, now: now).action == .flush)
        #expect(transcript.connection.send(Self.message(1), urgent: true, now: now).action == .flushSoon)
        #expect(transcript.connection.queuedBytes == 0, "the queue is let go at once")
        #expect(transcript.connection.closeCause == .queueFull)
        #expect(!transcript.connection.isOpen)
        #expect(transcript.write() == [.closed(code: .tryAgainLater, reason: "too slow to keep up"), .endOurSide])
    }

    @Test("a peer that takes nothing for the write timeout is closed with 1013, however much it talks")
    func writeTimeout() {
        var transcript = Transcript.open { $0.writeTimeout = 30 * Transcript.second }
        _ = transcript.connection.send(Self.message(2_000_000), urgent: true, now: transcript.now)
        _ = transcript.write(capacity: 100_000)
        for _ in 0..<29 {
            transcript.advance(seconds: 1)
            // A pong every second, and pings: the peer talks, but reads nothing.
            _ = transcript.receive(maskedFrame(0xA, []) + maskedFrame(9, []))
            #expect(transcript.connection.tick(now: transcript.now) == [])
        }
        transcript.advance(seconds: 1)
        let actions = transcript.connection.tick(now: transcript.now)
        #expect(actions.last == .drop)
        #expect(actions.first == .closed(code: .tryAgainLater, reason: "nothing written for 30 s: too slow to keep up"))
        #expect(transcript.connection.closeCause == .writeTimeout)
        #expect(transcript.connection.queuedBytes == 0)
    }

    @Test("any progress restarts the write deadline; nothing waiting, no deadline")
    func writeProgress() {
        var transcript = Transcript.open {
            $0.writeTimeout = 30 * Transcript.second
            $0.pingInterval = 0
        }
        transcript.advance(seconds: 100)
        #expect(transcript.connection.tick(now: transcript.now) == [], "idle is not stuck")
        _ = transcript.connection.send(Self.message(500_000), urgent: true, now: transcript.now)
        for _ in 0..<5 {
            transcript.advance(seconds: 20)
            _ = transcript.write(capacity: 1)
            #expect(transcript.connection.tick(now: transcript.now) == [], "a byte every 20 s is progress")
        }
    }

    @Test("a broadcast queued to many connections is held once; a direct answer is charged to its connection")
    func ledger() {
        let ledger = QueueLedger(budget: 10_000, accountShare: 5_000)
        var first = Transcript.open(ledger: ledger)
        var second = Transcript.open(ledger: ledger)
        let account = QueueAccount(name: "ann")
        first.connection.assign(account)
        let broadcast = Self.message(3_000)
        _ = first.connection.send(broadcast, urgent: false, now: first.now)
        _ = second.connection.send(broadcast, urgent: false, now: second.now)
        #expect(ledger.heldBytes == 3_000)
        #expect(first.connection.chargedBytes == 3_000 && second.connection.chargedBytes == 0)
        _ = second.connection.send(Self.message(4_000), urgent: true, now: second.now)
        #expect(ledger.heldBytes == 7_000 && second.connection.chargedBytes == 4_000)
        #expect(account.chargedBytes == 3_000)
        _ = first.write()
        #expect(ledger.heldBytes == 7_000, "the broadcast still waits for the second connection")
        #expect(account.chargedBytes == 0)
        _ = second.write()
        #expect(ledger.heldBytes == 0)
    }

    @Test("shedding for a budget lets the queue go at once and closes with 1013 and the cause")
    func shed() {
        let ledger = QueueLedger(budget: 1_000)
        var transcript = Transcript.open(ledger: ledger)
        _ = transcript.connection.send(Self.message(5_000), urgent: true, now: transcript.now)
        #expect(ledger.isOverBudget)
        #expect(transcript.connection.shed(.memoryBudget, "budget", now: transcript.now) == [.flush])
        #expect(ledger.heldBytes == 0 && transcript.connection.closeCause == .memoryBudget)
        #expect(transcript.write() == [.closed(code: .tryAgainLater, reason: "budget"), .endOurSide])
    }

    @Test("a dropped connection lets everything go and reports its close once")
    func dropReleases() {
        let ledger = QueueLedger()
        var transcript = Transcript.open(ledger: ledger)
        _ = transcript.connection.send(Self.message(200_000), urgent: true, now: transcript.now)
        _ = transcript.write(capacity: 10)
        #expect(transcript.connection.dropNow() == [.closed(code: nil, reason: nil), .drop])
        #expect(ledger.heldBytes == 0)
        #expect(transcript.connection.dropNow() == [])
        #expect(transcript.connection.send(Self.message(1), urgent: true, now: transcript.now).action == nil)
    }
}
