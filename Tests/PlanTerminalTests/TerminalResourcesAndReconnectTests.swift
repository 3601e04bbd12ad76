import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

extension TerminalEndToEndTests {
    /// A plan with the sample tasks and a timeline: Room 1 and Room 2, and Kickoff on Room 1
    /// (2026-09-08T09:00 – 2026-09-09T12:00, 27 hours).
    static func timelinePlan() throws -> PlanDocument {
        let timeline = try TimelineData(
            resources: [
                try TimelineResource(id: "room-1", label: "Room 1"),
                try TimelineResource(id: "room-2", label: "Room 2"),
            ],
            entries: [
                try TimelineEntry(
                    id: "kickoff", title: "Kickoff", start: try LocalDateTime("2026-09-08T09:00"),
                    end: try LocalDateTime("2026-09-09T12:00"))
            ],
            assignments: [try TimelineAssignment(id: "kickoff-room", entryID: "kickoff", resourceID: "room-1")])
        return PlanDocument(title: "Rooms", state: PlanState(tasks: Sample.collection, timeline: timeline))
    }

    /// An editor of `plan`: the user name and its token.
    static func editor(_ store: PlanStore, of plan: String, _ name: String) throws -> String {
        try planEditor(plan, name).token
    }

    /// A real server and two editors' clients (ann in tmux session "a", bob in "b") on a new copy
    /// of the timeline plan, both in the resources view showing Kickoff on Room 1.
    static func resourcesScene() throws -> (plan: String, server: ServerProcess, tmux: Tmux) {
        let store = TestDatabase.store
        let plan = TestDatabase.unique("plan")
        try store.createPlan(id: plan, document: try TerminalEndToEndTests.timelinePlan())
        let server = try ServerProcess.start(databaseURL: TestDatabase.url)
        let tmux = Tmux()
        let binary = productsDirectory + "/plan"
        for session in ["a", "b"] {
            let token = try TerminalEndToEndTests.editor(store, of: plan, session == "a" ? "ann" : "bob")
            try tmux.start(
                session, [binary, "--server", server.url, "--token", token, "--plan", plan, "--start", "2026-09-07"])
            _ = try tmux.waitFor(session) { isConnected($0) && $0.contains("Spec") }
            try tmux.send(session, "Tab", "Tab")
            _ = try tmux.waitFor(session) { line(startingWith: "Room 1", in: $0)?.contains("Kickoff") == true }
        }
        return (plan, server, tmux)
    }

    @Test("resources view: move an entry (its duration kept) and reassign it; a second client sees both")
    func resourceEdits() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let (plan, server, tmux) = try TerminalEndToEndTests.resourcesScene()
            defer { _ = server.terminate() }
            let store = TestDatabase.store
            // Both show Kickoff on Room 1, a bar of 27 hours at 8 hours a cell (zoom 1: 3 cells a day).
            var before: [Int] = []
            for session in ["a", "b"] {
                let screen = try tmux.waitFor(session) {
                    line(startingWith: "Room 1", in: $0)?.contains("Kickoff") == true
                }
                before = barCells(line(startingWith: "Room 1", in: screen))
                #expect(before.count == 4)
                #expect(line(startingWith: "Room 2", in: screen)?.contains("Kickoff") == false)
            }

            // A moves Kickoff by a week: type the new start.
            try tmux.send("a", "m")
            _ = try tmux.waitFor("a") { $0.contains("2026-09-08T09:00▏") }
            for _ in 0..<16 { try tmux.send("a", "BSpace") }
            try tmux.send("a", "-l", "2026-09-15T09:00")
            try tmux.send("a", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && $0.contains("v1") }

            // B's watch gets a fresh page: the bar moved 21 cells (7 days) and kept its length.
            let moved = try tmux.waitFor("b") {
                barCells(line(startingWith: "Room 1", in: $0)) == before.map { $0 + 21 }
            }
            #expect(moved.contains("v1"))
            let afterMove = try #require(try store.loadPlan(plan))
            let entry = try #require(afterMove.document.state.timeline.entry("kickoff"))
            #expect(entry.start == (try LocalDateTime("2026-09-15T09:00")))
            #expect(entry.end == (try LocalDateTime("2026-09-16T12:00")))

            // A reassigns Kickoff to Room 2 through the resource picker: typed, picked by Enter.
            try tmux.send("a", "r")
            _ = try tmux.waitFor("a") { $0.contains("Reassign entry") && $0.contains("(type to search)") }
            try tmux.send("a", "-l", "Room 2")
            _ = try tmux.waitFor("a") { $0.contains("1 match") }
            try tmux.send("a", "Enter", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && $0.contains("v2") }

