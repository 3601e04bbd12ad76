import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// Undo and redo through a real server and PostgreSQL (protocol.md §10).
@Suite("Server: undo and redo", .serialized, .database)
struct UndoTests {
    /// The plan data two copies are compared by (versions aside): tasks in order, dependencies,
    /// summaries and baselines.
    struct PlanData: Equatable {
        let tasks: [GanttTask]
        let dependencies: Set<TaskDependency>
        let summaries: [String: SummaryValues]
        let baselines: [PlanBaseline]

        init(_ copy: ClientPlanCopy) {
            tasks = copy.tasks
            dependencies = Set(copy.dependencies)
            summaries = copy.summaries
            baselines = copy.snapshot.baselines
        }
    }

    /// Commits `operation`, undoes it, then redoes it (undoes the undo), checking the data after
    /// each step: back to the values before, then to the values after.
    static func roundTrip(_ operation: PlanOperation, in scene: HistoryScene) async throws {
        let before = PlanData(scene.copy)
        let beforePage = try await scene.editor.timelinePage(scene.plan)
        let version = try await scene.commit(operation)
        let after = PlanData(scene.copy)
        let afterPage = try await scene.editor.timelinePage(scene.plan)
        let undo = try await scene.commit(.undo(version: version))
        #expect(PlanData(scene.copy) == before, "undo of \(operation.typeName)")
        let undonePage = try await scene.editor.timelinePage(scene.plan)
        #expect(Set(undonePage.entries) == Set(beforePage.entries), "undo of \(operation.typeName)")
        #expect(Set(undonePage.assignments) == Set(beforePage.assignments), "undo of \(operation.typeName)")
        guard case .confirmed(_, _, _, _, _, let at, let undoes) = try await scene.confirmed(undo) else { return }
        #expect(undoes == version)
        #expect(at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "at: \(at)")
        let redo = try await scene.commit(.undo(version: undo))
        #expect(PlanData(scene.copy) == after, "redo of \(operation.typeName)")
        let redonePage = try await scene.editor.timelinePage(scene.plan)
        #expect(Set(redonePage.entries) == Set(afterPage.entries), "redo of \(operation.typeName)")
        #expect(Set(redonePage.assignments) == Set(afterPage.assignments), "redo of \(operation.typeName)")
        guard case .confirmed(_, _, _, _, _, _, let redoes) = try await scene.confirmed(redo) else { return }
        #expect(redoes == undo)
    }

