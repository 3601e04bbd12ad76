import Glibc
import PlanProtocol
import PlanTestSupport
import Testing
import WebSocketWire

/// Peers that ask for much and read nothing: whatever they do, the server holds what it queued
/// for them within its bounds (issue 28, finding 1). Each bound is its own server and test.
@Suite("Server: memory held for peers that never read", .database)
struct MemoryBoundsTests {
    /// A connection past its hello that asks for `fetches` copies of the plan as of version 0
    /// (each answer encoded for it alone) and never reads; its receive buffer is small.
    static func hoarder(_ server: ServerProcess, token: String, plan: String, fetches: Int) throws -> RawWebSocket {
        let socket = try RawWebSocket(port: server.port, receiveBuffer: 4096)
        _ = try socket.send(Array(StrictWebSocketTests.upgrade.utf8)).readHead()
        try socket.send(RawWebSocket.frameBytes(opcode: 0x1, Array(#"{"type":"hello","token":"\#(token)"}"#.utf8)))
        let fetch = RawWebSocket.frameBytes(opcode: 0x1, Array(#"{"type":"fetch","plan":"\#(plan)","version":0}"#.utf8))
        for _ in 0..<fetches { try socket.send(fetch) }
        return socket
    }

    /// Waits until `/metrics` shows `line`'s figure at least `atLeast` (polled: the figure is
    /// another process's state).
    static func waitForMetric(_ server: ServerProcess, _ line: String, atLeast: Int) async throws -> Int {
        for _ in 0..<1200 {
            if let value = try await metric(server, line), value >= atLeast { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("\(line) never reached \(atLeast): \(try await metric(server, line) ?? -1)")
    }

    static func metric(_ server: ServerProcess, _ line: String) async throws -> Int? {
        let text = try await offThePool { try HTTPProbe.get(server.port, "/metrics") }
        return text.split(separator: "\n").first { $0.hasPrefix(line + " ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test("a peer that reads nothing but keeps sending pongs is closed 1013 after the write timeout; its queue goes")
    func writeTimeout() async throws {
        let fixture = try StalledReaderTests.bigPlan()
        let server = try ServerProcess.start(arguments: [
            "--write-timeout-seconds", "2", "--ping-interval-seconds", "300", "--max-queue-bytes", "100000000",
        ])
        let socket = try Self.hoarder(server, token: fixture.viewerToken, plan: fixture.plan, fetches: 10)
        // It talks all the time, so that silence cannot be what closes it.
        let talking = Task.detached {
            while !Task.isCancelled {
                guard (try? socket.send(RawWebSocket.frameBytes(opcode: 0xA, []))) != nil else { return }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { talking.cancel() }
        let closes = try await Self.waitForMetric(
            server, #"chronosketch_bounded_closes_total{bound="write_timeout"}"#, atLeast: 1)
        #expect(closes == 1)
        #expect(try await Self.metric(server, "chronosketch_send_queue_held_bytes") == 0)
        #expect(try await Self.metric(server, "chronosketch_send_queue_bytes") == 0)
        #expect(server.log.contains("1013 (nothing written for 2 s"))
    }

    @Test("one user's hoarding connections are closed past the user's share; another user is served meanwhile")
    func userShare() async throws {
        let fixture = try StalledReaderTests.bigPlan()
        let share = 2_000_000
        let server = try ServerProcess.start(arguments: [
            "--max-user-queue-bytes", "\(share)", "--write-timeout-seconds", "600", "--ping-interval-seconds", "300",
        ])
        // Three connections of one user, each asking for about 4.4 MB (the kernel's buffers take
        // about 3 MB of it on loopback): together they pass the share.
        let hoarders = try (0..<3).map { _ in
            try Self.hoarder(server, token: fixture.viewerToken, plan: fixture.plan, fetches: 12)
        }
        let closes = try await Self.waitForMetric(
            server, #"chronosketch_bounded_closes_total{bound="user_share"}"#, atLeast: 1)
        #expect(closes >= 1 && closes <= hoarders.count)
        let held = try await Self.metric(server, "chronosketch_send_queue_held_bytes") ?? .max
        #expect(held <= share + 400_000, "held \(held) for a share of \(share) (plus one answer in flight)")
        let editor = try await RawWebSocket.connect(port: server.port)
        try await editor.hello(token: fixture.editorToken)
        try await editor.sendText(#"{"type":"subscribe","plan":"\#(fixture.plan)"}"#)
        #expect(try await editor.next(skipping: ["presence"]).typeName == "snapshot")
        #expect(try await Self.metric(server, #"chronosketch_bounded_closes_total{bound="memory_budget"}"#) == 0)
    }

    @Test("past the server's budget the connections holding the most are closed, whoever they belong to")
    func totalBudget() async throws {
        let fixture = try StalledReaderTests.bigPlan()
        let budget = 2_000_000
        let server = try ServerProcess.start(arguments: [
            "--queue-budget-bytes", "\(budget)", "--write-timeout-seconds", "600", "--ping-interval-seconds", "300",
        ])
        // Four connections of two users, each asking for about 4.4 MB (the kernel's buffers take
        // about 3 MB of it on loopback): together they pass the budget.
        var hoarders: [RawWebSocket] = []
        for token in [fixture.viewerToken, fixture.editorToken, fixture.viewerToken, fixture.editorToken] {
            hoarders.append(try Self.hoarder(server, token: token, plan: fixture.plan, fetches: 12))
        }
        let closes = try await Self.waitForMetric(
            server, #"chronosketch_bounded_closes_total{bound="memory_budget"}"#, atLeast: 1)
        #expect(closes >= 1 && closes <= hoarders.count)
        let held = try await Self.metric(server, "chronosketch_send_queue_held_bytes") ?? .max
        #expect(held <= budget, "held \(held) for a budget of \(budget)")
        #expect(try await Self.metric(server, "chronosketch_send_queue_budget_bytes") == budget)
        #expect(server.log.contains("memory for unsent data"))
    }
}

/// Plain HTTP requests on a raw socket.
enum HTTPProbe {
    /// Sends `request` and reads until the server closes (our side half-closed after the request).
    static func exchange(_ port: Int, _ request: String) throws -> String {
        try exchangeOnce(port: port, request)
    }

    static func get(_ port: Int, _ target: String, version: String = "HTTP/1.1") throws -> String {
        try exchange(port, "GET \(target) \(version)\r\nHost: 127.0.0.1\r\n\r\n")
    }

}
