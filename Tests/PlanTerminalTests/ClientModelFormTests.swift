import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("Interactive client model: forms, task details and each view's collapsed groups")
struct ClientModelFormTests {
    func loaded(_ language: PlanLanguage = .english, height: Int = 24) -> ClientModel {
        ClientModelTests().loaded(language, height: height)
    }

    func select(_ id: String, in model: inout ClientModel) {
        while model.selectedTask?.id != id, model.selectedIndex < model.outline.count - 1 {
            _ = model.handle(.key(.down))
        }
    }

    func proposal(_ actions: [ClientAction]) -> (operation: PlanOperation, id: String)? {
        guard case .propose(let operation, let id)? = actions.first else { return nil }
        return (operation, id)
    }

    @Test("Enter on the only field saves; on another field it moves on, on the last one it saves")
    func enterSaves() throws {
        var model = loaded()
        select("spec", in: &model)
        _ = model.handle(.key(.character("u")))
        _ = model.handle(.key(.backspace))
        type("4", into: &model)
        let saved = try #require(proposal(model.handle(.key(.enter))))
        let spec = Sample.collection["spec"]!
        #expect(
            saved.operation
                == .replace(
                    previous: spec,
                    proposed: spec.with(
                        kind: .activity(
                            schedule: try TaskSchedule(start: Sample.date("2026-09-08"), days: 4), progress: 20))))
        // The add form: Enter walks title → kind → start → days → group, and saves there.
        var adding = loaded()
        _ = adding.handle(.key(.character("a")))
        type("Launch", into: &adding)
        for field in 1...4 {
            #expect(adding.handle(.key(.enter)).isEmpty)
            #expect(adding.form?.focus == field)
        }
        guard case .add(let task)? = proposal(adding.handle(.key(.enter)))?.operation else {
            Issue.record("no add")
            return
        }
        #expect(task.title == "Launch")
    }

    @Test("Save is disabled (dim) and says why while a title is blank; nothing is proposed")
    func blankTitle() throws {
        var model = loaded()
        select("spec", in: &model)
        _ = model.handle(.key(.character("e")))
        for _ in 0..<4 { _ = model.handle(.key(.backspace)) }
        let form = try #require(model.form)
        #expect(!form.canSave)
        #expect(model.handle(.key(.enter)).isEmpty)
        _ = model.handle(.key(.tab))  // Save: still nothing
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(model.pending.isEmpty)
        let screen = model.render()
        expectGolden(screen.text, "screen-form-blank-en")
        let line = try #require(screen.lines.firstIndex { $0.contains("[ Save ]") })
        let x = Array(screen.lines[line]).firstIndex(of: "[")!
        #expect(screen.style(x: x + 2, y: line) == .dim)
        type("Spec 2", into: &model)  // typed into Save: nothing; back to the title
        _ = model.handle(.key(.up))
        type("Specification", into: &model)
        #expect(model.form?.canSave == true)
        #expect(proposal(model.handle(.key(.enter))) != nil)
    }

    @Test("a task form keeps its proposal id until the server decides; an added task keeps its id")
    func proposalIDs() throws {
        var model = loaded()
        select("spec", in: &model)
        _ = model.handle(.key(.character("p")))
        _ = model.handle(.key(.backspace))
        _ = model.handle(.key(.backspace))
        type("70", into: &model)
        let first = try #require(proposal(model.handle(.key(.enter))))
        for code in [RejectionCode.unavailable, .rateLimited] {
            _ = model.handle(.server(.rejected(id: first.id, plan: "demo", code: code, message: "", version: 3)))
            #expect(model.form?.error == TerminalStrings(.english).rejection(code))
            let retry = try #require(proposal(model.handle(.key(.enter))))
            #expect(retry.id == first.id)
            #expect(retry.operation == first.operation)
        }
        _ = model.handle(.server(.rejected(id: first.id, plan: "demo", code: .staleTask, message: "", version: 4)))
        let afterDecision = try #require(proposal(model.handle(.key(.enter))))
        #expect(afterDecision.id != first.id)

        var adding = loaded()
        _ = adding.handle(.key(.character("a")))
        type("Launch", into: &adding)
        _ = adding.handle(.key(.backTab))  // Close
        _ = adding.handle(.key(.backTab))  // Save
        let added = try #require(proposal(adding.handle(.key(.enter))))
        _ = adding.handle(
            .server(.rejected(id: added.id, plan: "demo", code: .invalidSchedule, message: "", version: 3)))
        let again = try #require(proposal(adding.handle(.key(.enter))))
        guard case .add(let one) = added.operation, case .add(let two) = again.operation else {
            Issue.record("no adds")
            return
        }
        #expect(one.id == two.id)
        #expect(again.id != added.id)
    }

    @Test("a no-op reorder closes its form silently; another no-op says nothing changed")
    func silentReorder() throws {
        var model = loaded()
        select("spec", in: &model)
        _ = model.handle(.key(.character("o")))
        #expect(model.form?.action == .order)
        _ = model.handle(.key(.down))
        let order = try #require(proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.ack(id: order.id, plan: "demo", version: 3, noop: true)))
        #expect(model.form == nil)
        #expect(model.message == nil)
        _ = model.handle(.key(.character("e")))
        let title = try #require(proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.ack(id: title.id, plan: "demo", version: 3, noop: true)))
        #expect(model.message == TerminalStrings(.english).unchanged)
    }

    @Test("Enter on a task opens its details with the actions its kind allows; an action's key opens it")
    func taskDetails() throws {
        var model = loaded()
        select("build", in: &model)
        _ = model.handle(.key(.enter))
        #expect(model.form?.action == .info)
        #expect(model.form?.canSave == false)
        expectGolden(model.render().text, "screen-task-details-en")
        _ = model.handle(.key(.character("p")))
        #expect(model.form?.action == .progress)
        _ = model.handle(.key(.escape))
        var german = loaded(.german)
        _ = german.handle(.key(.character("i")))  // Design, a summary: its actions only
        expectGolden(german.render().text, "screen-task-details-de")
        #expect(german.handle(.key(.character("p"))).isEmpty)
        #expect(german.form?.action == .info)
        _ = german.handle(.key(.enter))  // Close has the focus
        #expect(german.form == nil)
    }

    @Test("the list and the timeline keep their own collapsed groups; the selection follows the task")
    func collapsedPerView() {
        var model = loaded()
        _ = model.handle(.key(.character(" ")))  // collapse Design in the list
        #expect(model.rows.map(\.id) == ["design", "impl", "build", "release"])
        select("build", in: &model)
        _ = model.handle(.key(.tab))
        #expect(model.mode == .timeline)
        #expect(model.rows.map(\.id) == ["design", "spec", "review", "impl", "build", "release"])
        #expect(model.selectedTask?.id == "build")
        _ = model.handle(.key(.up))
        _ = model.handle(.key(.character(" ")))  // collapse Implementation in the timeline
        #expect(model.rows.map(\.id) == ["design", "spec", "review", "impl", "release"])
        expectGolden(model.render().text, "screen-timeline-collapsed-en")
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        #expect(model.mode == .list)
        #expect(model.rows.map(\.id) == ["design", "impl", "build", "release"])
        #expect(model.selectedTask?.id == "impl")
        #expect(model.collapsed == ["design"])
        #expect(model.taskViews.timeline.collapsed == ["impl"])
    }
}