    @Test("every op of the inverse table is undone to the values before it and redone to the values after it")
    func inverseTable() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let copy = scene.copy
        let spec = copy["spec"]!
        try await Self.roundTrip(.replace(previous: spec, proposed: spec.with(title: "Specification")), in: scene)
        let extra = try GanttTask(
            id: "extra", title: "Extra", parentID: "impl", kind: .activity(schedule: nil, progress: 0))
        try await Self.roundTrip(.add(extra), in: scene)
        // A leaf in the middle, and one with a dependency on each side.
        try await Self.roundTrip(.remove(previous: scene.copy["review"]!), in: scene)
        try await Self.roundTrip(.remove(previous: scene.copy["build"]!), in: scene)
        try await Self.roundTrip(
            .reorder(previous: scene.copy["release"]!, relativeTo: scene.copy["design"]!, position: .before), in: scene)
        // Each round trip ends redone: review and build are gone now.
        let link = TaskDependency(predecessorID: "spec", successorID: "release")
        try await Self.roundTrip(.link(link), in: scene)
        try await Self.roundTrip(.unlink(link), in: scene)
        let page = try await scene.editor.timelinePage(scene.plan)
        let workshop = try page.assigned("e1")
        let moved = try workshop.entry.with(start: Demo.time("2026-09-10T09:00"), end: Demo.time("2026-09-10T11:00"))
        var reassigned = workshop
        reassigned.entry = moved
        reassigned.assignment = try TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-2")
        try await Self.roundTrip(.timelineApply(original: workshop, proposed: reassigned), in: scene)
        let party = try TimelineEntry(
            id: "e3", title: "Party", start: Demo.time("2026-09-25T17:00"), end: Demo.time("2026-09-25T22:00"))
        try await Self.roundTrip(
            .timelineAdd(
                entry: party, assignments: [try TimelineAssignment(id: "a3", entryID: "e3", resourceID: "room-1")]),
            in: scene)
        let retro = try page.assigned("e2").entry
        try await Self.roundTrip(.timelineRemove(entry: retro), in: scene)
        // The last undo is not a shortcut: a fresh subscriber sees what the editor's copy holds.
        let fresh = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { fresh.close() }
        #expect(try await fresh.subscribe(scene.plan) == scene.copy)
    }

    @Test("an undo whose values changed since is rejected with the stale code, and changes nothing")
    func staleUndos() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        let renamed = try await scene.commit(.replace(previous: spec, proposed: spec.with(title: "B")))
        try await scene.commit(.replace(previous: spec.with(title: "B"), proposed: spec.with(title: "C")))
        try await Self.expectRejected(.undo(version: renamed), .staleTask, in: scene)
        // An added group that has a child now cannot be removed by its undo.
        let group = try await scene.commit(.add(try GanttTask(id: "g", title: "G", kind: .summary)))
        try await scene.commit(
            .add(try GanttTask(id: "g1", title: "G1", parentID: "g", kind: .activity(schedule: nil, progress: 0))))
        try await Self.expectRejected(.undo(version: group), .invalidHierarchy, in: scene)
        // A link removed since: its undo (an unlink) names a dependency that is gone.
        let link = TaskDependency(predecessorID: "review", successorID: "build")
        let linked = try await scene.commit(.link(link))
        try await scene.commit(.unlink(link))
        try await Self.expectRejected(.undo(version: linked), .staleDependency, in: scene)
        // An entry moved twice: undoing the first move names values that are gone.
        let page = try await scene.editor.timelinePage(scene.plan)
        let workshop = try page.assigned("e1")
        var once = workshop
        once.entry = workshop.entry.with(title: "Workshop 2")
        var twice = once
        twice.entry = once.entry.with(title: "Workshop 3")
        let moved = try await scene.commit(.timelineApply(original: workshop, proposed: once))
        try await scene.commit(.timelineApply(original: once, proposed: twice))
        try await Self.expectRejected(.undo(version: moved), .staleEntry, in: scene)
        // A baseline cannot be undone; version 0 (the plan's creation) is not in the log; a
        // version above the current one is a bad message.
        let baseline = try await scene.commit(.baselineSet(name: "Q3", version: nil))
        try await Self.expectRejected(.undo(version: baseline), .notUndoable, in: scene)
        try await Self.expectRejected(.undo(version: 0), .historyUnavailable, in: scene)
        try await Self.expectRejected(.undo(version: scene.copy.version + 5), .badMessage, in: scene)
    }

    /// Proposes `operation`, expects `rejected` with `code`, and that the plan did not change.
    static func expectRejected(
        _ operation: PlanOperation, _ code: RejectionCode, in scene: HistoryScene,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = scene.copy
        let answer = try await scene.propose(operation)
        #expect(answer.rejectionCode == code, "\(answer)", sourceLocation: sourceLocation)
        let fresh = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { fresh.close() }
        #expect(try await fresh.subscribe(scene.plan) == before, sourceLocation: sourceLocation)
    }

    @Test("a version committed by one server is undone through another, and after a restart, from the log")
    func undoAcrossProcesses() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        let removed = try await scene.commit(.remove(previous: scene.copy["build"]!))
        let renamed = try await scene.commit(.replace(previous: spec, proposed: spec.with(title: "Spec 2")))
        let other = try ServerProcess.start()
        let remote = try await TestClient.connected(to: other, token: scene.fixture.editorToken)
        defer { remote.close() }
        let remoteCopy = try await remote.subscribe(scene.plan)
        #expect(remoteCopy == scene.copy)
        let undone = try await remote.propose(.undo(version: renamed), plan: scene.plan)
        #expect(undone.ackVersion == renamed + 1, "\(undone)")
        _ = try await scene.confirmed(renamed + 1)
        #expect(scene.copy["spec"] == spec)
        // A restarted server knows no inverse in memory: it reads the removed task back from the log.
        try await scene.restart(crash: false)
        let restored = try await scene.commit(.undo(version: removed))
        #expect(scene.copy["build"] == Demo.document.state.tasks.task(withID: "build"))
        #expect(Set(scene.copy.dependencies) == Set(Demo.document.state.tasks.dependencies))
        #expect(scene.copy.tasks.map(\.id) == Demo.document.state.tasks.tasks.map(\.id))
        _ = try await remote.expect("confirmed") { $0.confirmedVersion == restored }
        #expect(remote.connection.copy(of: scene.plan) == scene.copy)
    }
}
