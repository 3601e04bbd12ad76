import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Interactive client model: resources view entry actions, lanes and loading")
struct ClientModelEntryTests {
    func resourcesView(_ language: PlanLanguage = .english) throws -> ClientModel {
        var model = try ClientModelResourceTests().resourcesView().model
        if language == .german {
            var settings = ClientModelTests.settings
            settings.language = .german
            var german = ClientModel(settings: settings)
            _ = german.handle(.resize(width: 100, height: 20))
            _ = german.handle(.welcome(user: "ann"))
            _ = german.handle(.copy(try #require(model.copy)))
            _ = german.handle(.key(.tab))
            _ = try ClientModelResourceTests.watchSent(by: &german, after: german.handle(.key(.tab)))
            try deliver(&german, [("Kickoff", "2026-09-08T09:00", "2026-09-09T12:00", "room-1")])
            model = german
        }
        return model
    }

    /// Delivers a page for the current watch holding `entries` on the given resources.
    func deliver(_ model: inout ClientModel, _ bookings: [(String, String, String, String)]) throws {
        let query = try #require(model.resources.query)
        var entries: [TimelineEntry] = []
        var assignments: [TimelineAssignment] = []
        for (index, booking) in bookings.enumerated() {
            let (title, start, end, resource) = booking
            let entry = try TimelineEntry(
                id: "e\(index)", title: title, start: LocalDateTime(start), end: LocalDateTime(end))
            entries.append(entry)
            assignments.append(try TimelineAssignment(id: "a\(index)", entryID: entry.id, resourceID: resource))
        }
        _ = model.handle(
            .server(
                .page(
                    plan: "demo", watch: model.resources.watchID, version: 3, query: query,
                    page: TimelinePage(entries: entries, assignments: assignments))))
    }

    func clear(_ model: inout ClientModel, _ count: Int) {
        for _ in 0..<count { _ = model.handle(.key(.backspace)) }
    }

    @Test("overlapping entries on one resource take lanes; the row grows, nothing is hidden")
    func lanes() throws {
        var model = try resourcesView()
        try deliver(
            &model,
            [
                ("Kickoff", "2026-09-08T09:00", "2026-09-09T12:00", "room-1"),
                ("Review", "2026-09-08T14:00", "2026-09-12T10:00", "room-1"),
                ("Lunch", "2026-09-09T12:00", "2026-09-09T13:00", "room-1"),
                ("Audit", "2026-09-10T00:00", "2026-09-14T00:00", "room-2"),
            ])
        let room1 = try #require(model.resourceRows.first)
        #expect(model.lanes(of: room1).laneCount == 3)
        let text = model.render().text
        for title in ["Kickoff", "Review", "Lunch", "Audit"] { #expect(text.contains(title)) }
        expectGolden(text, "screen-resources-lanes-en")
        // The selection walks the entries in start order, across lanes.
        _ = model.handle(.key(.character("n")))
        #expect(model.selectedEntry?.entry.title == "Review")
    }

    @Test("add: title, start, end and several resources become timeline.add; its ids survive retries")
    func add() throws {
        var model = try resourcesView()
        _ = model.handle(.key(.character("a")))
        #expect(model.form?.fields.map(\.label) == ["Title", "Start", "End", "Resources"])
        #expect(model.form?.fields[1].text == "2026-09-15T09:00")  // today, visible
        #expect(model.form?.fields[3].selectedIDs == ["room-1"])
        type("Workshop", into: &model)
        _ = model.handle(.key(.tab))
        _ = model.handle(.key(.tab))
        clear(&model, 5)
        type("17:30", into: &model)
        _ = model.handle(.key(.tab))
        type("2", into: &model)
        _ = model.handle(.key(.enter))  // ticks Room 2; the list stays open for another
        #expect(model.form?.fields[3].display == "Room 1, Room 2")
        _ = model.handle(.key(.escape))
        _ = model.handle(.key(.tab))
        let first = model.handle(.key(.enter))
        guard case .propose(.timelineAdd(let entry, let assignments), let id)? = first.first else {
            Issue.record("no add: \(first)")
            return
        }
        #expect(entry.title == "Workshop")
        #expect(entry.end == (try LocalDateTime("2026-09-15T17:30")))
        #expect(assignments.map(\.resourceID) == ["room-1", "room-2"])
        #expect(assignments.map(\.id) == [entry.id + "-a1", entry.id + "-a2"])
        #expect(model.pendingEntryIDs == [entry.id])

        // Not a decision: the same proposal id and entry again.
        _ = model.handle(.server(.rejected(id: id, plan: "demo", code: .unavailable, message: "", version: 3)))
        #expect(model.form?.error == "The server is unavailable right now.")
        let retried = model.handle(.key(.enter))
        guard case .propose(.timelineAdd(let again, _), let sameID)? = retried.first else {
            Issue.record("no retry: \(retried)")
            return
        }
        #expect(sameID == id)
        #expect(again == entry)
        // A decision: the next Save is a new proposal, the entry keeps its id.
        _ = model.handle(.server(.rejected(id: id, plan: "demo", code: .unknownResource, message: "", version: 3)))
        #expect(model.form?.error == "That resource does not exist.")
        let third = model.handle(.key(.enter))
        guard case .propose(.timelineAdd(let still, _), let newID)? = third.first else {
            Issue.record("no third save: \(third)")
            return
        }
        #expect(newID != id)
        #expect(still.id == entry.id)
        _ = model.handle(.server(.ack(id: newID, plan: "demo", version: 4)))
        #expect(model.form == nil)
        #expect(model.pending.isEmpty)
    }

    @Test("resize sets start and end separately; retitle; remove; bad drafts propose nothing")
    func editAndRemove() throws {
        var model = try resourcesView()
        let original = try #require(model.selectedEntry)
        _ = model.handle(.key(.character("s")))
        #expect(model.form?.fields.map(\.text) == ["2026-09-08T09:00", "2026-09-09T12:00"])
        _ = model.handle(.key(.tab))
        clear(&model, 5)
        type("18:00", into: &model)
        _ = model.handle(.key(.tab))
        let resize = model.handle(.key(.enter))
        guard case .propose(.timelineApply(let from, let to), let id)? = resize.first else {
            Issue.record("no resize: \(resize)")
            return
        }
        #expect(from == original)
        #expect(to.entry.start == original.entry.start)
        #expect(to.entry.end == (try LocalDateTime("2026-09-09T18:00")))
        _ = model.handle(.server(.ack(id: id, plan: "demo", version: 4)))

        _ = model.handle(.key(.character("s")))
        type("x", into: &model)  // the start is now "…09:00x"
        _ = model.handle(.key(.up))
        _ = model.handle(.key(.up))
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(model.form?.error == "Not a time (YYYY-MM-DDTHH:MM).")
        _ = model.handle(.key(.escape))
        _ = model.handle(.key(.character("s")))
        _ = model.handle(.key(.tab))
        clear(&model, 16)
        type("2026-09-08 08:00", into: &model)
        _ = model.handle(.key(.tab))
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(model.form?.error == "The end must be after the start.")
        _ = model.handle(.key(.escape))

        _ = model.handle(.key(.character("e")))
        clear(&model, 7)
        _ = model.handle(.key(.tab))
        // A blank title: Save is off (dim) and says why; Enter does nothing.
        #expect(model.form?.canSave == false)
        #expect(model.render().text.contains("Title is empty: fill it in to save."))
        #expect(model.handle(.key(.enter)).isEmpty)
        _ = model.handle(.key(.up))
        type("Kick-off", into: &model)
        _ = model.handle(.key(.tab))
        let retitle = model.handle(.key(.enter))
        guard case .propose(.timelineApply(_, let renamed), _)? = retitle.first else {
            Issue.record("no retitle: \(retitle)")
            return
        }
        #expect(renamed.entry == original.entry.with(title: "Kick-off"))
        _ = model.handle(.key(.escape))

        _ = model.handle(.key(.character("x")))
        #expect(model.form?.info.first?.contains("Remove “Kickoff”") == true)
        let remove = model.handle(.key(.enter))
        guard case .propose(.timelineRemove(let removed), _)? = remove.first else {
            Issue.record("no remove: \(remove)")
            return
        }
        #expect(removed == original.entry)
    }

    @Test("Enter shows an entry's details with the actions; an action's key opens its form")
    func details() throws {
        var model = try resourcesView(.german)
        _ = model.handle(.key(.enter))
        let form = try #require(model.form)
        #expect(form.action == .entryDetails)
        #expect(!form.canSave)
        expectGolden(model.render().text, "screen-entry-details-de")
        _ = model.handle(.key(.character("s")))
        #expect(model.form?.action == .resizeEntry)
        _ = model.handle(.key(.escape))
        _ = model.handle(.key(.character("i")))
        _ = model.handle(.key(.enter))  // Close has the focus
        #expect(model.form == nil)
    }

    @Test("loading and failure show in the view; Retry reloads; a collapsed resource is not queried")
    func loadStates() throws {
        var model = try resourcesView()
        let (query, _) = try ClientModelResourceTests.watchSent(by: &model, after: model.handle(.key(.character("]"))))
        #expect(model.render().text.contains("⋯ Loading…"))
        let kickoff = try #require(model.selectedEntry?.entry)
        // A page naming an entry outside the query fails whole: nothing of it is applied.
        try Self.receivePageOutside(query, into: &model)
        let failed = model.render().text
        #expect(failed.contains("! Load failed"))
        #expect(failed.contains("R: Retry"))
        #expect(model.resources.entries["far"] == nil)
        #expect(model.selectedEntry?.entry == kickoff)  // confirmed data kept
        let retry = model.handle(.key(.character("R")))
        guard case .watch(let again, _)? = retry.last else {
            Issue.record("no retry: \(retry)")
            return
        }
        #expect(again == query)
        #expect(model.resources.planner.state == .loading)

        let (collapsed, _) = try ClientModelResourceTests.watchSent(
            by: &model, after: model.handle(.key(.character(" "))))
        #expect(model.resources.collapsed == ["room-1"])
        #expect(model.render().text.contains("▸ Room 1"))
        #expect(collapsed.resourceIDs == ["room-2"])
    }

    @Test("golden screens of the resources view while loading and after a failed load, English and German")
    func loadStateScreens() throws {
        for (language, name) in [(PlanLanguage.english, "en"), (.german, "de")] {
            var model = try resourcesView(language)
            let (query, _) = try ClientModelResourceTests.watchSent(
                by: &model, after: model.handle(.key(.character("]"))))
            let strings = TerminalStrings(language)
            let loading = model.render().text
            #expect(loading.contains(strings.loadingEntries))
            expectGolden(loading, "screen-resources-loading-\(name)")
            // A page with an entry outside the query is refused whole: Load failed, with Retry.
            try Self.receivePageOutside(query, into: &model)
            let failed = model.render().text
            #expect(failed.contains(strings.loadFailedShort) && failed.contains(strings.retryHint))
            #expect(!failed.contains(strings.loadingEntries))
            // The reason in the page's language: the core's English only in English.
            #expect(
                failed.contains(
                    language == .german
                        ? "Einträge nicht geladen: Eintrag „far“ liegt nicht im abgefragten Zeitraum."
                        : "Entries not loaded: entry \"far\" does not overlap the query interval."))
            expectGolden(failed, "screen-resources-failed-\(name)")
        }
    }

    /// A page for `query` naming an entry outside it (far in 2027): seed 003's validation fails
    /// the page whole.
    static func receivePageOutside(_ query: TimelineQuery, into model: inout ClientModel) throws {
        let outside = try TimelineEntry(
            id: "far", title: "Far", start: LocalDateTime("2027-09-01T00:00"), end: LocalDateTime("2027-09-02T00:00"))
        _ = model.handle(
            .server(
                .page(
                    plan: "demo", watch: model.resources.watchID, version: 3, query: query,
                    page: TimelinePage(
                        entries: [outside],
                        assignments: [try TimelineAssignment(id: "x", entryID: "far", resourceID: "room-1")]))))
    }
}
