import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// A stale edit in one step (as the web client's conflict.mjs): the form keeps the draft, says who
/// changed what at which version since it read its values, and offers "Apply mine to the current
/// version" (the draft on the current value) and Discard; Save, which would only repeat the
/// rejection, is gone.
@Suite("Interactive client model: stale edits")
struct ClientModelConflictTests {
    static let spec = Sample.collection["spec"]!

    /// Bob's change confirmed at `version`.
    static func confirmed(_ version: Int, by user: String = "bob", _ changes: PlanChanges) -> ClientEvent {
        .server(.confirmed(plan: "demo", version: version, mutationID: "m\(version)", user: user, changes: changes))
    }

    /// Ann's progress form on Spec (opened at v3) saved with `progress` and rejected as stale
    /// after bob renamed Spec and set its progress to 80 at v4; the rejected proposal.
    func staleProgress(_ language: PlanLanguage = .english) throws -> (ClientModel, PlanOperation) {
        var model = ClientModelRoleTests().loaded(.editor, language, height: 20)
        ClientModelFormTests().select("spec", in: &model)
        _ = model.handle(.key(.character("p")))
        #expect(model.form?.baseVersion == 3)
        let renamed = Self.spec.with(title: "Specification")
            .with(kind: .activity(schedule: Self.spec.schedule, progress: 80))
        _ = model.handle(Self.confirmed(4, PlanChanges(upsert: [renamed])))
        for _ in 0..<2 { _ = model.handle(.key(.backspace)) }
        type("55", into: &model)
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleTask, message: "", version: 4)))
        return (model, sent.operation)
    }

    @Test("a stale progress says who changed what since, keeps the draft; Apply mine puts it on the current task")
    func applyMine() throws {
        var (model, stale) = try staleProgress()
        let form = try #require(model.form)
        #expect(form.fields[0].text == "55")
        #expect(form.error == TerminalStrings(.english).rejection(.staleTask))
        #expect(
            form.conflict?.text
                == "Changed since by bob (v4): renamed “Spec” to “Specification”; "
                + "set the progress of “Specification” to 80 %.")
        #expect(form.conflict?.applicable == true)
        let text = model.render().text
        #expect(text.contains("[ Apply mine to the current version ]  [ Discard ]"))
        #expect(!text.contains("[ Save ]"))
        expectGolden(text, "screen-stale-edit-en")
        // Enter (on the field, or on Apply mine) sends the draft on the task as it is now: bob's
        // title stays, the progress is ann's.
        let applied = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        let current = try #require(model.collection?["spec"])
        #expect(
            applied.operation
                == .replace(
                    previous: current,
                    proposed: current.with(kind: .activity(schedule: Self.spec.schedule, progress: 55))))
        #expect(applied.operation != stale)
        #expect(model.form?.conflict == nil)
        #expect(model.form?.baseVersion == 4)
        _ = model.handle(.server(.ack(id: applied.id, plan: "demo", version: 5)))
        #expect(model.form == nil)
        #expect(model.message == "Saved.")
    }

    @Test("the stale edit's screen in German; Discard closes without a proposal")
    func german() throws {
        var (model, _) = try staleProgress(.german)
        expectGolden(model.render().text, "screen-stale-edit-de")
        #expect(model.render().text.contains("[ Meine Änderung auf die aktuelle Version anwenden ]  [ Verwerfen ]"))
        _ = model.handle(.key(.tab))  // Apply mine
        _ = model.handle(.key(.tab))  // Discard
        #expect(model.handle(.key(.enter)).isEmpty)
        #expect(model.form == nil)
    }

    @Test("a rejection that arrives before the change that made it stale: the words follow the change")
    func rejectionFirst() throws {
        var model = ClientModelRoleTests().loaded(.editor, height: 20)
        ClientModelFormTests().select("spec", in: &model)
        _ = model.handle(.key(.character("p")))
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleTask, message: "", version: 4)))
        #expect(model.form?.conflict == FormConflict(text: "", applicable: true))
        let later = Self.spec.with(kind: .activity(schedule: Self.spec.schedule, progress: 30))
        _ = model.handle(Self.confirmed(4, PlanChanges(upsert: [later])))
        #expect(model.form?.conflict?.text == "Changed since by bob (v4): set the progress of “Spec” to 30 %.")
        let applied = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        guard case .replace(let previous, _) = applied.operation else {
            Issue.record("no replace")
            return
        }
        #expect(previous == later)
    }

    @Test("a task removed since leaves only Discard; who changed it is named")
    func removed() throws {
        var model = ClientModelRoleTests().loaded(.editor, height: 20)
        ClientModelFormTests().select("spec", in: &model)
        _ = model.handle(.key(.character("e")))
        _ = model.handle(
            Self.confirmed(4, by: "carl", PlanChanges(remove: ["spec"], dependencies: [Sample.dependencies[1]])))
        type("!", into: &model)
        _ = model.handle(.key(.tab))  // Save
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleTask, message: "", version: 4)))
        let form = try #require(model.form)
        #expect(form.conflict == FormConflict(text: "Changed since by carl (v4): removed “Spec”.", applicable: false))
        #expect(form.focus == form.fields.count + 1, "Discard takes the focus")
        let text = model.render().text
        #expect(text.contains("[ Discard ]") && !text.contains("Apply mine"))
        _ = model.handle(.key(.up))  // back to the title, past the hidden slot
        #expect(model.form?.focus == 0)
        #expect(model.handle(.key(.enter)).isEmpty, "nothing to apply on")
        _ = model.handle(.key(.escape))
        #expect(model.form == nil)
    }

    @Test("only versions after the form read its values count; one that changed nothing of it is not named")
    func since() throws {
        var model = ClientModelRoleTests().loaded(.editor, height: 20)
        _ = model.handle(Self.confirmed(4, by: "carl", PlanChanges(upsert: [Self.spec.with(title: "Spec 2")])))
        ClientModelFormTests().select("spec", in: &model)
        _ = model.handle(.key(.character("p")))
        #expect(model.form?.baseVersion == 4)
        let build = Sample.collection["build"]!
        _ = model.handle(Self.confirmed(5, PlanChanges(upsert: [build.with(title: "Build it")])))
        let current = try #require(model.collection?["spec"])
        _ = model.handle(Self.confirmed(6, by: "dora", PlanChanges(upsert: [current.with(title: "Spec 3")])))
        _ = model.handle(.key(.tab))
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleTask, message: "", version: 6)))
        #expect(model.form?.conflict?.text == "Changed since by dora (v6): renamed “Spec 2” to “Spec 3”.")
    }

    @Test("stale settings: the calendar changed since; Apply mine replaces the current settings")
    func settings() throws {
        var model = ClientModelRoleTests().loaded(.owner, height: 24)
        _ = model.handle(.key(.character("S")))
        let holiday = try PlanCalendar(workingDays: [1, 2, 3, 4, 5, 6, 7], holidays: [Sample.date("2026-10-03")])
        let changed = PlanSettings(scheduling: .manual, calendar: holiday)
        _ = model.handle(Self.confirmed(4, PlanChanges(settings: changed)))
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }  // Save
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleSettings, message: "", version: 4)))
        #expect(model.form?.conflict?.text == "Changed since by bob (v4): changed the working days and holidays.")
        guard
            case .settingsReplace(let previous, let proposed)? = ClientModelFormTests().proposal(
                model.handle(.key(.enter)))?.operation
        else {
            Issue.record("no settings.replace")
            return
        }
        #expect(previous == changed)
        #expect(proposed.calendar.holidays.isEmpty, "the draft as it was typed")
    }

    @Test("a dependency removed since: named, only Discard")
    func dependency() throws {
        var model = ClientModelRoleTests().loaded(.editor, height: 20)
        ClientModelFormTests().select("spec", in: &model)
        _ = model.handle(.key(.character("L")))
        _ = model.handle(.key(.tab))
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        #expect(sent.operation == .unlink(Sample.dependencies[0]))
        _ = model.handle(Self.confirmed(4, PlanChanges(dependencies: [Sample.dependencies[1]])))
        _ = model.handle(
            .server(.rejected(id: sent.id, plan: "demo", code: .staleDependency, message: "", version: 4)))
        #expect(
            model.form?.conflict
                == FormConflict(
                    text: "Changed since by bob (v4): removed the dependency “Spec” → “Build”.", applicable: false))
    }

    @Test("a stale entry: what changed on it; Apply mine moves the entry as it is now")
    func entry() throws {
        var model = try ClientModelEntryTests().resourcesView()
        _ = model.handle(.key(.character("m")))
        #expect(model.form?.action == .moveEntry)
        _ = model.handle(.key(.shiftRight))  // a day later
        _ = model.handle(Self.confirmed(4, PlanChanges(entries: ["kickoff"])))
        // The watch's page brings the entry as bob left it (renamed).
        let query = try #require(model.resources.query)
        let renamed = try #require(model.resources.entries["kickoff"]).with(title: "Kick-off")
        let assignment = try #require(model.resources.assignments["kickoff-room"])
        _ = model.handle(
            .server(
                .page(
                    plan: "demo", watch: model.resources.watchID, version: 4, query: query,
                    page: TimelinePage(entries: [renamed], assignments: [assignment]))))
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .staleEntry, message: "", version: 4)))
        let form = try #require(model.form)
        #expect(form.conflict?.applicable == true)
        #expect(form.conflict?.text == "Changed since by bob (v4): renamed “Kickoff” to “Kick-off”.")
        guard
            case .timelineApply(let original, let proposed)? = ClientModelFormTests().proposal(
                model.handle(.key(.enter)))?.operation
        else {
            Issue.record("no timeline.apply")
            return
        }
        #expect(original.entry.title == "Kick-off")
        #expect(proposed.entry.title == "Kick-off")
        #expect(proposed.entry.start == (try LocalDateTime("2026-09-09T09:00")))
    }
}
