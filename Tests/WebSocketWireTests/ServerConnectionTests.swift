import Testing

@testable import WebSocketWire

/// The connection state machine read as transcripts: what arrives, what it decides, what goes on
/// the wire. No socket, no thread, no clock.
@Suite("Connection transcripts: handshake, frames, HTTP, deadlines")
struct ServerConnectionTests {
    typealias Transcript = ConnectionTranscript

    @Test("an upgrade opens the WebSocket: the 101 is written, the application hears of it")
    func upgrade() {
        var transcript = Transcript()
        #expect(transcript.receive(Transcript.upgrade) == [.opened, .flush])
        #expect(transcript.connection.phase == .webSocket)
        #expect(transcript.write() == [])
        #expect(transcript.text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
    }

    @Test("a head and a frame in one read, and a frame split over three reads, are each delivered once")
    func framesAcrossReads() {
        var transcript = Transcript()
        let actions = transcript.receive(Array(Transcript.upgrade.utf8) + maskedText("{\"a\":1}"))
        #expect(actions == [.opened, .flush, .text(Array("{\"a\":1}".utf8))])
        let frame = maskedText("hello")
        #expect(transcript.receive(Array(frame[..<1])) == [])
        #expect(transcript.receive(Array(frame[1..<5])) == [])
        #expect(transcript.receive(Array(frame[5...])) == [.text(Array("hello".utf8))])
        #expect(transcript.receive(maskedFrame(2, [1, 2])) == [.binary])
    }

    @Test("three pings read together get three pongs, each with its payload, before any data")
    func pings() {
        var transcript = Transcript.open()
        let pings = (1...3).flatMap { maskedFrame(9, Array("p\($0)".utf8)) }
        #expect(transcript.receive(pings) == [.flush, .flush, .flush])
        _ = transcript.write()
        #expect(transcript.frames.map(\.opcode) == [0xA, 0xA, 0xA])
        #expect(transcript.frames.map(\.payload) == [Array("p1".utf8), Array("p2".utf8), Array("p3".utf8)])
    }

    @Test("a peer that pings and never reads makes the server hold a few pongs, not one per ping")
    func pingFlood() {
        var transcript = Transcript.open()
        for _ in 0..<1000 { _ = transcript.receive(maskedFrame(9, Array("p".utf8))) }
        _ = transcript.write()
        #expect(transcript.frames.count == ServerConnection.maxWaitingPongs)
    }

