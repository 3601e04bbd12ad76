import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Interactive client model: clicks and booking drags in the resources view, the ghost of a drag")
struct DragGhostModelTests {
    // The resources view at 100×14: Room 1 on line 5, Room 2 on line 6; Kickoff (2026-09-08T09:00 –
    // 09-09T12:00) on cells 4–7 of the chart, which starts at column 26 (three cells a day).

    @Test("a click selects the resource row and the booking under it; beside a bar it selects the row only")
    func clickSelects() throws {
        var model = try ClientModelEntryTests().resourcesView()
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 3, y: 6))))  // Room 2's name
        _ = model.handle(.key(.mouse(MouseEvent(.release, x: 3, y: 6))))
        #expect(model.selectedIndex == 1 && model.selectedEntry == nil && model.resources.drag == nil)
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 31, y: 5))))  // Kickoff's bar
        #expect(model.selectedIndex == 0 && model.selectedEntry?.entry.id == "kickoff")
        #expect(model.handle(.key(.mouse(MouseEvent(.release, x: 31, y: 5)))).isEmpty, "a click proposes nothing")
        #expect(model.resources.drag == nil && model.pending.isEmpty)
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 60, y: 5))))  // beside it: the row only
        #expect(model.selectedIndex == 0 && model.resources.drag == nil)
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 31, y: 12))))  // below the rows: nothing
        #expect(model.selectedIndex == 0)
    }

    @Test("a booking dragged proposes one timeline.apply on release; the ghost shows until the ack moves it")
    func bookingDrag() throws {
        var model = try ClientModelEntryTests().resourcesView()
        let kickoff = try #require(model.selectedEntry)
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 31, y: 5))))
        #expect(model.handle(.key(.mouse(MouseEvent(.drag, x: 34, y: 5)))).isEmpty)  // three cells: a day
        #expect(model.message == "Move “Kickoff” → 2026-09-09 09:00 – 2026-09-10 12:00 (release to propose)")
        expectGolden(model.render().text, "screen-resources-drag-ghost-en")
        let room1 = try #require(line(startingWith: "Room 1", in: model.render().text))
        #expect(room1.contains("████╌╌╌"), "the confirmed bar stays, the ghost beside it: \(room1)")
        let released = model.handle(.key(.mouse(MouseEvent(.release, x: 34, y: 6))))
        guard case .propose(.timelineApply(let original, let proposed), let id)? = released.first, released.count == 1
        else {
            Issue.record("one proposal on the release: \(released)")
            return
        }
        #expect(original == kickoff)
        #expect(proposed.entry.start == (try LocalDateTime("2026-09-09T09:00")))
        #expect(proposed.assignment == kickoff.assignment, "in time only")
        #expect(model.pendingEntryIDs == ["kickoff"] && model.selectedEntry == kickoff, "nothing moved yet")
        #expect(model.render().text.contains("╌"), "the ghost waits for the answer")
        // A second press on the waiting booking does not drag it (it would be judged stale).
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 31, y: 5))))
        #expect(model.resources.drag?.proposalID == id)
        #expect(model.message == "“Kickoff” still waits for the server – drag it again after the answer.")
        _ = model.handle(.server(.ack(id: id, plan: "demo", version: 4)))
        #expect(model.resources.drag == nil && model.pendingEntryIDs.isEmpty)
        #expect(!model.render().text.contains("╌"))
    }

    @Test("a viewer's press selects the booking but does not drag it")
    func viewerDoesNotDrag() throws {
        var model = try ClientModelEntryTests().resourcesView()
        _ = model.handle(ClientModelRoleTests.role(.viewer))
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 31, y: 5))))
        #expect(model.selectedEntry?.entry.id == "kickoff" && model.resources.drag == nil)
        #expect(model.handle(.key(.mouse(MouseEvent(.release, x: 40, y: 5)))).isEmpty)
    }

    @Test("mid-drag the timeline shows the bar where confirmed and a dim ghost at the pointer's dates")
    func timelineGhost() throws {
        var model = ClientModelTests().loaded(.english, height: 14)
        _ = model.handle(.key(.tab))
        let finder = ClientModelFindTests()
        let x = try #require(finder.column(of: Sample.date("2026-09-09"), in: model))
        let later = try #require(finder.column(of: Sample.date("2026-09-12"), in: model))
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: x, y: 6))))
        _ = model.handle(.key(.mouse(MouseEvent(.drag, x: later, y: 6))))
        let frame = model.render()
        expectGolden(frame.text, "screen-drag-ghost-en")
        let ghost = (0..<frame.width).filter { frame.character(x: $0, y: 6) == "╌" }
        #expect(ghost.count == 9, "three days beyond the confirmed bar, three cells each")
        #expect(ghost.allSatisfy { frame.style(x: $0, y: 6) == .dim })
        let released = model.handle(.key(.mouse(MouseEvent(.release, x: later, y: 6))))
        guard case .propose(_, let id)? = released.first else {
            Issue.record("no proposal: \(released)")
            return
        }
        #expect(model.message == "Proposed “Spec” at 2026-09-11 – 2026-09-13 – waiting for the server…")
        #expect(model.render().text.contains("╌"), "the ghost stays until the answer")
        _ = model.handle(
            .server(.rejected(id: id, plan: "demo", code: .staleTask, message: "changed", version: 3)))
        #expect(model.drag == nil && !model.render().text.contains("╌"))
        #expect(model.message == model.rejectedText(.staleTask), "the rejection's reason shows")
    }
}
