import Glibc
import PlanTestSupport
import Testing

/// Silent peers (a dead client, a cut link) are found by pings and closed (issue 14 §2).
@Suite("Server: pings and silent peers")
struct LivenessTests {
    @Test("a peer that answers nothing is pinged, then closed with 1001 after two ping intervals")
    func silentPeer() async throws {
        let server = try ServerProcess.start(arguments: ["--ping-interval-seconds", "1"])
        let socket = try RawTCP(port: server.port)
        let frames = try await offThePool { () throws -> [(UInt8, [UInt8])] in
            _ = try socket.send(Array(StrictWebSocketTests.upgrade.utf8)).readHead()
            return try socket.readFrames()  // never answering; the server ends the stream
        }
        #expect(frames.contains { $0.0 == 0x9 }, "pinged first: \(frames.map(\.0))")
        #expect(frames.last?.0 == 0x8 && frames.last.map { Array($0.1.prefix(2)) } == [0x03, 0xE9])
        #expect(server.log.contains("no answer to pings"))
    }

    @Test("a peer that answers pings stays connected across several intervals")
    func answeringPeer() async throws {
        // Two-second intervals: an answer may be a second late on a busy machine and still count.
        let server = try ServerProcess.start(arguments: ["--ping-interval-seconds", "2"])
        let socket = try RawTCP(port: server.port)
        let pong = try await offThePool { () throws -> [UInt8]? in
            _ = try socket.send(Array(StrictWebSocketTests.upgrade.utf8)).readHead()
            var answered = 0
            while answered < 2 {
                guard let frame = try socket.readFrames(count: 1).first, frame.0 == 0x9 else { return nil }
                try socket.send(RawTCP.maskedFrame(opcode: 0xA, frame.1))
                answered += 1
            }
            // Still open after the intervals: our own ping is answered.
            try socket.send(RawTCP.maskedFrame(opcode: 0x9, Array("alive".utf8)))
            return try socket.readFrames(count: 1).first { $0.0 == 0xA }?.1
        }
        #expect(pong == Array("alive".utf8), "the connection outlived two ping intervals")
    }
}
