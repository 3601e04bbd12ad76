import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Undo, redo, the history view, baselines and a past version, driven in tmux against a real
/// server and database, with a second user editing.
@Suite(
    "Terminal client end to end: history, undo, baselines", .serialized,
    .database, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct TerminalHistoryEndToEndTests {
    @Test("undo and redo one's change; a stale undo names bob; the history view; a baseline's shadow; a past version")
    func historyInTheTerminal() async throws {
        try await offThePool {
            let plan = try samplePlan(titled: "History E2E")
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let tmux = Tmux()
            var bob = ""
            for (session, name) in [("a", "ann"), ("b", "bob")] {
                let (user, token) = try planEditor(plan, name)
                if name == "bob" { bob = user }
                try tmux.start(
                    session,
                    [
                        productsDirectory + "/plan", "--server", server.url, "--token", token, "--plan", plan,
                        "--start", "2026-09-07",
                    ])
                _ = try tmux.waitFor(session) { $0.contains("connected") && $0.contains("Spec") }
            }
            try Self.undoAndRedo(tmux, bob: bob)
            try Self.baselineAndPast(tmux)
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }

    /// Sets the selected task's progress in `session` through the form.
    static func progress(_ tmux: Tmux, _ session: String, _ value: String) throws {
        try tmux.send(session, "p")
        _ = try tmux.waitFor(session) { $0.contains("Progress (%)") }
        try tmux.send(session, "BSpace", "BSpace", "BSpace")
        try tmux.send(session, "-l", value)
        try tmux.send(session, "Tab", "Enter")
        _ = try tmux.waitFor(session) { !$0.contains("Progress (%)") }
    }

    /// Ann: Spec 20 → 80 (v1), undone (v2), redone (v3); bob sets 90 (v4), so ann's next undo is
    /// stale and names him; the history view lists it all in words.
    static func undoAndRedo(_ tmux: Tmux, bob: String) throws {
        try tmux.send("a", "Down")
        try progress(tmux, "a", "80")
        _ = try tmux.waitFor("a") { row("Spec", in: $0)?.contains("80 %") == true }
        try tmux.send("a", "z")
        let undone = try tmux.waitFor("a") { $0.contains("Undid v1 (now v2).") }
        #expect(row("Spec", in: undone)?.contains("20 %") == true)
        try tmux.send("a", "Z")
        let redone = try tmux.waitFor("a") { $0.contains("Redid v1 (now v3).") }
        #expect(row("Spec", in: redone)?.contains("80 %") == true)

        _ = try tmux.waitFor("b") { $0.contains("v3") }
        try tmux.send("b", "Down")
        try progress(tmux, "b", "90")
        _ = try tmux.waitFor("a") { $0.contains("v4") }
        try tmux.send("a", "z")
        _ = try tmux.waitFor("a") { $0.contains("v3 not undone: changed since by \(bob) (v4).") }

        try tmux.send("a", "Tab", "Tab", "Tab")
        let history = try tmux.waitFor("a") { $0.contains("Time ") && $0.contains("to 90 %") }
        #expect(history.contains("redid v1: set the progress of “Spec” to 80 %"))
        #expect(history.contains("v2 ↶ v3"))  // v1 was undone, then redone
    }

    /// A baseline now (v5, naming v4); bob shortens Build (v6) and ann sees the shadow; the
    /// newest version opened read-only, then back to the live plan.
    static func baselineAndPast(_ tmux: Tmux) throws {
        try tmux.send("a", "b")
        _ = try tmux.waitFor("a") { $0.contains("Set or remove a baseline") }
        try tmux.send("a", "Tab")
        try tmux.send("a", "-l", "Q3")
        try tmux.send("a", "Tab", "Tab", "Enter")
        _ = try tmux.waitFor("a") { $0.contains("Saved.") }
        try tmux.send("b", "Down", "Down", "Down")
        try tmux.send("b", "u")
        _ = try tmux.waitFor("b") { $0.contains("Days") }
        try tmux.send("b", "BSpace", "BSpace", "BSpace")
        try tmux.send("b", "-l", "4")
        try tmux.send("b", "Tab", "Enter")
        _ = try tmux.waitFor("a") { $0.contains("v6") }
        try tmux.send("a", "Tab", "Tab", "B")
        let shadow = try tmux.waitFor("a") { row("Build", in: $0)?.contains("▁") == true }
        #expect(shadow.contains("baseline ▁ Q3"))

        try tmux.send("a", "Tab", "Tab", "Home", "Enter")
        let past = try tmux.waitFor("a") { $0.contains("READ-ONLY") }
        #expect(past.contains("VERSION 6 of 6"))
        try tmux.send("a", "p")
        _ = try tmux.waitFor("a") { $0.contains("Read-only: this is version 6.") }
        try tmux.send("a", "Escape")
        _ = try tmux.waitFor("a") { !$0.contains("READ-ONLY") && $0.contains("The live plan.") }
    }
}
