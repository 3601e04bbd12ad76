import PlanTestSupport
import Testing

/// The terminal client notices a cut link by itself (issue 28, finding 6): the server, in a
/// network namespace of its own, sends no pings, so only the client's `--idle-timeout` can tell.
@Suite(
    "Terminal: a cut link is noticed", .serialized, .database,
    .enabled(if: NetworkNamespacePair.available, "needs root and ip (iproute2) for network namespaces"))
struct TerminalDeadLinkTests {
    @Test("with the link cut, the heading says disconnected before the link is back; then it reconnects")
    func cutLink() async throws {
        try await offThePool {
            let link = try RootLinkedNamespace()
            let plan = try samplePlan(titled: "Cut")
            let token = try planEditor(plan, "ann").token
            let server = try ServerProcess.start(
                arguments: ["--ping-interval-seconds", "0"], launcher: link.launcher, host: link.namespaceAddress)
            defer { _ = server.terminate() }
            let tmux = Tmux()
            try tmux.start(
                "a",
                [
                    productsDirectory + "/plan", "--server", server.url, "--token", token, "--plan", plan,
                    "--idle-timeout", "3", "--start", "2026-09-07",
                ])
            _ = try tmux.waitFor("a") { isConnected($0) && $0.contains("Spec") }
            try link.setLink(up: false)
            let down = try? tmux.waitFor("a", within: 15) { heading(of: $0).contains("disconnected") }
            try link.setLink(up: true)
            #expect(down != nil, "the client did not notice the cut within 15 s")
            let back = try tmux.waitFor("a", within: 30) { isConnected($0) }
            #expect(heading(of: back).contains("v0"))
            try tmux.send("a", "q")
        }
    }
}
