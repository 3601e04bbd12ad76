import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

extension TerminalEndToEndTests {
    @Test("resources view: add an entry on two resources, resize it, remove it; a second client sees each step")
    func entryAddResizeRemove() async throws {
        // Blocking work (tmux polling, subprocesses) runs off the cooperative pool, which
        // other tests need (see offThePool).
        try await offThePool {
            let (plan, server, tmux) = try TerminalEndToEndTests.resourcesScene()
            defer { _ = server.terminate() }
            let store = TestDatabase.store

            // A adds "Audit" 2026-09-10T00:00 – 2026-09-12T00:00 on Room 1 and Room 2.
            try tmux.send("a", "a")
            _ = try tmux.waitFor("a") { $0.contains("Add entry") && $0.contains("Resources  Room 1") }
            try tmux.send("a", "-l", "Audit")
            try tmux.send("a", "Tab")
            for _ in 0..<16 { try tmux.send("a", "BSpace") }
            try tmux.send("a", "-l", "2026-09-10T00:00")
            try tmux.send("a", "Tab")
            for _ in 0..<16 { try tmux.send("a", "BSpace") }
            try tmux.send("a", "-l", "2026-09-12T00:00")
            try tmux.send("a", "Tab")
            try tmux.send("a", "-l", "room 2")
            _ = try tmux.waitFor("a") { $0.contains("[ ] Room 2") }
            try tmux.send("a", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("= Room 1, Room 2") && $0.contains("[x] Room 2") }
            try tmux.send("a", "Escape", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v1") }
            let added = try #require(try store.loadPlan(plan)).document.state.timeline
            let audit = try #require(added.entries.first { $0.title == "Audit" })
            #expect(audit.start == (try LocalDateTime("2026-09-10T00:00")))
            #expect(audit.end == (try LocalDateTime("2026-09-12T00:00")))
            #expect(
                added.assignments.filter { $0.entryID == audit.id }.map(\.resourceID).sorted() == ["room-1", "room-2"])

            // B sees it on both rows (zoom 1 is 3 cells a day: 2 days are 6 cells). On Room 1 its
            // bar would run into Kickoff's title: it takes a second lane, the row grows.
            let seen = try tmux.waitFor("b") { line(startingWith: "Room 2", in: $0)?.contains("Audit") == true }
            #expect(barSpan(line(startingWith: "Room 2", in: seen)) == 6)
            let lines = seen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let room1 = try #require(lines.firstIndex { $0.hasPrefix("Room 1 ") })
            #expect(lines[room1].contains("Kickoff"))
            #expect(lines[room1 + 1].contains("Audit"))
            #expect(barSpan(lines[room1 + 1]) == 6)

            // A selects Audit on Room 2 and resizes it: the end moves to 2026-09-14T00:00.
            try tmux.send("a", "Down", "s")
            _ = try tmux.waitFor("a") { $0.contains("Change start and end") && $0.contains("2026-09-12T00:00") }
            try tmux.send("a", "Tab")
            for _ in 0..<16 { try tmux.send("a", "BSpace") }
            try tmux.send("a", "-l", "2026-09-14T00:00")
            try tmux.send("a", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v2") }
            _ = try tmux.waitFor("b") { barSpan(line(startingWith: "Room 2", in: $0)) == 12 }
            let resized = try #require(try store.loadPlan(plan)).document.state.timeline.entry(audit.id)
            #expect(resized?.start == audit.start)
            #expect(resized?.end == (try LocalDateTime("2026-09-14T00:00")))

            // A removes it: gone from both rows, Kickoff untouched.
            try tmux.send("a", "x")
            _ = try tmux.waitFor("a") { $0.contains("Remove “Audit”") }
            try tmux.send("a", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v3") }
            let gone = try tmux.waitFor("b") { !$0.contains("Audit") && heading(of: $0).contains("v3") }
            #expect(line(startingWith: "Room 1", in: gone)?.contains("Kickoff") == true)
            let removed = try #require(try store.loadPlan(plan)).document.state.timeline
            #expect(removed.entry(audit.id) == nil)
            #expect(removed.assignments.allSatisfy { $0.entryID != audit.id })
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }

    @Test("resources view: an entry's details (Enter, i), and retitling it from there (e); a second client sees it")
    func entryDetailsAndRetitle() async throws {
        try await offThePool {
            let (plan, server, tmux) = try TerminalEndToEndTests.resourcesScene()
            defer { _ = server.terminate() }
            let store = TestDatabase.store

            // A opens Kickoff's details: title, interval, length, resources and the action keys.
            try tmux.send("a", "Enter")
            let details = try tmux.waitFor("a") { $0.contains("Resources: Room 1") }
            #expect(details.contains("Title   Kickoff"))
            #expect(details.contains("Start   2026-09-08 09:00") && details.contains("End     2026-09-09 12:00"))
            #expect(details.contains("Length  27 h"))
            #expect(details.contains("e Rename entry"))

            // `e` there opens the rename form; the new title is saved as a proposal.
            try tmux.send("a", "e")
            _ = try tmux.waitFor("a") { $0.contains("Rename entry: Kickoff") }
            for _ in 0..<"Kickoff".count { try tmux.send("a", "BSpace") }
            try tmux.send("a", "-l", "Kick-off review")
            try tmux.send("a", "Tab", "Enter")
            _ = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v1") }
            let stored = try #require(try store.loadPlan(plan)).document.state.timeline
            let entry = try #require(stored.entry("kickoff"))
            #expect(entry.title == "Kick-off review")
            #expect(entry.start == (try LocalDateTime("2026-09-08T09:00")))
            #expect(entry.end == (try LocalDateTime("2026-09-09T12:00")))
            #expect(stored.assignments.filter { $0.entryID == "kickoff" }.map(\.resourceID) == ["room-1"])

            // B sees the new title on Room 1; `i` on A shows the confirmed details, Esc closes them.
            _ = try tmux.waitFor("b") { line(startingWith: "Room 1", in: $0)?.contains("Kick-off review") == true }
            try tmux.send("a", "i")
            let confirmed = try tmux.waitFor("a") { $0.contains("Title   Kick-off review") }
            #expect(confirmed.contains("Resources: Room 1") && confirmed.contains("Length  27 h"))
            try tmux.send("a", "Escape")
            let closed = try tmux.waitFor("a") { !$0.contains("Resources: Room 1") }
            #expect(line(startingWith: "Room 1", in: closed)?.contains("Kick-off review") == true)
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }
}

/// The width of the bar in a resource row's line: from its first "█" to its last (a title written
/// inside the bar included).
func barSpan(_ line: String?) -> Int {
    let cells = barCells(line)
    guard let first = cells.first, let last = cells.last else { return 0 }
    return last - first + 1
}

extension TerminalEndToEndTests {
    @Test("resources view, mouse: a click selects a row and a booking; a booking dragged a day later moves once")
    func bookingClickAndDrag() async throws {
        try await offThePool {
            let (plan, server, tmux) = try TerminalEndToEndTests.resourcesScene()
            defer { _ = server.terminate() }
            let screen = try tmux.waitFor("a") { line(startingWith: "Room 1", in: $0)?.contains("Kickoff") == true }
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }
            let room1 = try #require(lines.firstIndex { String($0).hasPrefix("Room 1 ") })
            let bar = try #require(lines[room1].firstIndex(of: "█"))  // 0-based column of the bar's first cell
            // SGR reports are 1-based. A click on Room 2's name selects that row (no booking there):
            // `i` then says so. A report that reaches the client as it starts can be lost with what
            // ncurses reads then: clicked again until it shows.
            var selectedRoom2 = false
            for _ in 0..<3 where !selectedRoom2 {
                try tmux.sendReport("a", "\u{1b}[<0;3;\(room1 + 2)M\u{1b}[<0;3;\(room1 + 2)m")
                try tmux.send("a", "i")
                selectedRoom2 = (try? tmux.waitFor("a", within: 3) { $0.contains("No entry selected.") }) != nil
                if !selectedRoom2 { try tmux.send("a", "Escape") }
            }
            #expect(selectedRoom2)
            // A click on Kickoff's bar selects Room 1 and Kickoff: `i` shows its details. (Twice in
            // CI beside the other suites this click was not seen: a report cut between two reads was
            // given up as keys when the client woke for a server's message before the rest came,
            // mended since by `MouseDecoder.patience`. Clicked again all the same, as above.)
            var shown = false
            for _ in 0..<3 where !shown {
                try tmux.sendReport("a", "\u{1b}[<0;\(bar + 2);\(room1 + 1)M\u{1b}[<0;\(bar + 2);\(room1 + 1)m")
                try tmux.send("a", "i")
                shown =
                    (try? tmux.waitFor("a", within: 5) { formText($0).contains("Kickoff") && $0.contains("Close") })
                    != nil
            }
            #expect(shown)
            // The form closed before the next report: an Escape and a report read together by
            // ncurses may lose the report.
            try tmux.send("a", "Escape")
            _ = try tmux.waitFor("a") { !$0.contains("Close") }
            // Pressed on the bar, dragged three cells (a day at zoom 1), released: one proposal.
            // Pressed again (after a release where it was pressed, which proposes nothing) if the
            // press went unseen, as clicks above may.
            var dragging: String?
            for _ in 0..<3 where dragging == nil {
                try tmux.sendReport("a", "\u{1b}[<0;\(bar + 2);\(room1 + 1)M")
                try tmux.sendReport("a", "\u{1b}[<32;\(bar + 5);\(room1 + 1)M")
                dragging = try? tmux.waitFor("a", within: 5) { $0.contains("Move “Kickoff” → 2026-09-09 09:00") }
                if dragging == nil { try tmux.sendReport("a", "\u{1b}[<0;\(bar + 2);\(room1 + 1)m") }
            }
            let draggingScreen = try #require(dragging)
            #expect(line(startingWith: "Room 1", in: draggingScreen)?.contains("╌") == true, "the ghost beside the bar")
            try tmux.sendReport("a", "\u{1b}[<0;\(bar + 5);\(room1 + 1)m")
            let saved = try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains("v1") }
            #expect(line(startingWith: "Room 1", in: saved)?.contains("╌") == false, "the ghost gone with the ack")
            let stored = try #require(try TestDatabase.store.loadPlan(plan))
            #expect(stored.version == 1, "one proposal")
            let kickoff = try #require(stored.document.state.timeline.entries.first { $0.title == "Kickoff" })
            #expect(kickoff.start == (try LocalDateTime("2026-09-09T09:00")))
            #expect(kickoff.end == (try LocalDateTime("2026-09-10T12:00")))
            // The other client sees it moved a day (three cells) later.
            let seen = try tmux.waitFor("b") { heading(of: $0).contains("v1") }
            let moved = try #require(line(startingWith: "Room 1", in: seen))
            #expect(Array(moved).firstIndex(of: "█") == bar + 3)
            try tmux.send("a", "q")
            try tmux.send("b", "q")
        }
    }
}
