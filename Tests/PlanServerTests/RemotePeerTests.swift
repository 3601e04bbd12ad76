import Glibc
import PlanTestSupport
import Testing

/// Clients on another address than loopback, as a real network gives them (issue 12: a reverse
/// DNS lookup per connection on the service thread made 300 viewers need 15 s and more to
/// subscribe, and a resolver that never answers would freeze every connection).
@Suite(
    "Server: clients from another address", .serialized,
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
}
