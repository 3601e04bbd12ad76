import ChronoSketchCore
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanLoad

/// plan-load at the edges (issue 28, findings 5 and 6): a refusal by policy stops the run and
/// says why; a cut link is noticed by the viewers themselves, which reconnect and converge.
@Suite("plan-load: refusals and dead links", .serialized, .database)
struct LoadEdgeTests {
    @Test("viewers beyond --max-connections-per-user: the run stops at once, naming the close and its reason")
    func refusedByPolicy() async throws {
        let (plan, token) = try LoadRunTests.demoPlan()
        let server = try ServerProcess.start(arguments: ["--max-connections-per-user", "5"])
        defer { _ = server.terminate() }
        var configuration = LoadRunTests.configuration(
            server, token: token, plan: plan, viewers: 10, sample: 1, editors: 0, rate: 1, duration: 1)
        configuration.reconnect = true
        do {
            _ = try await LoadRun.run(configuration)
            Issue.record("the run went on")
        } catch {
            let message = "\(error)"
            #expect(message.contains("with 1008 (policy)"), "\(message)")
            #expect(message.contains("at most 5 (--max-connections-per-user)"), "\(message)")
        }
    }

    @Test(
        "the idle timeout is on by default: 35 s, with a ping 10 s before", arguments: [[], ["--idle-timeout", "0"]])
    func idleDefault(extra: [String]) throws {
        let configuration = try LoadConfiguration(
            arguments: ["--server", "ws://127.0.0.1:1/ws", "--token", "t", "--plan", "p"] + extra)
        #expect(configuration.idleTimeout == (extra.isEmpty ? 35 : 0))
    }

    @Test("a quiet but healthy link is kept: the viewers' pings are answered, nobody reconnects")
    func quietLink() async throws {
        let (plan, token) = try LoadRunTests.demoPlan()
        let server = try ServerProcess.start(arguments: ["--ping-interval-seconds", "0"])
        defer { _ = server.terminate() }
        var configuration = LoadRunTests.configuration(
            server, token: token, plan: plan, viewers: 10, sample: 1, editors: 0, rate: 1, duration: 7)
        configuration.reconnect = true
        configuration.idleTimeout = 3
        let report = try await LoadRun.run(configuration)
        #expect(LoadRunTests.figure(report, "viewer_closes") == 0, "\(report.notes)")
    }

    @Test(
        "a cut link: viewers notice the silence by themselves, reconnect, resume and converge",
        .enabled(if: NetworkNamespacePair.available, "needs root and ip (iproute2) for network namespaces"),
        .timeLimit(.minutes(2)))
    func cutLink() async throws {
        let (plan, token) = try LoadRunTests.demoPlan()
        let link = try RootLinkedNamespace()
        // The server sends no pings: only the viewers' own probes can find the cut.
        let server = try ServerProcess.start(
            arguments: ["--ping-interval-seconds", "0"], launcher: link.launcher, host: link.namespaceAddress)
        defer { _ = server.terminate() }
        var configuration = LoadRunTests.configuration(
            server, token: token, plan: plan, viewers: 30, sample: 3, editors: 1, rate: 5, duration: 14)
        configuration.reconnect = true
        configuration.retryUnavailable = true
        configuration.idleTimeout = 4
        let (versions, heard) = AsyncStream<Int>.makeStream()
        let listener = try PlanListener(conninfo: TestDatabase.url) { event in
            if case .committed(plan, let version) = event { heard.yield(version) }
        }
        try listener.start()
        defer { listener.stop() }
        let run = Task { [configuration] in try await LoadRun.run(configuration) }
        for await version in versions where version >= 5 { break }
        try link.setLink(up: false)
        try await Task.sleep(for: .seconds(6))  // the cut's length, not a synchronization
        try link.setLink(up: true)
        let report = try await run.value
        #expect(report.converged, "\(report.notes)")
        #expect((LoadRunTests.figure(report, "viewer_reconnects") ?? 0) >= 30, "every viewer reconnected")
    }
}
