import ChronoSketchCore
import Glibc
import PlanTestSupport
import Testing

/// Silent peers (a dead client, a cut link) are found by pings and closed (issue 14 §2).
@Suite("Server: pings and silent peers", .database)
struct LivenessTests {
    @Test("a peer that answers nothing is pinged, then closed with 1001 after two ping intervals")
    func silentPeer() async throws {
        let server = try ServerProcess.start(arguments: ["--ping-interval-seconds", "1"])
        let socket = try RawWebSocket(port: server.port)
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
        let socket = try RawWebSocket(port: server.port)
        let pong = try await offThePool { () throws -> [UInt8]? in
            _ = try socket.send(Array(StrictWebSocketTests.upgrade.utf8)).readHead()
            var answered = 0
            while answered < 2 {
                guard let frame = try socket.readFrames(count: 1).first, frame.0 == 0x9 else { return nil }
                try socket.send(RawWebSocket.frameBytes(opcode: 0xA, frame.1))
                answered += 1
            }
            // Still open after the intervals: our own ping is answered.
            try socket.send(RawWebSocket.frameBytes(opcode: 0x9, Array("alive".utf8)))
            return try socket.readFrames(count: 1).first { $0.0 == 0xA }?.1
        }
        #expect(pong == Array("alive".utf8), "the connection outlived two ping intervals")
    }
}

/// Peers that stop reading while they keep talking (review findings on the new transport).
@Suite("Server: peers that stop reading", .database)
struct StalledReaderTests {
    /// A plan whose snapshot (about 300 KB) fills a socket nobody reads.
    static func bigPlan() throws -> PlanFixture {
        var tasks = Demo.document.state.tasks.tasks
        for number in 0..<3000 {
            tasks.append(
                try GanttTask(
                    id: "bulk-\(number)", title: String(repeating: "b", count: 60),
                    kind: .activity(schedule: nil, progress: 0)))
        }
        var document = Demo.document
        document.state.tasks = try TaskCollection(tasks, dependencies: Demo.document.state.tasks.dependencies)
        return try PlanFixture.make(document)
    }

    /// A connection past its hello, with 30 snapshots (about 9 MB, more than the kernel buffers
    /// hold) asked for and not read: the server's writing to it is stuck.
    static func stalled(_ server: ServerProcess, _ fixture: PlanFixture) throws -> RawWebSocket {
        let socket = try RawWebSocket(port: server.port, receiveBuffer: 4096)
        _ = try socket.send(Array(StrictWebSocketTests.upgrade.utf8)).readHead()
        try socket.send(
            RawWebSocket.frameBytes(
                opcode: 0x1, Array(#"{"type":"hello","token":"\#(fixture.viewerToken)"}"#.utf8)))
        let subscribe = RawWebSocket.frameBytes(
            opcode: 0x1, Array(#"{"type":"subscribe","plan":"\#(fixture.plan)"}"#.utf8))
        for _ in 0..<30 { try socket.send(subscribe) }
        return socket
    }

    /// Waits until the server holds more than 1 MB it cannot write (its socket to the stalled
    /// peer is full: the figure stops moving): polled from `/metrics`, another process's state,
    /// every 50 ms for up to 60 s (loading the big plan and encoding its snapshot take a while
    /// when the whole suite shares two cores).
    static func waitUntilStuck(_ server: ServerProcess) async throws {
        var previous = -1
        for _ in 0..<1200 {
            let metrics = try await offThePool {
                shell("curl -s http://127.0.0.1:\(server.port)/metrics").output
            }
            let queued =
                metrics.split(separator: "\n").first { $0.hasPrefix("chronosketch_send_queue_bytes ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            if queued > 1_000_000, queued == previous { return }
            previous = queued
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the server never held queued bytes for the stalled peer")
    }

    /// Waits until the server's end of its one connection has nothing left unread in the kernel
    /// (`ss`'s Recv-Q), polled every 50 ms for up to 60 s.
    static func waitUntilRead(_ server: ServerProcess) async throws {
        for _ in 0..<1200 {
            let lines = try await offThePool {
                shell("ss -Htn state established '( sport = :\(server.port) )'").output
            }
            let unread = lines.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
            if unread.count == 1, unread[0] == 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the server never read what the stalled peer sent")
    }

    /// A server whose send queue takes the 30 snapshots (the default would close with 1013), and
    /// whose liveness pings and write deadline do not close the stalled peer while the suite's
    /// load slows the setup (past two 20-s intervals once, past the 30-s write timeout once).
    static func server() throws -> ServerProcess {
        try ServerProcess.start(arguments: [
            "--max-queue-bytes", "100000000", "--ping-interval-seconds", "300", "--write-timeout-seconds", "600",
        ])
    }

    @Test("pings from a peer that does not read: the server holds one pong, not one per ping")
    func pingFlood() async throws {
        let fixture = try Self.bigPlan()
        let server = try Self.server()
        let socket = try Self.stalled(server, fixture)
        try await Self.waitUntilStuck(server)
        try await offThePool {
            let ping = RawWebSocket.frameBytes(opcode: 0x9, Array("p".utf8))
            for _ in 0..<20 { try socket.send(Array(repeating: ping, count: 100).flatMap { $0 }) }
        }
        // The server has read every ping before the peer reads: otherwise pongs of pings read late
        // go out as the peer reads (rightly), and a busy machine made that count pass ten.
        try await Self.waitUntilRead(server)
        let pongs = try await offThePool { () throws -> Int in
            // Now read everything: the welcome, the snapshot, and the pongs that were kept.
            var pongs = 0
            var dataBytes = 0
            while dataBytes < 9_000_000 {
                guard let frame = try socket.readFrames(count: 1).first else { break }
                if frame.0 == 0xA { pongs += 1 }
                if frame.0 == 0x1 || frame.0 == 0x0 { dataBytes += frame.1.count }
            }
            return pongs
        }
        #expect(pongs >= 1 && pongs < 10, "2,000 pings while not reading gave \(pongs) pongs")
    }
}
