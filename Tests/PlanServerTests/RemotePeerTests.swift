import Glibc
import PlanTestSupport
import Testing

/// Clients on another address than loopback, as a real network gives them (issue 12: a reverse
/// DNS lookup per connection on the service thread made 300 viewers need 15 s and more to
/// subscribe, and a resolver that never answers would freeze every connection).
@Suite(
    "Server: clients from another address", .serialized, .database,
    .enabled(if: NetworkNamespacePair.available, "needs root and ip (iproute2) for network namespaces"))
struct RemotePeerTests {
    @Test("viewers from another namespace subscribe at once while the server's resolver never answers")
    func silentResolver() async throws {
        let pair = try NetworkNamespacePair()
        try pair.useSilentResolver()
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(launcher: pair.launcher(pair.server), host: pair.serverAddress)
        defer { _ = server.terminate() }
        let viewers = 300
        // One lookup costs the resolver's 2 × 5 s: were any made on the service thread, 300
        // connections would need 50 minutes, not the minute the run is given.
        let loader = ServerProcess.productsDirectory + "/plan-load"
        let command =
            "timeout 60 " + pair.launcher(pair.client).joined(separator: " ")
            + " \(loader) --server \(server.url) --token \(fixture.viewerToken) --plan \(fixture.plan)"
            + " --viewers \(viewers) --ramp 0 --sample 2 --duration 0.5 --json"
        let (status, output) = try await offThePool { shell(command) }
        #expect(status == 0, "plan-load failed: \(output)")
        #expect(output.contains("\"viewers\":\(viewers)"), "\(output)")
        #expect(output.contains("\"converged\":1"), "\(output)")
        let log = server.log
        #expect(log.contains("opened from \(pair.clientAddress) "), "the log names the numeric peer address")
    }

    @Test("a cut link: the server finds its viewers silent by pings and frees them within two intervals")
    func partition() async throws {
        let pair = try NetworkNamespacePair()
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(
            arguments: ["--ping-interval-seconds", "1"], launcher: pair.launcher(pair.server), host: pair.serverAddress)
        defer { _ = server.terminate() }
        let viewers = 50
        let loader = ServerProcess.productsDirectory + "/plan-load"
        let output = "/tmp/plan-load-partition-\(getpid()).log"
        let started = try await offThePool {
            shell(
                pair.launcher(pair.client).joined(separator: " ")
                    + " \(loader) --server \(server.url) --token \(fixture.viewerToken) --plan \(fixture.plan)"
                    + " --viewers \(viewers) --ramp 0 --sample 0 --duration 60 --json > \(output) 2>&1 & echo $!")
        }
        let loaderPID = pid_t(started.output) ?? 0
        defer {
            kill(loaderPID, SIGKILL)
            shell("rm -f \(output)")
        }
        // Every viewer subscribed (the server logs each authentication), then the link goes down.
        try await waitForLog(server, count: viewers, of: "authenticated as")
        try pair.setLink(up: false)
        // Nothing reaches the server any more: it must notice by itself (TCP would take minutes).
        try await waitForLog(server, count: viewers, of: "no answer to pings")
        #expect(kill(server.pid, 0) == 0)
    }

    /// Polls the server's log (another process's file: there is no event to await) every 100 ms
    /// until `count` lines contain `text`, for at most 15 s.
    private func waitForLog(_ server: ServerProcess, count: Int, of text: String) async throws {
        for _ in 0..<150 {
            if server.log.split(separator: "\n").filter({ $0.contains(text) }).count >= count { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        let found = server.log.split(separator: "\n").filter { $0.contains(text) }.count
        throw HarnessError("\(found) of \(count) log lines with \"\(text)\" after 15 s")
    }
}
