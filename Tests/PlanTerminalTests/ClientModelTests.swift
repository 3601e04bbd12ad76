import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("Interactive client model")
struct ClientModelTests {
    static let settings = ClientSettings(
        plan: "demo", language: .english, title: nil,
        horizon: try! ChartHorizon(start: Sample.date("2026-09-07"), days: 90), today: Sample.date("2026-09-15"),
        idPrefix: "x")

    func model(_ language: PlanLanguage = .english, width: Int = 100, height: Int = 14) -> ClientModel {
        var settings = ClientModelTests.settings
        settings.language = language
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: width, height: height))
        return model
    }

    func loaded(_ language: PlanLanguage = .english, width: Int = 100, height: Int = 14) -> ClientModel {
        var model = model(language, width: width, height: height)
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy()))
        _ = model.handle(
            .server(
                .presence(
                    plan: "demo", count: 2,
                    sessions: [
                        PresenceSession(session: "s1", user: "ann", client: "plan/1"),
                        PresenceSession(session: "s2", user: "bob", client: "web"),
                    ])))
        return model
    }

    @Test("a loading indicator until the first snapshot, then the list")
    func loading() {
        var model = model()
        expectGolden(model.render().text, "screen-loading")
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy(TaskCollection(), title: "Empty")))
        expectGolden(model.render().text, "screen-empty")
    }

    @Test("list and timeline screens in both languages")
    func screens() {
        var english = loaded()
        expectGolden(english.render().text, "screen-list-en")
        _ = english.handle(.key(.tab))
        expectGolden(english.render().text, "screen-timeline-en")
        var german = loaded(.german)
        _ = german.handle(.key(.tab))
        expectGolden(german.render().text, "screen-timeline-de")
        _ = german.handle(.key(.character("?")))
        #expect(german.render().text.contains("Tasten"))
    }

    @Test("space collapses the selected group; selection moves with arrows")
    func disclosure() {
        var model = loaded()
        _ = model.handle(.key(.character(" ")))
        #expect(model.rows.map(\.id) == ["design", "impl", "build", "release"])
        _ = model.handle(.key(.down))
        #expect(model.selectedTask?.id == "impl")
        _ = model.handle(.key(.right))
        _ = model.handle(.key(.left))
        #expect(model.rows.map(\.id) == ["design", "impl", "release"])
    }

    @Test("timeline navigation: next moves half the width, zoom at the left edge keeps the start")
    func navigation() {
        var model = loaded()
        _ = model.handle(.key(.tab))
        let step = model.viewport.pageStep
        _ = model.handle(.key(.character("]")))
        #expect(model.viewport.firstColumn == step)
        _ = model.handle(.key(.character("[")))
        #expect(model.viewport.firstColumn == 0)
        _ = model.handle(.key(.character("-")))
        #expect(model.viewport.axis.zoom == .twoDays)
        #expect(model.viewport.firstColumn == 0)
        _ = model.handle(.key(.character("t")))
        #expect(model.viewport.axis.column(at: model.viewport.firstColumn).lastDate >= Sample.date("2026-09-15"))
    }

    @Test("actions are offered only where the seed allows them")
    func availability() {
        let summary = Sample.collection["design"]!
        let milestone = Sample.collection["release"]!
        let unscheduled = Sample.collection["review"]!
        #expect(!TaskAction.available(for: summary).contains(.dates))
        #expect(TaskAction.available(for: summary).contains(.addChild))
        #expect(TaskAction.available(for: milestone).contains(.dates))
        #expect(!TaskAction.available(for: milestone).contains(.progress))
        #expect(!TaskAction.available(for: unscheduled).contains(.duration))
        #expect(TaskAction.available(for: unscheduled).contains(.progress))
        var model = loaded()
        _ = model.handle(.key(.character("u")))  // duration on a summary
        #expect(model.form == nil)
        #expect(model.message == TerminalStrings(.english).actionUnavailable)
    }

    @Test("save proposes and waits; a rejection keeps the draft and shows the reason; ack closes")
    func formFlow() {
        var model = loaded(.german, height: 20)
        _ = model.handle(.key(.down))  // Spec
        _ = model.handle(.key(.character("u")))
        #expect(model.form?.fields.first?.text == "3")
        _ = model.handle(.key(.backspace))
        _ = model.handle(.key(.character("5")))
        _ = model.handle(.key(.tab))  // Save
        let actions = model.handle(.key(.enter))
        guard case .propose(let operation, let id)? = actions.first else {
            Issue.record("no proposal: \(actions)")
            return
        }
        let spec = Sample.collection["spec"]!
        let expected = spec.with(
            kind: .activity(schedule: try! TaskSchedule(start: Sample.date("2026-09-08"), days: 5), progress: 20))
        #expect(operation == .replace(previous: spec, proposed: expected))
        #expect(model.pendingTaskIDs == ["spec"])
        #expect(model.render().text.contains("Spec (ausstehend)"))
        // Nothing changes before `confirmed`: the list still shows the old dates.
        #expect(model.render().text.contains("08.09.2026 – 10.09.2026"))
        _ = model.handle(
            .server(.rejected(id: id, plan: "demo", code: .staleTask, message: "stale", version: 4)))
        #expect(model.form?.error == TerminalStrings(.german).rejection(.staleTask))
        #expect(model.form?.fields.first?.text == "5")
        expectGolden(model.render().text, "screen-rejected-de")
        let again = model.handle(.key(.enter))
        guard case .propose(_, let second)? = again.first else {
            Issue.record("no second proposal")
            return
        }
        _ = model.handle(.server(.ack(id: second, plan: "demo", version: 4)))
        #expect(model.form == nil)
        #expect(model.pending.isEmpty)
    }

    @Test("close discards the draft; moving keeps the duration; progress keeps the dates")
    func draftRules() throws {
        var model = loaded()
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.character("p")))
        _ = model.handle(.key(.escape))
        #expect(model.form == nil)
        let spec = Sample.collection["spec"]!
        var form = TaskForm.open(
            .dates, task: spec, in: Sample.collection, language: .english, today: Sample.date("2026-09-15"))
        _ = form.handle(.shiftRight)
        _ = form.handle(.shiftRight)
        let moved = try form.operation(in: Sample.collection, newID: "n", language: .english)
        #expect(
            moved
                == .replace(
                    previous: spec,
                    proposed: spec.with(
                        kind: .activity(
                            schedule: try TaskSchedule(start: Sample.date("2026-09-10"), days: 3), progress: 20))))
        var progress = TaskForm.open(
            .progress, task: spec, in: Sample.collection, language: .english, today: Sample.date("2026-09-15"))
        progress.fields[0].value = .text("80")
        let changed = try progress.operation(in: Sample.collection, newID: "n", language: .english)
        #expect(
            changed
                == .replace(previous: spec, proposed: spec.with(kind: .activity(schedule: spec.schedule, progress: 80)))
        )
    }

    @Test("unlink names the dependency as held, type and lag included")
    func unlinkByValue() throws {
        let typed = TaskDependency(predecessorID: "spec", successorID: "build", type: .startToStart, lag: 2)
        let collection = try TaskCollection(Sample.collection.tasks, dependencies: [typed])
        let form = TaskForm.open(
            .unlink, task: collection["spec"], in: collection, language: .english, today: Sample.date("2026-09-15"))
        #expect(try form.operation(in: collection, newID: "n", language: .english) == .unlink(typed))
        #expect(form.fields[0].options.first == "Spec → Build (start → start, +2 wd)")
    }

    @Test("the link form sends a type and a lag; a lag that is no whole number is refused in words")
    func typedLink() throws {
        let spec = Sample.collection["spec"]!
        var form = TaskForm.open(
            .link, task: spec, in: Sample.collection, language: .english, today: Sample.date("2026-09-15"))
        form.fields[1].value = .picker(FieldPicker(.tasks, chosen: PickerOption(id: "release", label: "Release")))
        form.fields[2].value = .choice(try #require(form.fields[2].optionIDs.firstIndex { $0 == "finish-to-finish" }))
        form.fields[3].value = .text("−3")
        #expect(
            try form.operation(in: Sample.collection, newID: "n", language: .english)
                == .link(TaskDependency(predecessorID: "spec", successorID: "release", type: .finishToFinish, lag: -3)))
        form.fields[3].value = .text("1.5")
        #expect(throws: FormError.self) { try form.operation(in: Sample.collection, newID: "n", language: .english) }
    }

    @Test("the resource view watches the visible columns and rows with their buffers, after the coalescing delay")
    func resourceWatch() throws {
        var model = loaded()
        _ = model.handle(.key(.tab))
        let (query, _) = try ClientModelResourceTests.watchSent(by: &model, after: model.handle(.key(.tab)))
        #expect(query.resourceIDs == ["room-1"])
        #expect(query.start == LocalDateTime(startOf: Sample.date("2026-09-07")))
        let (moved, _) = try ClientModelResourceTests.watchSent(by: &model, after: model.handle(.key(.character("]"))))
        #expect(moved.start > query.start)
        #expect(model.resources.planner.state == .loading)
    }
}

