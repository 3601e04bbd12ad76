import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// The session's role, followed live (protocol.md §11): the heading names it, viewers get no form
/// that proposes, only owners the settings; a form the new role does not allow closes; a role that
/// ends is said.
@Suite("Interactive client model: roles")
struct ClientModelRoleTests {
    /// Ann's client on the demo plan (v3) whose snapshot names `role`.
    func loaded(_ role: PlanRole?, _ language: PlanLanguage = .english, height: Int = 14) -> ClientModel {
        var settings = ClientModelTests.settings
        settings.language = language
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: 100, height: height))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy(role: role)))
        return model
    }

    func select(_ id: String, in model: inout ClientModel) {
        ClientModelFormTests().select(id, in: &model)
    }

    func press(_ keys: String, _ model: inout ClientModel) -> [ClientAction] {
        keys.flatMap { model.handle(.key(.character($0))) }
    }

    static func role(_ role: PlanRole) -> ClientEvent { .server(.role(plan: "demo", role: role)) }
    static let ended = ClientEvent.server(
        .planError(code: .forbidden, message: "you no longer have a role on \"demo\"", plan: "demo"))

    @Test("the heading names the role in both languages; a viewer's edit key says so in the footer")
    func headings() {
        var viewer = loaded(.viewer)
        #expect(heading(of: viewer.render().text).hasSuffix("connected · v3 · role: viewer"))
        _ = press("p", &viewer)
        expectGolden(viewer.render().text, "screen-role-viewer-en")
        var german = loaded(.viewer, .german)
        _ = german.handle(.key(.down))
        _ = press("d", &german)
        expectGolden(german.render().text, "screen-role-viewer-de")
        #expect(heading(of: loaded(.editor).render().text).hasSuffix("connected · v3 · role: editor"))
        #expect(heading(of: loaded(.owner, .german).render().text).hasSuffix("verbunden · v3 · Rolle: Eigentümer"))
        // A server that names no role: no role in the heading, every form (the server decides).
        #expect(heading(of: loaded(nil).render().text).hasSuffix("connected · v3"))
    }

    @Test("a viewer gets no form that proposes and no undo; its details list no actions")
    func viewer() throws {
        var model = loaded(.viewer, height: 30)
        select("spec", in: &model)
        for key in "edumoacxlLbzZS" {
            #expect(press(String(key), &model).isEmpty)
            #expect(model.form == nil, "\(key)")
            #expect(model.message == TerminalStrings(.english).viewerMayNotEdit, "\(key)")
        }
        _ = model.handle(.key(.enter))
        #expect(model.form?.action == .info)
        #expect(!model.render().text.contains("Actions:"))
        _ = press("p", &model)  // refused, the details stay
        #expect(model.form?.action == .info)
        #expect(model.message == TerminalStrings(.english).viewerMayNotEdit)
        // The history view: z undoes nothing.
        var history = try ClientModelHistoryTests().loaded()
        _ = history.handle(Self.role(.viewer))
        for _ in 0..<3 { _ = history.handle(.key(.tab)) }
        #expect(history.mode == .history)
        #expect(press("z", &history).isEmpty)
        #expect(history.message == TerminalStrings(.english).viewerMayNotEdit)
        var empty = loaded(.viewer)
        _ = empty.handle(.copy(Sample.copy(TaskCollection(), role: .viewer)))
        #expect(empty.render().text.contains("This plan has no tasks yet."))
        #expect(!empty.render().text.contains("Press “a”"))
    }

    @Test("only an owner gets the settings form; an editor is told why and gets every other form")
    func ownersOnly() {
        var editor = loaded(.editor)
        _ = press("S", &editor)
        #expect(editor.form == nil)
        #expect(editor.message == TerminalStrings(.english).ownersOnly(.editor))
        select("spec", in: &editor)
        _ = press("p", &editor)
        #expect(editor.form?.action == .progress)
        var owner = loaded(.owner)
        _ = press("S", &owner)
        #expect(owner.form?.action == .settings)
    }

    @Test("promoted, a viewer gets the forms at once; demoted, an open draft closes and says it was not sent")
    func promotedAndDemoted() throws {
        let strings = TerminalStrings(.english)
        var model = loaded(.viewer, height: 30)
        select("spec", in: &model)
        _ = model.handle(.key(.enter))  // the details: no actions for a viewer
        _ = model.handle(Self.role(.editor))
        #expect(model.message == "You are now an editor.")
        #expect(model.form?.action == .info)
        #expect(model.render().text.contains("p Progress"), "the details list the actions now")
        _ = model.handle(.key(.escape))
        _ = press("p", &model)
        #expect(model.form?.action == .progress)
        _ = model.handle(Self.role(.viewer))
        #expect(model.form == nil)
        #expect(model.message == "You are now a viewer: your draft was not sent.")
        #expect(model.role == .viewer)
        // A draft already sent is the server's to decide: the form closes, the answer comes later.
        _ = model.handle(Self.role(.owner))
        #expect(model.message == strings.nowRole(.owner) + ".")
        _ = press("p", &model)
        _ = model.handle(.key(.backspace))
        let sent = try #require(ClientModelFormTests().proposal(model.handle(.key(.enter))))
        _ = model.handle(Self.role(.viewer))
        #expect(model.form == nil)
        #expect(model.message == "You are now a viewer.")
        _ = model.handle(.server(.rejected(id: sent.id, plan: "demo", code: .forbidden, message: "", version: 3)))
        #expect(model.message == strings.rejected(.forbidden))
        #expect(model.pending.isEmpty)
    }

    @Test("owner to editor closes the settings form but not a task form; a role in a resumed copy counts too")
    func settingsForm() {
        var model = loaded(.owner, .german)
        _ = press("S", &model)
        #expect(model.form?.action == .settings)
        _ = model.handle(Self.role(.editor))
        #expect(model.form == nil)
        #expect(model.message == "Sie sind jetzt Bearbeiter: Ihr Entwurf wurde nicht gesendet.")
        select("spec", in: &model)
        _ = press("p", &model)
        _ = model.handle(Self.role(.owner))
        #expect(model.form?.action == .progress)
        // After a reconnect the connection's copy (from `resumed`) names the role.
        _ = model.handle(.copy(Sample.copy(role: .viewer)))
        #expect(model.form == nil)
        #expect(model.role == .viewer)
        #expect(model.message == "Sie sind jetzt Betrachter: Ihr Entwurf wurde nicht gesendet.")
    }

    @Test("in the resources view a viewer gets the details but no entry form")
    func resources() throws {
        var (model, _) = try ClientModelResourceTests().resourcesView()
        _ = model.handle(Self.role(.viewer))
        #expect(model.message == nil, "the first role named is no change to announce")
        for key in "amserx" {
            _ = press(String(key), &model)
            #expect(model.form == nil, "\(key)")
            #expect(model.message == TerminalStrings(.english).viewerMayNotEdit)
        }
        _ = model.handle(.key(.enter))
        #expect(model.form?.action == .entryDetails)
        #expect(!model.render().text.contains("m Move entry"))
        _ = press("m", &model)
        #expect(model.form?.action == .entryDetails)
        _ = model.handle(Self.role(.editor))
        #expect(model.render().text.contains("m Move entry"))
    }

    @Test("a role that ends closes the form, says whether the draft was sent, and stops asking the server")
    func ended() {
        var model = loaded(.editor)
        select("spec", in: &model)
        _ = press("p", &model)
        _ = model.handle(Self.ended)
        #expect(model.form == nil)
        #expect(model.message == TerminalStrings(.english).roleEndedDraft)
        #expect(model.roleEnded && model.role == nil)
        expectGolden(model.render().text, "screen-role-ended-en")
        _ = press("e", &model)
        #expect(model.message == "You no longer have a role on “Demo”.")
        _ = model.handle(.key(.tab))
        let resources = model.handle(.key(.tab))
        #expect(model.mode == .resources)
        #expect(resources.isEmpty, "no watch: \(resources)")

        var german = loaded(.owner, .german)
        select("spec", in: &german)
        _ = press("p", &german)
        _ = german.handle(.key(.backspace))
        let sent = ClientModelFormTests().proposal(german.handle(.key(.enter)))
        // A resubscription refused after a reconnect ends it too.
        _ = german.handle(.server(.error(code: .unknownPlan, message: "no plan \"demo\" is visible to you")))
        #expect(german.message == TerminalStrings(.german).roleEndedSent)
        expectGolden(german.render().text, "screen-role-ended-de")
        _ = german.handle(
            .server(.rejected(id: sent?.id ?? "", plan: "demo", code: .unknownPlan, message: "", version: nil)))
        #expect(german.message == "Sie haben keine Rolle mehr in „Demo“.")
    }
}
