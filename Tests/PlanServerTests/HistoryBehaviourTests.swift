import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// The behaviours of protocol.md §9–§10 not covered elsewhere, through real sockets: stale
/// assignments, baseline removals, reorders after a sibling, viewers, fetch-only connections and
/// `changes.baselines`.
@Suite("Server: more of history and undo", .serialized, .database)
struct HistoryBehaviourTests {
    @Test("undo of an assignment changed since is rejected staleAssignment; of baseline.remove, notUndoable")
    func staleAssignmentAndBaselineRemove() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let workshop = try await scene.editor.timelinePage(scene.plan).assigned("e1")
        var moved = workshop
        moved.assignment = try TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-2")
        let first = try await scene.commit(.timelineApply(original: workshop, proposed: moved))
        var back = moved
        back.assignment = try TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-1")
        // Only the assignment changes again (the entry as the undo names it is still current).
        try await scene.commit(.timelineApply(original: moved, proposed: back))
        try await UndoTests.expectRejected(.undo(version: first), .staleAssignment, in: scene)
        try await scene.commit(.baselineSet(name: "Q3", version: nil))
        let removed = try await scene.commit(.baselineRemove(name: "Q3"))
        try await UndoTests.expectRejected(.undo(version: removed), .notUndoable, in: scene)
    }

    @Test("undo of a reorder puts the task back after the sibling it followed (it was last)")
    func reorderAfter() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        // review is the last child of design: its undo moves it back after spec.
        #expect(scene.copy.tasks.map(\.id).prefix(3) == ["design", "spec", "review"])
        try await UndoTests.roundTrip(
            .reorder(previous: scene.copy["review"]!, relativeTo: scene.copy["spec"]!, position: .before), in: scene)
        let page = try #require(try await scene.history(limit: 2).historyPage)
        let undo = try #require(page.entries.last?.opJSON)
        #expect(undo.contains(#""position":"after""#) && undo.contains(#""relativeTo""#), "\(undo)")
    }

    @Test("a viewer reads history and fetches; a fetch starts no subscription")
    func viewerAndFetchOnly() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let first = try await HistoryLogStartTests.rename(1, in: scene)
        let viewer = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { viewer.close() }
        let page = try #require(try await scene.history(client: viewer).historyPage)
        #expect(page.entries.map(\.version) == [first])
        #expect(try await scene.fetch(0, client: viewer).snapshotCopy == scene.copies[0])
        // The editor's next version is acked after every subscriber's confirmed was queued; the
        // viewer's next message is the answer it asks for after that ack, not a confirmed.
        let next = try await HistoryLogStartTests.rename(2, in: scene)
        let ref = TestDatabase.unique("after")
        viewer.connection.sendRaw(ClientMessage.history(plan: scene.plan, before: nil, limit: 1, ref: ref).bytes)
        let answer = try await viewer.nextMessage()
        #expect(answer.ref == ref && answer.historyPage?.entries.first?.version == next, "\(answer)")
        #expect(viewer.connection.copy(of: scene.plan) == nil)
    }

    @Test("changes.baselines is present only when the list changed")
    func baselinesOnlyWhenChanged() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let set = try await scene.commit(.baselineSet(name: "Q3", version: nil))
        let renamed = try await HistoryLogStartTests.rename(1, in: scene)
        guard case .confirmed(_, _, _, _, let setChanges, _, _) = try await scene.confirmed(set),
            case .confirmed(_, _, _, _, let changes, _, _) = try await scene.confirmed(renamed)
        else { throw HarnessError("no confirmed") }
        #expect(setChanges.baselines?.map(\.name) == ["Q3"])
        #expect(changes.baselines == nil)
        let page = try #require(try await scene.history(limit: 2).historyPage)
        #expect(page.entries.map { $0.changesJSON.contains(#""baselines""#) } == [false, true])
    }
}