            let reassigned = try tmux.waitFor("b") {
                line(startingWith: "Room 2", in: $0)?.contains("Kickoff") == true
                    && line(startingWith: "Room 1", in: $0)?.contains("Kickoff") == false
            }
            #expect(barCells(line(startingWith: "Room 2", in: reassigned)) == before.map { $0 + 21 })
            #expect(barCells(line(startingWith: "Room 1", in: reassigned)).isEmpty)
            let afterReassign = try #require(try store.loadPlan(plan))
            #expect(afterReassign.version == 2)
            #expect(afterReassign.document.state.timeline.assignment("kickoff-room")?.resourceID == "room-2")
            #expect(afterReassign.document.state.timeline.entry("kickoff") == entry)
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }

    @Test("disconnects: visible state, reconnect at the same version, a proposal saved offline applied once")
    func disconnectAndReconnect() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let store = TestDatabase.store
            let plan = try samplePlan(titled: "Offline")
            let token = try planEditor(plan, "ann").token
            let databaseURL = TestDatabase.url
            var server = try ServerProcess.start(databaseURL: databaseURL)
            let port = server.port
            let tmux = Tmux()
            try tmux.start(
                "a",
                [
                    productsDirectory + "/plan", "--server", server.url, "--token", token, "--plan", plan, "--start",
                    "2026-09-07",
                ]
            )
            _ = try tmux.waitFor("a") { isConnected($0) && $0.contains("Spec") }

            // Spec's progress 20 → 80: version 1.
            try tmux.send("a", "Down", "p")
            _ = try tmux.waitFor("a") { $0.contains("Progress (%)") }
            try tmux.send("a", "BSpace", "BSpace")
            try tmux.send("a", "-l", "80")
            try tmux.send("a", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v1") }

            // The server dies: the client says so, keeps the confirmed data, and reconnects to a
            // restarted server at the same version.
            server.crash()
            let down = try tmux.waitFor("a") { heading(of: $0).contains("disconnected, reconnecting") }
            #expect(heading(of: down).contains("v1"))
            #expect(!heading(of: down).contains("here"))  // presence is unknown while disconnected
            #expect(row("Spec", in: down)?.contains("80 %") == true)
            server = try ServerProcess.restart(port: port, databaseURL: databaseURL)
            let resumed = try tmux.waitFor("a", within: 20) { isConnected($0) && heading(of: $0).contains("1 here") }
            #expect(heading(of: resumed).contains("v1"))
            #expect(row("Spec", in: resumed)?.contains("80 %") == true)

            // Down again; a proposal saved while disconnected waits, shown as pending, nothing applied.
            server.crash()
            _ = try tmux.waitFor("a") { heading(of: $0).contains("disconnected, reconnecting") }
            try tmux.send("a", "p")
            _ = try tmux.waitFor("a") { $0.contains("Progress (%)") }
            try tmux.send("a", "BSpace", "BSpace")
            try tmux.send("a", "-l", "90")
            try tmux.send("a", "Tab", "Enter")
            // The status line and the heading's pending count may come in separate redraws: wait for both.
            let waiting = try tmux.waitFor("a") {
                $0.contains("Saving… waiting for the server") && $0.contains("⋯ 1 pending")
            }
            #expect(row("Spec", in: waiting)?.contains("(pending)") == true)
            #expect(row("Spec", in: waiting)?.contains("80 %") == true)
            #expect(heading(of: waiting).contains("disconnected"))
            #expect(try store.loadPlan(plan)?.version == 1)

            // Back up: the proposal is re-sent with its id, confirmed once, and the form closes.
            server = try ServerProcess.restart(port: port, databaseURL: databaseURL)
            let applied = try tmux.waitFor("a", within: 20) {
                isConnected($0) && $0.contains("Saved.") && row("Spec", in: $0)?.contains("90 %") == true
            }
            #expect(heading(of: applied).contains("v2"))
            #expect(!applied.contains("pending"))
            guard case .mutations(let log, let current)? = try store.mutations(of: plan, since: 1) else {
                Issue.record("no log")
                return
            }
            #expect(current == 2)
            #expect(log.count == 1)
            #expect(log.first?.proposalID.hasPrefix("p-") == true)
            try tmux.send("a", "q")
        }
    }

    @Test("after a reconnect the resources view's watch is restored: later edits still arrive")
    func watchSurvivesReconnect() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let store = TestDatabase.store
            let plan = TestDatabase.unique("plan")
            try store.createPlan(id: plan, document: try TerminalEndToEndTests.timelinePlan())
            let databaseURL = TestDatabase.url
            var server = try ServerProcess.start(databaseURL: databaseURL)
            let port = server.port
            let tmux = Tmux()
            let binary = productsDirectory + "/plan"
            for session in ["a", "b"] {
                let token = try TerminalEndToEndTests.editor(store, of: plan, session == "a" ? "ann" : "bob")
                try tmux.start(
                    session,
                    [binary, "--server", server.url, "--token", token, "--plan", plan, "--start", "2026-09-07"])
                _ = try tmux.waitFor(session) { isConnected($0) && $0.contains("Spec") }
                try tmux.send(session, "Tab", "Tab")
                _ = try tmux.waitFor(session) { line(startingWith: "Room 1", in: $0)?.contains("Kickoff") == true }
            }

            server.crash()
            for session in ["a", "b"] {
                _ = try tmux.waitFor(session) { heading(of: $0).contains("disconnected, reconnecting") }
            }
            server = try ServerProcess.restart(port: port, databaseURL: databaseURL)
            for session in ["a", "b"] {
                let back = try tmux.waitFor(session, within: 20) { isConnected($0) }
                #expect(line(startingWith: "Room 1", in: back)?.contains("Kickoff") == true)
            }

            // A reassigns Kickoff; B, whose watch the connection restored, gets the fresh page.
            try tmux.send("a", "r")
            _ = try tmux.waitFor("a") { $0.contains("Reassign entry") && $0.contains("(type to search)") }
            try tmux.send("a", "-l", "Room 2")
            _ = try tmux.waitFor("a") { $0.contains("1 match") }
            try tmux.send("a", "Enter", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") }
            let seen = try tmux.waitFor("b") { line(startingWith: "Room 2", in: $0)?.contains("Kickoff") == true }
            #expect(line(startingWith: "Room 1", in: seen)?.contains("Kickoff") == false)
            #expect(heading(of: seen).contains("v1"))
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }
}