@Suite("Command line")
struct PlanOptionsTests {
    @Test("options in any order, environment defaults")
    func parsing() throws {
        let options = try PlanOptions(
            arguments: ["--language", "de", "chart", "--zoom=4", "--plan", "p1", "--days", "30"],
            environment: ["PLAN_SERVER": "ws://x/ws", "PLAN_TOKEN": "t"])
        #expect(options.subcommand == .chart)
        #expect(options.language == .german && options.languageGiven)
        #expect(options.zoom == .fourDays)
        #expect(options.days == 30)
        #expect(options.server == "ws://x/ws")
        #expect(options.missingConnectionOptions.isEmpty)
        let propose = try PlanOptions(arguments: ["propose", "-", "--server", "ws://y/ws"])
        #expect(propose.file == "-")
        #expect(propose.missingConnectionOptions.count == 2)
        // German from the environment is not named on the command line (a config file's wins).
        let fromLocale = try PlanOptions(arguments: ["--title", "T"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(fromLocale.language == .german && !fromLocale.languageGiven)
        #expect(throws: PlanOptions.ParseError.self) { try PlanOptions(arguments: ["--zoom", "3"]) }
        #expect(PlanOptions.helpText(nil).contains("propose"))
    }

    @Test("propose accepts an op or a whole propose message")
    func proposalInput() throws {
        let op = #"{"type":"link","dependency":{"predecessorID":"spec","successorID":"release"}}"#
        let message = #"{"type":"propose","id":"a","plan":"p","baseVersion":1,"op":"# + op + "}"
        #expect(throws: Never.self) { try CommandSession.decodeProposal(Array(op.utf8)) }
        #expect(throws: Never.self) { try CommandSession.decodeProposal(Array(message.utf8)) }
    }
}
