import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// The interactive client's history: the history view, undo and redo of one's own changes, a
/// past version opened read-only, and baselines (the form, the shadow).
@Suite("Interactive client: history, undo, baselines")
struct ClientModelHistoryTests {
    /// Ann's own undo `id` of `target` confirmed at `version` and acknowledged.
    static func confirmOwn(_ model: inout ClientModel, _ id: String, version: Int, undoing target: Int) {
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: version, mutationID: id, user: "ann",
                    changes: PlanChanges(upsert: [Self.spec]), undoes: target)))
        _ = model.handle(.server(.ack(id: id, plan: "demo", version: version)))
    }

    static let spec = Sample.collection["spec"]!
    static let build = Sample.collection["build"]!

    /// A history entry replacing `previous` with `proposed`.
    static func entry(
        _ version: Int, _ user: String, _ previous: GanttTask, _ proposed: GanttTask, undoes: Int? = nil
    ) -> HistoryEntry {
        var writer = JSONWriter()
        PlanOperation.replace(previous: previous, proposed: proposed).encodeJSON(into: &writer)
        var op = writer.string
        if let undoes { op = String(op.dropLast()) + ",\"undoes\":\(undoes)}" }
        var changes = JSONWriter()
        PlanChanges(upsert: [proposed]).encodeJSON(into: &changes)
        return HistoryEntry(
            version: version, at: "2026-12-01T10:1\(version):00.000Z", mutationID: "m\(version)", user: user,
            opJSON: op, changesJSON: changes.string)
    }

    static let page: [HistoryEntry] = [
        entry(3, "bob", build, build.with(title: "Build it")),
        entry(
            2, "ann", spec,
            spec.with(
                kind: .activity(schedule: try! TaskSchedule(start: Sample.date("2026-09-09"), days: 3), progress: 20))),
        entry(1, "ann", spec.with(title: "Spc"), spec),
    ]

    /// A client as ann, with the demo plan at v3 and the history page above read.
    func loaded(_ language: PlanLanguage = .english, height: Int = 14) throws -> ClientModel {
        var settings = ClientModelTests.settings
        settings.language = language
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: 100, height: height))
        _ = model.handle(.welcome(user: "ann"))
        let actions = model.handle(.copy(Sample.copy()))
        guard
            case .requestHistory(nil, let limit, let ref)? = actions.first(where: {
                if case .requestHistory = $0 { true } else { false }
            })
        else {
            throw HarnessError("no history request after the first snapshot: \(actions)")
        }
        #expect(limit == ClientModel.historyPage)
        _ = model.handle(.server(.history(plan: "demo", entries: Self.page, logStart: 0, more: false, ref: ref)))
        return model
    }

    @Test("the history view lists versions newest first in words; Tab reaches it after resources")
    func historyView() throws {
        var model = try loaded()
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        #expect(model.mode == .history)
        expectGolden(model.render().text, "screen-history-en")
        _ = model.handle(.key(.down))
        #expect(model.history.selectedEntry?.version == 2)
    }

    @Test("z undoes the user's newest change; a stale undo names who changed it since; Z redoes")
    func undoAndRedo() throws {
        var model = try loaded()
        let undo = model.handle(.key(.character("z")))
        guard case .propose(.undo(2), let id)? = undo.first else {
            Issue.record("no undo of v2: \(undo)")
            return
        }
        #expect(model.pendingTaskIDs == ["spec"])
        // Meanwhile bob edits Spec (v4): the undo is stale.
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m4", user: "bob", changes: PlanChanges(upsert: [Self.spec])))
        )
        _ = model.handle(
            .server(.rejected(id: id, plan: "demo", code: .staleTask, message: "spec changed", version: 4)))
        #expect(model.message == "v2 not undone: changed since by bob (v4).")
        #expect(model.pending.isEmpty)

        // Undone after all (by value the server agreed): then Z redoes it.
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 5, mutationID: "m5", user: "ann", changes: PlanChanges(upsert: [Self.spec]),
                    undoes: 2)))
        guard case .propose(.undo(5), let redo)? = model.handle(.key(.character("Z"))).first else {
            Issue.record("no redo of v5")
            return
        }
        _ = model.handle(.server(.ack(id: redo, plan: "demo", version: 6)))
        // v5 undid v2: undoing it brings v2 back, and says so.
        #expect(model.message == "Redid v2 (now v6).")
    }

    @Test(
        "the screens after a stale undo, an undo and a redo, in English and German",
        arguments: [(PlanLanguage.english, "en"), (.german, "de")])
    func undoOutcomeScreens(language: PlanLanguage, suffix: String) throws {
        var model = try loaded(language)
        guard case .propose(.undo(2), let stale)? = model.handle(.key(.character("z"))).first else {
            Issue.record("no undo of v2")
            return
        }
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m4", user: "bob", changes: PlanChanges(upsert: [Self.spec])))
        )
        _ = model.handle(.server(.rejected(id: stale, plan: "demo", code: .staleTask, message: "", version: 4)))
        #expect(model.message == TerminalStrings(language).notUndone(2, .staleTask, changedBy: ("bob", 4)))
        expectGolden(model.render().text, "screen-undo-stale-\(suffix)")
        // Bob puts the spec back; the undo again, confirmed this time.
        guard case .propose(.undo(2), let undo)? = model.handle(.key(.character("z"))).first else {
            Issue.record("no second undo of v2")
            return
        }
        Self.confirmOwn(&model, undo, version: 5, undoing: 2)
        #expect(model.message == TerminalStrings(language).undone(2, now: 5))
        expectGolden(model.render().text, "screen-undo-done-\(suffix)")
        guard case .propose(.undo(5), let redo)? = model.handle(.key(.character("Z"))).first else {
            Issue.record("no redo of v5")
            return
        }
        Self.confirmOwn(&model, redo, version: 6, undoing: 5)
        // v5 undid v2: undoing it is a redo of v2.
        #expect(model.message == TerminalStrings(language).redone(2, now: 6))
        expectGolden(model.render().text, "screen-redo-done-\(suffix)")
    }

    @Test("undo before the history is read says so and asks for it; nothing of one's own: a message")
    func undoWithoutHistory() {
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.welcome(user: "carl"))
        _ = model.handle(.copy(Sample.copy()))
        #expect(model.handle(.key(.character("z"))).isEmpty)  // the request is already out
        #expect(model.message == "Loading the history…")
        _ = model.handle(
            .server(.history(plan: "demo", entries: Self.page, logStart: 0, more: false, ref: model.history.waitingFor))
        )
        #expect(model.handle(.key(.character("z"))).isEmpty)
        #expect(model.message == "Nothing of yours to undo.")
    }

    @Test("Enter on a version opens it read-only; editing is refused; Esc returns to the live plan")
    func pastVersion() throws {
        var model = try loaded()
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        _ = model.handle(.key(.end))
        guard case .fetch(1, let ref)? = model.handle(.key(.enter)).first else {
            Issue.record("no fetch of v1")
            return
        }
        let old = Sample.copy(version: 1).snapshot
        var past = old
        past.tasks[1] = Self.spec.with(title: "Spc")
        past.historical = true
        _ = model.handle(.server(.snapshot(past, ref: ref)))
        // It opens in the task view used last: the timeline, which Tab passed on its way.
        #expect(model.mode == .timeline)
        #expect(model.rows.map(\.task.title).contains("Spc"))
        expectGolden(model.render().text, "screen-past-en")
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.character("p")))
        #expect(model.form == nil)
        #expect(model.message == "Read-only: this is version 1. Esc returns to the live plan.")
        _ = model.handle(.key(.escape))
        #expect(model.history.past == nil)
        #expect(model.rows.map(\.task.title).contains("Spec"))
    }

    @Test("versions below the log's start are listed, marked and dimmed; Enter and z on them explain, nothing is sent")
    func versionsBelowLogStart() throws {
        var model = try loaded()
        // An upgraded log: its start is v2; v1 is still listed (the audit trail).
        _ = model.handle(.server(.history(plan: "demo", entries: Self.page, logStart: 2, more: false, ref: nil)))
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        #expect(model.mode == .history)
        #expect(model.history.versions == [3, 2, 1])
        let screen = model.render().text
        let line = screen.split(separator: "\n").first { $0.hasPrefix("v1 ") }
        #expect(line?.contains("(no longer kept)") == true)
        #expect(screen.split(separator: "\n").first { $0.hasPrefix("v2 ") }?.contains("(no longer kept)") == false)
        _ = model.handle(.key(.end))
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(
            model.message
                == "v1 is before the start of the history (v2): it can no longer be opened or undone.")
        #expect(model.handle(.key(.character("z"))).isEmpty)
        // Ann's undo key has nothing: v1 is below the start, and v2 starts a log written before
        // the server kept history (it lists v1), so it has no undo either.
        #expect(model.history.log.undoTarget(user: "ann") == nil)
        #expect(screen.contains("Start of the history; the versions before v2 are no longer kept"))
    }

    @Test("b sets a baseline at a version; B draws one as a shadow under the live bars")
    func baselines() throws {
        var model = try loaded(height: 16)
        _ = model.handle(.key(.character("b")))
        #expect(model.form?.fields.map(\.label) == ["Baseline", "Name", "Version"])
        _ = model.handle(.key(.tab))
        type("Q3", into: &model)
        _ = model.handle(.key(.tab))
        _ = model.handle(.key(.backspace))
        _ = model.handle(.key(.character("2")))
        _ = model.handle(.key(.tab))
        guard case .propose(.baselineSet("Q3", 2), let id)? = model.handle(.key(.enter)).first else {
            Issue.record("no baseline.set")
            return
        }
        _ = model.handle(.server(.ack(id: id, plan: "demo", version: 4)))
        #expect(model.form == nil)

        var live = Sample.copy(version: 4).snapshot
        live.baselines = [PlanBaseline(name: "Q3", version: 2, at: "2026-12-01T10:20:00.000Z")]
        _ = model.handle(.copy(ClientPlanCopy(live)))
        _ = model.handle(.key(.tab))
        guard case .fetch(2, let ref)? = model.handle(.key(.character("B"))).first else {
            Issue.record("no fetch of the baseline's version")
            return
        }
        var then = Sample.copy(version: 2).snapshot
        then.tasks[4] = Self.build.with(
            kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-08"), days: 6), progress: 50))
        then.historical = true
        _ = model.handle(.server(.snapshot(then, ref: ref)))
        expectGolden(model.render().text, "screen-baseline-en")
        // The baseline removed by someone: the shadow ends.
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 5, mutationID: "m5", user: "bob", changes: PlanChanges(baselines: []))))
        #expect(model.history.shadow == nil)
        #expect(model.message == "The baseline “Q3” was removed.")
    }
}
