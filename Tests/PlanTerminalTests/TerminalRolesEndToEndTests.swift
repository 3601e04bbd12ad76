import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Roles changed under a running client (protocol.md §11), in tmux against a real server: a
/// viewer promoted with `plan-server grant` gets the edit keys without restarting, demoted again
/// loses them and its open form (the draft not sent), and a role revoked by the owner (as the
/// wire `grant` does) is said.
extension TerminalEndToEndTests {
    /// `plan-server grant USER PLAN ROLE` against the test database.
    static func grant(_ user: String, _ plan: String, _ role: PlanRole) throws {
        let result = try runProgram([
            productsDirectory + "/plan-server", "grant", user, plan, role.rawValue, "--database", TestDatabase.url,
        ])
        guard result.status == 0 else { throw HarnessError("plan-server grant failed: \(result.output)") }
    }

    @Test("a viewer promoted to editor gets the edit keys at once; demoted, the open form closes; revoked, says so")
    func roles() async throws {
        try await offThePool {
            let store = TestDatabase.store
            let plan = try samplePlan(titled: "Roles E2E")
            let owner = TestDatabase.unique("olga")
            _ = try store.createUser(owner)
            try store.grant(user: owner, plan: plan, role: .owner)
            let vic = TestDatabase.unique("vic")
            let token = try store.createUser(vic)
            try store.grant(user: vic, plan: plan, role: .viewer)
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            defer { _ = server.terminate() }
            let tmux = Tmux()
            try tmux.start(
                "v", [productsDirectory + "/plan", "--server", server.url, "--token", token, "--plan", plan])
            _ = try tmux.waitFor("v") { isConnected($0) && heading(of: $0).contains("role: viewer") }
            func progress() throws -> Double? {
                try #require(try store.loadPlan(plan)).document.state.tasks["spec"]?.progress
            }

            // A viewer: the key says so, no form opens.
            try tmux.send("v", "Down", "p")
            let refused = try tmux.waitFor("v") { $0.contains("Your role on this plan is viewer") }
            #expect(!refused.contains("Progress (%)"))

            // Promoted: the same key opens the form, without restarting.
            try Self.grant(vic, plan, .editor)
            _ = try tmux.waitFor("v") {
                heading(of: $0).contains("role: editor") && $0.contains("You are now an editor.")
            }
            try tmux.send("v", "p")
            _ = try tmux.waitFor("v") { $0.contains("Progress (%)") }
            try tmux.send("v", "BSpace", "BSpace")
            try tmux.send("v", "-l", "42")
            _ = try tmux.waitFor("v") { $0.contains("Progress (%)  42") }

            // Demoted with the draft open: the form closes, saying the draft was not sent.
            try Self.grant(vic, plan, .viewer)
            let demoted = try tmux.waitFor("v") {
                heading(of: $0).contains("role: viewer")
                    && $0.contains("You are now a viewer: your draft was not sent.")
            }
            #expect(!demoted.contains("Progress (%)"))
            #expect(row("Spec", in: demoted)?.contains("20 %") == true)
            #expect(try progress() == 20)
            try tmux.send("v", "p")
            _ = try tmux.waitFor("v") { $0.contains("Your role on this plan is viewer") }

            // Editor again: the draft goes through.
            try Self.grant(vic, plan, .editor)
            _ = try tmux.waitFor("v") { heading(of: $0).contains("role: editor") }
            try tmux.send("v", "p")
            _ = try tmux.waitFor("v") { $0.contains("Progress (%)") }
            try tmux.send("v", "BSpace", "BSpace")
            try tmux.send("v", "-l", "42")
            try tmux.send("v", "Enter")
            let saved = try tmux.waitFor("v") { $0.contains("Saved.") && row("Spec", in: $0)?.contains("42 %") == true }
            #expect(heading(of: saved).contains("v1"))
            #expect(try progress() == 42)

            // The owner revokes the role (the wire grant with no role): the client says so.
            try tmux.send("v", "p")
            _ = try tmux.waitFor("v") { $0.contains("Progress (%)") }
            #expect(try store.grant(by: owner, user: vic, plan: plan, role: nil) == .granted)
            let ended = try tmux.waitFor("v") {
                heading(of: $0).contains("no role")
                    && $0.contains("You no longer have a role on this plan: your draft was not sent.")
            }
            #expect(!ended.contains("Progress (%)"))
            try tmux.send("v", "e")
            _ = try tmux.waitFor("v") { $0.contains("You no longer have a role on “Roles E2E”.") }
            try tmux.send("v", "q")
        }
    }
}
