import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// A client notices a dead link by itself (issue 28, finding 6): the server's pings are off, so
/// only the client's own liveness can tell that the silence is a cut. The server runs in a network
/// namespace of its own; the link is cut at its end.
@Suite(
    "Clients notice a dead link by themselves", .serialized, .database,
    .enabled(if: NetworkNamespacePair.available, "needs root and ip (iproute2) for network namespaces"))
struct DeadLinkTests {
    @Test(
        "PlanClient (lws): a silent link is given up while still cut, then resumed with since", .timeLimit(.minutes(1)))
    func planClient() async throws {
        let link = try RootLinkedNamespace()
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(
            arguments: ["--ping-interval-seconds", "0"], launcher: link.launcher, host: link.namespaceAddress)
        defer { _ = server.terminate() }
        let client = try TestClient(
            url: server.url, token: fixture.viewerToken, name: "dead-link", reconnect: true,
            transport: SharedTransport.instance, liveness: (1, 3))
        defer { client.close() }
        try await client.ready()
        _ = try await client.subscribe(fixture.plan)
        try link.setLink(up: false)
        // Noticed during the cut: nothing else could have told it.
        var noticed = true
        do { _ = try await client.expectDisconnect(within: 15) } catch { noticed = false }
        try link.setLink(up: true)
        #expect(noticed, "the client still believed in a cut link after 15 s")
        try await client.ready(within: 30)
        _ = try await client.expect("resumed", within: 15)
    }
}
