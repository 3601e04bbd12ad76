import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Drives the interactive client in tmux against a real server and database.
@Suite(
    "Terminal client end to end (tmux)", .serialized,
    .database, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct TerminalEndToEndTests {
    @Test("edit a task, see it in a second client; a stale draft says who changed what, Apply mine saves it")
    func editAndReject() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let plan = try samplePlan(titled: "Terminal E2E")
            let (ann, annToken) = try planEditor(plan, "ann")
            let bobToken = try planEditor(plan, "bob").token
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let tmux = Tmux()
            let binary = productsDirectory + "/plan"
            for (session, token) in [("a", annToken), ("b", bobToken)] {
                try tmux.start(
                    session,
                    [binary, "--server", server.url, "--token", token, "--plan", plan, "--start", "2026-09-07"])
            }
            for session in ["a", "b"] {
                _ = try tmux.waitFor(session) {
                    $0.contains("connected") && $0.contains("Terminal E2E") && $0.contains("Spec")
                }
            }
            _ = try tmux.waitFor("a") { $0.contains("2 here") }

            // A: Spec's progress 20 → 80.
            try tmux.send("a", "Down", "p")
            _ = try tmux.waitFor("a") { $0.contains("Progress (%)") }
            try tmux.send("a", "BSpace", "BSpace")
            try tmux.send("a", "-l", "80")
            try tmux.send("a", "Tab", "Enter")
            let saved = try tmux.waitFor("a") { $0.contains("Saved.") }
            #expect(row("Spec", in: saved)?.contains("80 %") == true)
            #expect(saved.contains("v1"))

            // B sees it, opens a draft on Spec (now at 80).
            let seen = try tmux.waitFor("b") { row("Spec", in: $0)?.contains("80 %") == true }
            #expect(seen.contains("v1"))
            try tmux.send("b", "Down", "p")
            _ = try tmux.waitFor("b") { $0.contains("Progress (%)") }

            // A changes Spec again: B's draft is now stale.
            try tmux.send("a", "p")
            _ = try tmux.waitFor("a") { $0.contains("Progress (%)") }
            try tmux.send("a", "BSpace", "BSpace")
            try tmux.send("a", "-l", "90")
            try tmux.send("a", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && row("Spec", in: $0)?.contains("90 %") == true }
            // B is told at once, in the footer, who changed the task its form edits.
            let told = try tmux.waitFor("b") { $0.contains("v2") && $0.contains("(which your open form edits)") }
            #expect(told.contains("\(ann) changed “Spec” (which your open form edits)"), "\(told)")

            // B saves its stale draft: the reason, who changed what since the form opened, the
            // draft kept, and Apply mine instead of Save.
            try tmux.send("b", "BSpace", "BSpace")
            try tmux.send("b", "-l", "55")
            try tmux.send("b", "Tab", "Enter")
            let rejected = try tmux.waitFor("b") { $0.contains("Apply mine to the current version") }
            #expect(rejected.contains("The task was changed or removed"))
            #expect(formText(rejected).contains("Changed since by \(ann) (v2): set the progress of “Spec” to 90 %."))
            #expect(rejected.contains("Progress (%)  55"))
            #expect(rejected.contains("[ Discard ]") && !rejected.contains("[ Save ]"))
            #expect(row("Spec", in: rejected)?.contains("90 %") == true)

            // Apply mine: the draft on the current version, confirmed; A sees it.
            try tmux.send("b", "Enter")
            _ = try tmux.waitFor("b") { $0.contains("Saved.") && row("Spec", in: $0)?.contains("55 %") == true }
            _ = try tmux.waitFor("a") {
                heading(of: $0).contains("v3") && row("Spec", in: $0)?.contains("55 %") == true
            }

            // The timeline shows the confirmed data.
            try tmux.send("b", "Tab")
            let timeline = try tmux.waitFor("b") { $0.contains("Week 37 2026") }
            #expect(timeline.contains("◆") || timeline.contains("Release"))
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }
}

/// The scriptable subcommands, run as programs against a real server.
@Suite(
    "plan subcommands end to end", .serialized,
    .database)
struct SubcommandEndToEndTests {
    @Test("show, chart, export and propose (confirmed 0, rejected 1, error 2)")
    func subcommands() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let plan = try samplePlan(titled: "Demo")
            let token = try planEditor(plan, "cli").token
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let plan_ = productsDirectory + "/plan"
            let connection = ["--plan", plan, "--token", token, "--server", server.url]

            let show = try runProgram([plan_, "show"] + connection + ["--language", "de"])
            #expect(show.status == 0)
            let figures = ScheduleFigures(Sample.collection, time: WorkingTime(.allDaysWorking))
            #expect(
                show.output
                    == CommandSession.showText(
                        Sample.copy(version: 0), language: .german,
                        schedule: ScheduleAnswer(plan: plan, version: 0, figures: figures, ids: nil)))
            #expect(show.output.contains("Vorgänger"))

            let chart = try runProgram(
                [plan_] + connection + ["chart", "--start", "2026-09-07", "--days", "30", "--zoom", "2"])
            #expect(chart.status == 0)
            #expect(
                chart.output
                    == ChartRenderer(language: .english).text(
                        rows: Sample.collection.rows(), dependencies: Sample.dependencies,
                        horizon: try ChartHorizon(start: Sample.date("2026-09-07"), days: 30), zoom: .twoDays))
            #expect(!chart.output.contains("\u{1B}"))

            let export = try runProgram([plan_, "export"] + connection)
            #expect(export.status == 0)
            // The server's JSON export (the plan file), no longer the snapshot.
            #expect(export.output.hasPrefix("{\"id\":\"\(plan)\",\"version\":0,\"title\":\"Demo\""))

            let path = "/tmp/plan-e2e-proposal-\(getpid()).json"
            defer { unlink(path) }
            func propose(_ json: String) throws -> (status: Int32, output: String) {
                let file = fopen(path, "wb")
                fputs(json, file)
                fclose(file)
                return try runProgram([plan_, "propose", path] + connection)
            }
            let link = #"{"type":"link","dependency":{"predecessorID":"review","successorID":"release"}}"#
            let confirmed = try propose(link)
            #expect(confirmed.status == 0)
            #expect(confirmed.output.hasPrefix("confirmed at version 1"))
            let rejected = try propose(#"{"type":"propose","op":"# + link + "}")
            #expect(rejected.status == 1)
            #expect(rejected.output.hasPrefix("rejected: duplicateDependency"))
            let broken = try propose("{")
            #expect(broken.status == 2)
        }
    }
}
