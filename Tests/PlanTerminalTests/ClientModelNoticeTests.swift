import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Notices of other sessions' changes to the selected row and to the task an open form edits.
@Suite("Interactive client model: notices of others' changes")
struct ClientModelNoticeTests {
    static let spec = Sample.collection["spec"]!

    /// The sample plan loaded, `spec` selected.
    func onSpec(_ language: PlanLanguage = .english) -> ClientModel {
        var model = ClientModelTests().loaded(language)
        ClientModelFormTests().select("spec", in: &model)
        #expect(model.selectedTask?.id == "spec")
        return model
    }

    /// Version 4 from `user` under `mutationID`: Spec at `progress`, or removed.
    static func confirmed(
        _ mutationID: String = "b-1", user: String = "bob", progress: Double = 60, remove: [String] = []
    ) -> ClientEvent {
        let changes =
            remove.isEmpty
            ? PlanChanges(upsert: [spec.with(kind: .activity(schedule: spec.schedule, progress: progress))])
            : PlanChanges(remove: remove)
        return .server(.confirmed(plan: "demo", version: 4, mutationID: mutationID, user: user, changes: changes))
    }

    @Test("another session's change to the selected row is named in the footer, who and what, until the next key")
    func selectedRow() {
        var model = onSpec()
        _ = model.handle(Self.confirmed())
        #expect(model.message == "bob changed “Spec” (the row you are on)")
        #expect(model.render().lines.last?.contains("bob changed “Spec” (the row you are on)") == true)
        _ = model.handle(.key(.down))
        #expect(model.message == nil)
    }

    @Test("a change to another row, and the session's own change, say nothing")
    func nothingToSay() throws {
        var model = ClientModelTests().loaded()
        ClientModelFormTests().select("build", in: &model)
        _ = model.handle(Self.confirmed())
        #expect(model.message == nil)
        var own = onSpec()
        _ = own.handle(.key(.character("p")))
        _ = own.handle(.key(.backspace))
        _ = own.handle(.key(.backspace))
        type("60", into: &own)
        let sent = try #require(ClientModelFormTests().proposal(own.handle(.key(.enter))))
        _ = own.handle(Self.confirmed(sent.id, user: "ann"))
        #expect(own.message == nil)
    }

    @Test("the same user in another session is someone else too")
    func sameUserElsewhere() {
        var model = onSpec()
        _ = model.handle(Self.confirmed("web-7", user: "ann"))
        #expect(model.message == "ann changed “Spec” (the row you are on)")
    }

    @Test("a change to the task of an open form says so, and the draft stays; German")
    func openForm() {
        var model = onSpec(.german)
        _ = model.handle(.key(.character("e")))
        let draft = model.form?.fields.first?.text
        _ = model.handle(Self.confirmed())
        #expect(model.message == "bob hat „Spec“ geändert (in Ihrem offenen Formular)")
        #expect(model.form?.fields.first?.text == draft)
        #expect(model.render().lines.last?.contains("bob hat „Spec“ geändert") == true)
    }

    @Test("a removal of the selected row is named as one")
    func removal() {
        var model = ClientModelTests().loaded()
        ClientModelFormTests().select("review", in: &model)
        _ = model.handle(Self.confirmed(remove: ["review"]))
        #expect(model.message == "bob removed “Review” (the row you are on)")
        var german = ClientModelTests().loaded(.german)
        ClientModelFormTests().select("review", in: &german)
        _ = german.handle(Self.confirmed(remove: ["review"]))
        #expect(german.message == "bob hat „Review“ entfernt (Ihre Zeile)")
    }
}