    @Test("invalid UTF-8 in a first fragment closes with 1007 at once, not when the message ends")
    func failFast() {
        var transcript = Transcript.open()
        let actions = transcript.receive(maskedFrame(1, Array("{\"x\":\"".utf8) + [0xC0], final: false))
        #expect(actions == [.flush])
        #expect(
            transcript.write() == [
                .closed(code: .invalidPayload, reason: "a text message that is not UTF-8"), .endOurSide,
            ])
        #expect(transcript.frames.map(\.opcode) == [0x8])
        #expect(transcript.frames.first.map { Array($0.payload.prefix(2)) } == [0x03, 0xEF])
        // The peer's answer to our close ends the connection.
        #expect(transcript.receive(maskedFrame(8, [0x03, 0xEF])) == [.drop])
    }

    @Test("a peer's close is echoed, the queue let go, and the connection ends once the echo is out")
    func peerClose() {
        var transcript = Transcript.open()
        _ = transcript.connection.send(OutgoingBuffer(Array("queued".utf8)), urgent: false, now: transcript.now)
        #expect(transcript.receive(maskedFrame(8, [0x03, 0xE8] + Array("bye".utf8))) == [.flush])
        #expect(transcript.connection.queuedBytes == 0)
        #expect(transcript.write() == [.closed(code: nil, reason: nil), .drop])
        #expect(transcript.frames.map(\.opcode) == [0x8])
    }

    @Test("the application's close: what is queued goes first, then the close frame; no answer within 5 s drops it")
    func applicationClose() {
        var transcript = Transcript.open()
        _ = transcript.connection.send(OutgoingBuffer(Array("last".utf8)), urgent: true, now: transcript.now)
        #expect(transcript.connection.close(.policyViolation, "revoked", now: transcript.now) == [.flushSoon])
        #expect(transcript.write() == [.closed(code: .policyViolation, reason: "revoked"), .endOurSide])
        #expect(transcript.frames.map(\.opcode) == [0x1, 0x8])
        transcript.advance(seconds: 4.9)
        #expect(transcript.connection.tick(now: transcript.now) == [])
        transcript.advance(seconds: 0.2)
        #expect(transcript.connection.tick(now: transcript.now) == [.drop])
    }

    @Test("a request head that does not complete within the head timeout is dropped (slowloris)")
    func headTimeout() {
        var transcript = Transcript()
        #expect(transcript.receive("GET /ws HTTP/1.1\r\nHost: x\r\n") == [])
        transcript.advance(seconds: 9.9)
        #expect(transcript.connection.tick(now: transcript.now) == [])
        transcript.advance(seconds: 0.2)
        #expect(transcript.connection.tick(now: transcript.now) == [.drop])
    }

    @Test("a silent peer is pinged after one interval and closed with 1001 after two; an answer keeps it")
    func liveness() {
        var transcript = Transcript.open { $0.pingInterval = 10 * Transcript.second }
        transcript.advance(seconds: 10)
        #expect(transcript.connection.tick(now: transcript.now) == [.flushSoon])
        _ = transcript.write()
        #expect(transcript.frames.map(\.opcode) == [0x9])
        transcript.advance(seconds: 5)
        _ = transcript.receive(maskedFrame(0xA, Array("ping".utf8)))
        transcript.advance(seconds: 14)
        #expect(transcript.connection.tick(now: transcript.now) == [.flushSoon], "pinged again, not closed")
        transcript.advance(seconds: 10)
        #expect(transcript.connection.tick(now: transcript.now) == [.flushAndDrop])
        #expect(transcript.connection.closeCause == .silentPeer)
        transcript.wire = []
        _ = transcript.write()
        #expect(transcript.frames.last.map { Array($0.payload.prefix(2)) } == [0x03, 0xE9])
        #expect(transcript.connection.dropNow() == [.drop], "closed was reported when the close frame went")
    }

    @Test("a pause of the loop's reading is no silence: no ping, no close while not listening")
    func notListening() {
        var transcript = Transcript.open { $0.pingInterval = 10 * Transcript.second }
        transcript.advance(seconds: 25)
        #expect(transcript.connection.tick(now: transcript.now, listening: false) == [])
        transcript.connection.readingResumed(now: transcript.now)
        transcript.advance(seconds: 5)
        #expect(transcript.connection.tick(now: transcript.now) == [])
    }
}

@Suite("Connection transcripts: a delivery budget")
struct DeliveryBudgetTests {
    @Test("messages beyond the budget wait in the connection, in order, until resumed")
    func budget() {
        var transcript = ConnectionTranscript.open()
        let frames = (1...5).flatMap { maskedText("m\($0)") }
        #expect(transcript.receive(frames, deliveries: 2) == [.text(Array("m1".utf8)), .text(Array("m2".utf8))])
        #expect(transcript.connection.holdsMessages)
        let now = transcript.now
        let second = transcript.connection.resume(now: now, deliveries: 2)
        #expect(second == [.text(Array("m3".utf8)), .text(Array("m4".utf8))])
        let third = transcript.connection.resume(now: now, deliveries: 2)
        #expect(third == [.text(Array("m5".utf8))])
        #expect(!transcript.connection.holdsMessages)
        // Pings and other control frames are not messages: they pass whatever the budget.
        #expect(
            transcript.receive(maskedFrame(9, []) + maskedText("m6"), deliveries: 1) == [
                .flush, .text(Array("m6".utf8)),
            ])
    }
}
