import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// The plan details (`I`): the calendar address asked for once, when first shown, and shown whole
/// from the left edge with what it means, in both languages.
@Suite("Interactive client model: plan details and the calendar address")
struct ClientModelPlanInfoTests {
    static let path = "/plans/demo/calendar.ics?key=Qm9vAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_x"

    func loaded(_ language: PlanLanguage = .english, width: Int = 100, connected: Bool = true) -> ClientModel {
        var settings = ClientModelTests.settings
        settings.language = language
        settings.serverOrigin = "https://plans.example:8443"
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: width, height: 20))
        if connected { _ = model.handle(.welcome(user: "ann")) }
        _ = model.handle(.copy(Sample.copy(role: .viewer)))
        return model
    }

    /// The ref of the one `requestFeed` among `actions`.
    func feedRef(_ actions: [ClientAction]) -> String? {
        let refs = actions.compactMap { action -> String? in
            if case .requestFeed(let ref) = action { return ref }
            return nil
        }
        return refs.count == 1 ? refs[0] : nil
    }

    @Test("I asks once; the answer shows the whole address from the left edge; golden in English and German")
    func shown() throws {
        var model = loaded()
        #expect(feedRef(model.handle(.copy(Sample.copy(role: .viewer)))) == nil)  // not at the start
        let ref = try #require(feedRef(model.handle(.key(.character("I")))))
        #expect(model.render().text.contains("Asking for the calendar address…"))
        _ = model.handle(.server(.feed(plan: "demo", path: Self.path, ref: ref)))
        let url = "https://plans.example:8443" + Self.path
        #expect(model.feedURL == url)
        let screen = model.render().text
        #expect(screen.split(separator: "\n").contains { $0.hasPrefix(url) })
        expectGolden(screen, "screen-plan-info-en")
        // Closed by any key, and shown again without asking again.
        #expect(model.handle(.key(.character("x"))).isEmpty)
        #expect(!model.planInfo.shown)
        #expect(feedRef(model.handle(.key(.character("I")))) == nil)
        #expect(model.render().text.contains(url))

        var german = loaded(.german, width: 60)
        let germanRef = try #require(feedRef(german.handle(.key(.character("I")))))
        _ = german.handle(.server(.feed(plan: "demo", path: Self.path, ref: germanRef)))
        let lines = german.render().text.split(separator: "\n").map(String.init)
        // Wider than the screen: cut into whole lines from the left edge, nothing between them.
        let start = try #require(lines.firstIndex { $0.hasPrefix("https://") })
        #expect((lines[start] + lines[start + 1]).hasPrefix(url))
        expectGolden(german.render().text, "screen-plan-info-de")
    }

    @Test("a refusal is said, and showing the details again asks again; asked on the welcome when opened offline")
    func refusedAndOffline() throws {
        var model = loaded()
        let ref = try #require(feedRef(model.handle(.key(.character("I")))))
        _ = model.handle(.server(.error(code: .unknownPlan, message: "no plan \"demo\"", ref: ref)))
        #expect(model.render().text.contains("No calendar address: no plan \"demo\""))
        #expect(model.message == nil)
        _ = model.handle(.key(.escape))
        #expect(feedRef(model.handle(.key(.character("I")))) != nil)

        var offline = loaded(connected: false)
        #expect(feedRef(offline.handle(.key(.character("I")))) == nil)
        let asked = try #require(feedRef(offline.handle(.welcome(user: "ann"))))
        // A drop while asking: asked again on the next welcome; the old answer is not taken.
        _ = offline.handle(.disconnected(reason: "cut", willReconnect: true))
        let again = try #require(feedRef(offline.handle(.welcome(user: "ann"))))
        #expect(again != asked)
        _ = offline.handle(.server(.feed(plan: "demo", path: "/old", ref: asked)))
        #expect(offline.feedURL == nil)
        _ = offline.handle(.server(.feed(plan: "demo", path: Self.path, ref: again)))
        #expect(offline.feedURL == "https://plans.example:8443" + Self.path)
    }

    @Test("the help names the key in both languages")
    func help() {
        #expect(loaded().helpLines.contains("I            plan details and calendar address"))
        #expect(loaded(.german).helpLines.contains("I            Plan: Details und Kalenderadresse"))
    }
}
