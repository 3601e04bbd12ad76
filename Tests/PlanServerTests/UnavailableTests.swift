import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@Suite("Server: database outages", .database)
struct UnavailableTests {
    /// Runs on a PostgreSQL cluster of its own, so that stopping it disturbs no other test.
    @Test("the database going away: unavailable, nothing applied; a retry with the same id succeeds later")
    func outage() async throws {
        let cluster = try await PrivateCluster.start(port: 5443)
        defer { withExtendedLifetime(cluster) {} }  // destroyed at the end, not after its last use
        let (url, store) = (cluster.url, cluster.store)
        try store.createPlan(id: "p", document: Demo.document)
        let token = try store.createUser("ed")
        try store.grant(user: "ed", plan: "p", role: .editor)

        let server = try ServerProcess.start(databaseURL: url)
        let client = try await TestClient.connected(to: server, token: token)
        defer { client.close() }
        let copy = try await client.subscribe("p")
        let spec = copy["spec"]!
        let operation = PlanOperation.replace(previous: spec, proposed: spec.with(title: "during outage"))

        #expect(try await cluster.kill())
        let refused = try await client.propose(operation, plan: "p", id: "retry-me")
        #expect(refused.rejectionCode == .unavailable)
        let health = shell("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\(server.port)/healthz")
        // The health flag is refreshed once a second; it must turn 503 while the database is down.
        var sawUnhealthy = health.output == "503"
        for _ in 0..<30 where !sawUnhealthy {
            try await Task.sleep(for: .milliseconds(100))  // polling an HTTP endpoint, not synchronizing
            sawUnhealthy =
                shell("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\(server.port)/healthz").output == "503"
        }
        #expect(sawUnhealthy)

        #expect(try await cluster.restart())
        let stored = try #require(try store.loadPlan("p"))
        #expect(stored.version == 0, "nothing was applied during the outage")
        let retried = try await client.propose(operation, plan: "p", id: "retry-me")
        #expect(retried.ackVersion == 1)
        #expect(try store.loadPlan("p")?.document.state.tasks["spec"]?.title == "during outage")
    }
}
