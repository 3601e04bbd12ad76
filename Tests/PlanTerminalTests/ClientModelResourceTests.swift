import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Interactive client model: resources view and disconnects")
struct ClientModelResourceTests {
    /// The model on the timeline plan of the end-to-end tests (Kickoff on Room 1), in the
    /// resources view, with the page its watch asked for.
    func resourcesView() throws -> (model: ClientModel, document: PlanDocument) {
        let document = try TerminalEndToEndTests.timelinePlan()
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 14))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(ClientPlanCopy(PlanSnapshot(plan: "demo", version: 3, document: document))))
        _ = model.handle(.key(.tab))
        let (query, id) = try ClientModelResourceTests.watchSent(by: &model, after: model.handle(.key(.tab)))
        #expect(query.resourceIDs == ["room-1", "room-2"])
        _ = model.handle(
            .server(
                .page(
                    plan: "demo", watch: id, version: 3, query: query,
                    page: document.state.timeline.page(for: query))))
        return (model, document)
    }

    /// The watch the model sends once the coalescing delay `actions` ask for has passed.
    static func watchSent(by model: inout ClientModel, after actions: [ClientAction]) throws -> (TimelineQuery, String)
    {
        guard case .wake(let milliseconds, let token)? = actions.last else {
            throw HarnessError("no wake-up: \(actions)")
        }
        #expect(milliseconds == 80)
        let sent = model.handle(.wake(token: token))
        guard case .watch(let query, let id)? = sent.last else { throw HarnessError("no watch: \(sent)") }
        return (query, id)
    }

    @Test("the resources view shows the watched page's entries as bars")
    func screen() throws {
        let (model, _) = try resourcesView()
        #expect(model.selectedEntry?.entry.id == "kickoff")
        expectGolden(model.render().text, "screen-resources-en")
    }

    @Test("an entry that ends before the visible columns is not drawn (it was a one-cell bar at the left edge)")
    func entryBeforeTheWindow() throws {
        var (model, _) = try resourcesView()
        #expect(line(startingWith: "Room 1", in: model.render().text)?.contains("Kickoff") == true)
        _ = model.handle(.key(.character("]")))  // half a page later: Kickoff (8–9 Sept.) is left of it
        let room1 = try #require(line(startingWith: "Room 1", in: model.render().text))
        #expect(!room1.contains("Kickoff") && !room1.contains("█"), "\(room1)")
        let geometry = ResourceChartGeometry(viewport: model.viewport)
        let kickoff = try #require(model.resources.entries["kickoff"])
        #expect(geometry.span(of: kickoff) == nil)
    }

    @Test("move keeps the entry's duration; reassign changes only the resource; both wait for the answer")
    func moveAndReassign() throws {
        var (model, document) = try resourcesView()
        let timeline = document.state.timeline
        let original = TimelineAssignedEntry(
            entry: try #require(timeline.entry("kickoff")),
            assignment: try #require(timeline.assignment("kickoff-room")))

        _ = model.handle(.key(.character("m")))
        #expect(model.form?.fields.first?.text == "2026-09-08T09:00")
        for _ in 0..<5 { _ = model.handle(.key(.backspace)) }
        type("14:30", into: &model)
        _ = model.handle(.key(.tab))
        let move = model.handle(.key(.enter))
        guard case .propose(.timelineApply(let from, let to), let moveID)? = move.first else {
            Issue.record("no move proposal: \(move)")
            return
        }
        #expect(from == original)
        #expect(to.entry.start == (try LocalDateTime("2026-09-08T14:30")))
        #expect(to.entry.minutes == original.entry.minutes)
        #expect(to.assignment == original.assignment)
        #expect(model.render().text.contains("⋯ 1 pending"))
        // The entry shows it (until the answer; the bar stays where it is, nothing is applied).
        #expect(model.pendingEntryIDs == ["kickoff"])
        #expect(model.pendingTaskIDs.isEmpty)
        #expect(model.render().text.contains("████ Kickoff (pending)"))
        _ = model.handle(.server(.ack(id: moveID, plan: "demo", version: 4)))
        #expect(model.form == nil)
        #expect(model.pendingEntryIDs.isEmpty)

        // The resource is picked by typing: the first match of "room-2" is picked with Enter.
        _ = model.handle(.key(.character("r")))
        type("room-2", into: &model)
        _ = model.handle(.key(.enter))
        _ = model.handle(.key(.tab))
        let reassign = model.handle(.key(.enter))
        guard case .propose(.timelineApply(_, let moved), _)? = reassign.first else {
            Issue.record("no reassign proposal: \(reassign)")
            return
        }
        #expect(moved.assignment.resourceID == "room-2")
        #expect(moved.entry == original.entry)

        // Shift-Left and Shift-Right move the start by a day, keeping the time.
        _ = model.handle(.key(.escape))
        _ = model.handle(.key(.character("m")))
        _ = model.handle(.key(.shiftRight))
        _ = model.handle(.key(.shiftRight))
        _ = model.handle(.key(.shiftLeft))
        #expect(model.form?.fields.first?.text == "2026-09-09T09:00")

        // A bad time keeps the form open with a message and proposes nothing.
        _ = model.handle(.key(.escape))
        _ = model.handle(.key(.character("m")))
        _ = model.handle(.key(.character("x")))
        _ = model.handle(.key(.tab))
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(model.form?.error == "Not a time (YYYY-MM-DDTHH:MM).")
    }

    @Test("a disconnect shows in the heading, forgets presence, and a proposal saved meanwhile is pending")
    func disconnected() {
        var model = ClientModelTests().loaded()
        #expect(model.render().text.contains("2 here"))
        _ = model.handle(.disconnected(reason: "", willReconnect: true))
        #expect(model.presence.isEmpty)
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.character("p")))
        _ = model.handle(.key(.backspace))
        _ = model.handle(.key(.tab))
        let actions = model.handle(.key(.enter))
        #expect(actions.count == 1)
        #expect(model.pendingTaskIDs == ["spec"])
        expectGolden(model.render().text, "screen-disconnected-en")
        _ = model.handle(.welcome(user: "ann"))
        #expect(model.connection == .connected)
        #expect(model.pendingTaskIDs == ["spec"])
    }
}
