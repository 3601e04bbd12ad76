import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// Bad input to `history`, `fetch`, `undo` and baselines through a real server (protocol.md §9,
/// §10): each gets the answer the contract names, and the plan stays as it was.
@Suite("Server: bad history, fetch and undo input", .serialized, .database)
struct HistoryBadInputTests {
    /// Sends `json` (a request written by hand, `REF` standing for its ref) and returns the answer.
    static func raw(_ json: String, in scene: HistoryScene) async throws -> ServerMessage {
        let ref = TestDatabase.unique("raw")
        scene.editor.connection.sendRaw(Array(json.replacing("REF", with: ref).utf8))
        return try await scene.editor.nextMessage(matching: ref)
    }

    /// Expects the plan as `before` for a new subscriber (nothing was confirmed).
    static func expectUnchanged(
        _ before: ClientPlanCopy, in scene: HistoryScene, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let fresh = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { fresh.close() }
        let copy = try await fresh.subscribe(scene.plan)
        #expect(copy.version == before.version && copy == before, sourceLocation: sourceLocation)
    }

    @Test("history: before 0, negative, below logStart, above the current version, not a number; limit's default 50")
    func historyBounds() async throws {
        let scene = try await HistoryScene(arguments: ["--log-keep", "55", "--checkpoint-every", "20"])
        defer { scene.close() }
        for index in 1...60 { _ = try await HistoryLogStartTests.rename(index, in: scene) }
        let before = scene.copy
        let full = try #require(try await scene.history().historyPage)
        #expect(full.entries.count == 50 && full.more, "the default limit")
        #expect(full.entries.map(\.version) == Array((11...60).reversed()))
        let start = full.logStart
        #expect(start >= 5 && start < 11, "logStart \(start)")
        #expect(try await scene.history(before: 0).errorCode == .historyUnavailable)
        #expect(try await scene.history(before: -3).errorCode == .historyUnavailable)
        let below = try #require(try await scene.history(before: start).historyPage)
        #expect(below.entries.isEmpty && !below.more && below.logStart == start)
        let oldest = try #require(try await scene.history(before: start + 2).historyPage)
        #expect(oldest.entries.map(\.version) == [start + 1, start] && !oldest.more, "the start's row is listed")
        let above = try #require(try await scene.history(before: 1_000, limit: 2).historyPage)
        #expect(above.entries.map(\.version) == [60, 59] && above.more)
        let plan = scene.plan
        let text = try await Self.raw(#"{"type":"history","plan":"\#(plan)","before":"40","ref":"REF"}"#, in: scene)
        #expect(text.errorCode == .badMessage, "\(text)")
        let fraction = try await Self.raw(#"{"type":"history","plan":"\#(plan)","before":4.5,"ref":"REF"}"#, in: scene)
        #expect(fraction.errorCode == .badMessage, "\(fraction)")
        try await Self.expectUnchanged(before, in: scene)
    }

    @Test("undo of a negative version or a non-number, fetch of a non-number: refused, the plan unchanged")
    func undoAndFetchNotNumbers() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let renamed = try await HistoryLogStartTests.rename(1, in: scene)
        let before = scene.copy
        try await UndoTests.expectRejected(.undo(version: -1), .historyUnavailable, in: scene)
        for version in [#""1""#, "null", "1.5", "[1]"] {
            let answer = try await scene.editor.proposeRaw(
                id: TestDatabase.unique("bad"), plan: scene.plan, baseVersion: renamed,
                op: #"{"type":"undo","version":\#(version)}"#)
            #expect(answer.rejectionCode == .badMessage, "undo of \(version): \(answer)")
            let fetched = try await Self.raw(
                #"{"type":"fetch","plan":"\#(scene.plan)","version":\#(version),"ref":"REF"}"#, in: scene)
            #expect(fetched.errorCode == .badMessage, "fetch of \(version): \(fetched)")
        }
        #expect(try await scene.fetch(-1).errorCode == .historyUnavailable)
        #expect(try await scene.fetch(renamed + 1).errorCode == .historyUnavailable)
        try await Self.expectUnchanged(before, in: scene)
    }

    @Test("a baseline name is counted in Unicode scalars: 128 accepted (also two-byte ones), 129 refused")
    func baselineNameLength() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        for (character, count) in [("x", 128), ("ü", 128), ("🗓", 128)] {
            let name = String(repeating: character, count: count)
            #expect(name.unicodeScalars.count == 128 && name.utf8.count >= 128)
            let version = try await scene.commit(.baselineSet(name: name, version: nil))
            #expect(scene.copy.snapshot.baselines.contains { $0.name == name && $0.version == version - 1 })
        }
        let before = scene.copy
        for name in [String(repeating: "x", count: 129), String(repeating: "ü", count: 129)] {
            var writer = JSONWriter()
            writer.string(name)
            let answer = try await scene.editor.proposeRaw(
                id: TestDatabase.unique("long"), plan: scene.plan, baseVersion: before.version,
                op: #"{"type":"baseline.set","name":\#(writer.string)}"#)
            #expect(answer.rejectionCode == .badMessage, "\(answer)")
        }
        try await Self.expectUnchanged(before, in: scene)
    }
}
