import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// Undo in the corners the contract names (protocol.md §5.8, §5.9): chains of undos, an undo of
/// a task removed since, an undo racing an edit through another server process, and baselines
/// set twice under one name in one batch.
@Suite("Server: undo chains, races and baseline batches", .serialized, .database)
struct UndoRaceTests {
    @Test("undo of an undo of an undo reverts again; each answer names the version it undid")
    func undoChain() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        let renamed = spec.with(title: "Spec 2")
        let edit = try await scene.commit(.replace(previous: spec, proposed: renamed))
        let undo = try await scene.commit(.undo(version: edit))
        #expect(scene.copy["spec"] == spec)
        let redo = try await scene.commit(.undo(version: undo))
        #expect(scene.copy["spec"] == renamed)
        let again = try await scene.commit(.undo(version: redo))
        #expect(scene.copy["spec"] == spec)
        guard case .confirmed(_, _, _, _, _, _, let undoes) = try await scene.confirmed(again) else { return }
        #expect(undoes == redo)
        // The history says the same: each undo names the version it undid.
        let page = try #require(try await scene.history().historyPage)
        #expect(page.entries.prefix(3).map(\.undoes) == [redo, undo, edit])
        // The first undo's values are current again: undoing it again is a redo once more.
        let once = try await scene.commit(.undo(version: undo))
        #expect(scene.copy["spec"] == renamed && once == again + 1)
    }

    @Test("undo of a version whose task was removed since is staleTask and changes nothing")
    func undoOfRemoved() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let review = scene.copy["review"]!
        let edit = try await scene.commit(.replace(previous: review, proposed: review.with(title: "Review 2")))
        try await scene.commit(.remove(previous: review.with(title: "Review 2")))
        try await UndoTests.expectRejected(.undo(version: edit), .staleTask, in: scene)
        #expect(scene.copy["review"] == nil)
    }

    @Test("an undo and an edit of the same task through two server processes: exactly one wins")
    func undoRacesEdit() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        let renamed = spec.with(title: "Spec 2")
        let edit = try await scene.commit(.replace(previous: spec, proposed: renamed))
        let other = try ServerProcess.start()
        let remote = try await TestClient.connected(to: other, token: scene.fixture.editorToken)
        defer { remote.close() }
        _ = try await remote.subscribe(scene.plan)
        for round in 0..<5 {
            let current = scene.copy["spec"]!
            let rival = current.with(title: "Rival \(round)")
            // Sent at once, one per process: both name the title the edit (or the last rival) left.
            let undoID = scene.editor.connection.propose(.undo(version: edit), plan: scene.plan)
            let rivalID = remote.connection.propose(.replace(previous: current, proposed: rival), plan: scene.plan)
            let undoAnswer = try await scene.editor.answer(to: undoID)
            let rivalAnswer = try await remote.answer(to: rivalID)
            // Judged by value, in one order across processes: whichever is first makes the other stale.
            let winners = [undoAnswer, rivalAnswer].filter { $0.ackVersion != nil }
            #expect(winners.count == 1, "round \(round): \(undoAnswer) \(rivalAnswer)")
            if undoAnswer.ackVersion == nil { #expect(undoAnswer.rejectionCode == .staleTask) }
            if rivalAnswer.ackVersion == nil { #expect(rivalAnswer.rejectionCode == .staleTask) }
            // Both copies and the store agree on the one outcome.
            let version = max(undoAnswer.ackVersion ?? 0, rivalAnswer.ackVersion ?? 0)
            // (A proposer hears its confirmed before its ack: it may be in the copy already.)
            if scene.copy.version < version { _ = try await scene.confirmed(version) }
            if remote.connection.copy(of: scene.plan)!.version < version {
                _ = try await remote.expect("confirmed") { $0.confirmedVersion == version }
            }
            #expect(remote.connection.copy(of: scene.plan) == scene.copy)
            let stored = try #require(try TestDatabase.store.loadPlan(scene.plan))
            #expect(stored.document.state.tasks.task(withID: "spec") == scene.copy["spec"])
            // Back to the edited title for the next round.
            if scene.copy["spec"] != renamed {
                try await scene.commit(.replace(previous: scene.copy["spec"]!, proposed: renamed))
            }
        }
    }

    @Test("one name set twice in one batch: both confirmed in order, the second moves the baseline")
    func baselineTwiceInABatch() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let base = scene.copy.version
        let first = scene.editor.connection.propose(.baselineSet(name: "Q3", version: 0), plan: scene.plan)
        let second = scene.editor.connection.propose(.baselineSet(name: "Q3", version: nil), plan: scene.plan)
        let blank = scene.editor.connection.propose(.baselineSet(name: " ", version: nil), plan: scene.plan)
        let firstAnswer = try await scene.editor.answer(to: first)
        let secondAnswer = try await scene.editor.answer(to: second)
        #expect(firstAnswer.ackVersion == base + 1 && secondAnswer.ackVersion == base + 2)
        #expect(try await scene.editor.answer(to: blank).rejectionCode == .badMessage)
        _ = try await scene.confirmed(base + 2)
        #expect(scene.copy.snapshot.baselines.map(\.name) == ["Q3"])
        #expect(scene.copy.snapshot.baselines.first?.version == base + 1)
    }
}
