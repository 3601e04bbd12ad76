import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Automatic scheduling driven by keys in tmux against a real server: a conflict moved to its
/// earliest date with `M`, a push seen in the store and on screen, the owner's settings form
/// adding a holiday that the timeline then shades.
extension TerminalEndToEndTests {
    @Test("an automatic plan by keys: a conflict moved with M, a push, the settings form adding a shaded holiday")
    func scheduling() async throws {
        try await offThePool {
            let store = TestDatabase.store
            let plan = TestDatabase.unique("plan")
            let weekdays = try PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [])
            try store.createPlan(
                id: plan,
                document: PlanDocument(
                    title: "Scheduling E2E",
                    state: PlanState(
                        tasks: Sample.collection, timeline: TimelineData(),
                        settings: PlanSettings(scheduling: .automatic, calendar: weekdays))))
            let ann = TestDatabase.unique("ann")
            let token = try store.createUser(ann)
            try store.grant(user: ann, plan: plan, role: .owner)
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            defer { _ = server.terminate() }
            let tmux = Tmux()
            // Colours on: `swift test` sets NO_COLOR, which the client honours.
            try tmux.start(
                "a",
                ["env", "-u", "NO_COLOR", productsDirectory + "/plan", "--server", server.url, "--token", token]
                    + ["--plan", plan]
                    + ["--start", "2026-09-07", "--days", "30", "--zoom", "1"])
            _ = try tmux.waitFor("a") { isConnected($0) && $0.contains("Spec") }
            func stored() throws -> PlanState { try #require(try store.loadPlan(plan)).document.state }

            // Build two days earlier than Spec's end: refused, with the earliest date and M.
            try tmux.send("a", keys: Array(repeating: "Down", count: 4) + ["d"])
            _ = try tmux.waitFor("a") { $0.contains("Dates: Build") && $0.contains("2026-09-11") }
            try tmux.send("a", "S-Left", "S-Left", "Enter")  // Shift-← steps the date
            let conflict = try tmux.waitFor("a") { $0.contains("cannot start before") }
            #expect(conflict.contains("“Build” cannot start before 2026-09-11. M: move it there"))
            #expect(!conflict.contains("Dates: Build"))
            try tmux.send("a", "M")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v1") }
            // Eight working days from the 9th (Wednesday to Friday next week), placed on the 11th.
            #expect(
                try stored().tasks["build"]?.schedule
                    == (try TaskSchedule(start: Sample.date("2026-09-11"), end: Sample.date("2026-09-23"))))

            // Spec to Friday the 11th (3 calendar days, ending Monday): Build is pushed to Monday.
            try tmux.send("a", keys: Array(repeating: "Up", count: 3) + ["d"])
            _ = try tmux.waitFor("a") { $0.contains("Dates: Spec") }
            try tmux.send("a", "S-Right", "S-Right", "S-Right", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v2") }
            #expect(try stored().tasks["build"]?.schedule?.start == Sample.date("2026-09-14"))

            // The owner adds a holiday; the timeline shades it beside the weekends.
            try tmux.send("a", "S")
            _ = try tmux.waitFor("a") { $0.contains("Scheduling: mode, working days, holidays") }
            try tmux.send("a", "Tab", "Tab")
            try tmux.send("a", "-l", "2026-09-16")
            try tmux.send("a", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v3") }
            #expect(try stored().settings.calendar.holidays == [Sample.date("2026-09-16")])
            try tmux.send("a", "Tab")
            let timeline = try tmux.waitFor("a") { $0.contains("zoom 1 d") }
            // The Review row (unscheduled: "Unscheduled" then empty cells, an arrow may cross it
            // near the 14th) is shaded on Saturday the 12th and on the holiday, not on the 15th.
            let review = try #require(row("Review", in: timeline))
            let chart = Array(review.split(separator: "│", maxSplits: 1).last ?? "")
            func shaded(_ day: Int) -> Bool {  // each day is 3 cells from the 7th
                chart.indices.contains((day - 7) * 3 + 1) && chart[(day - 7) * 3 + 1] == "·"
            }
            #expect(shaded(12) && shaded(16) && !shaded(15), "\(timeline)")
            // The critical path, from the server's figures: Release ends the plan, so its diamond
            // is red (colour 196 of the 256 the tmux pane has); Build, with days to spare, is not.
            let red = "38;5;196m"
            let colored = try tmux.waitForColored("a") { line in line.contains("Release") && line.contains(red) }
            let build = colored.split(separator: "\n").first { $0.contains("Build") }.map(String.init) ?? ""
            #expect(!build.contains(red), "\(build)")
            try tmux.send("a", "q")
        }
    }
}
