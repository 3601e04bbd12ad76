import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import SystemSupport
import Testing
import WebSocketServer

@Suite("Server: writing", .serialized, .database)
struct WritingTests {
    @Test("every op of §5 is confirmed: subscribers get the documented changes before the proposer's ack")
    func everyOp() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let log = ArrivalLog()
        defer { log.close() }
        // Both connections share one client transport, whose single service thread logs what it
        // reads in order across them. The viewer connects first, so on both ends its socket is served
        // before the proposer's: a server that queues the viewer's confirmed before the ack (as it
        // must) delivers it first; one that acks before committing and broadcasting does not.
        try await log.connect("viewer", url: server.url, token: fixture.viewerToken)
        try await log.connect("editor", url: server.url, token: fixture.editorToken)
        log.send("viewer", .subscribe(plan: fixture.plan))
        log.send("editor", .subscribe(plan: fixture.plan))
        guard case .snapshot(let snapshot, _) = try await log.first("viewer", "snapshot").message else {
            throw HarnessError("unexpected message")
        }
        _ = try await log.first("editor", "snapshot")
        var run = ConfirmedInOrder(log: log, plan: fixture.plan, editor: fixture.editor, copy: ClientPlanCopy(snapshot))
        let release = run.copy["release"]!
        let movedBuild = try await Self.taskOps(&run)
        let timeline = try await Self.timelineOps(&run)
        let plan = fixture.plan
        let copy = run.copy
        // The viewer never got an ack; the copy fed only by the changes equals a fresh snapshot.
        let arrivals = await log.all()
        #expect(arrivals.allSatisfy { $0.tag == "editor" || $0.message.typeName != "ack" })
        let fresh = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { fresh.close() }
        let freshCopy = try await fresh.subscribe(plan)
        #expect(freshCopy == copy)
        #expect(freshCopy.version == 10)
        #expect(freshCopy["build"] == movedBuild && freshCopy["spec"] == nil && freshCopy["release"] == release)
        let page = try await fresh.timelinePage(plan)
        #expect(Set(page.entries) == [timeline.later, timeline.planning])
        #expect(Set(page.assignments) == Set([timeline.a1.with(resourceID: "room-2")] + timeline.bookings))
    }

    @Test("a proposal that changes nothing is acked noop at the current version, with no broadcast")
    func noops() async throws {
        let scene = try await WritingScene.make()
        defer { scene.close() }
        let plan = scene.fixture.plan
        let spec = scene.initial["spec"]!
        let review = scene.initial["review"]!
        let renamed = spec.with(title: "Spec v2")
        let first = try await scene.editor.propose(.replace(previous: spec, proposed: renamed), plan: plan)
        #expect(first.ackVersion == 1)
        let firstSeen = try await scene.viewer.nextMessage()
        #expect(firstSeen.confirmedVersion == 1, "\(firstSeen)")

        let noop = ServerMessage.ack(id: "", plan: plan, version: 1, noop: true)
        let same = try await scene.editor.propose(
            .replace(previous: renamed, proposed: renamed), plan: plan, id: "noop-replace")
        #expect(same == noop.with(id: "noop-replace"))
        // Spec is directly before Review: both ways of saying so are no-ops.
        let before = try await scene.editor.propose(
            .reorder(previous: renamed, relativeTo: review, position: .before), plan: plan, id: "noop-before")
        #expect(before == noop.with(id: "noop-before"))
        let after = try await scene.editor.propose(
            .reorder(previous: review, relativeTo: renamed, position: .after), plan: plan, id: "noop-after")
        #expect(after == noop.with(id: "noop-after"))
        let e1 = Demo.document.state.timeline.entry("e1")!
        let a1 = Demo.document.state.timeline.assignment("a1")!
        let workshop = TimelineAssignedEntry(entry: e1, assignment: a1)
        let unmoved = try await scene.editor.propose(
            .timelineApply(original: workshop, proposed: workshop), plan: plan, id: "noop-timeline")
        #expect(unmoved == noop.with(id: "noop-timeline"))

        // Nothing was broadcast: the viewer's next message is the next real change, version 2.
        let marker = try await scene.proposeMarker()
        #expect(marker.ackVersion == 2)
        let next = try await scene.viewer.nextMessage()
        #expect(next.confirmedVersion == 2 && next.mutationID == marker.proposalID)
        // A no-op is a decision: re-sent later, the same noop ack at version 1.
        let again = try await scene.editor.propose(
            .replace(previous: renamed, proposed: renamed), plan: plan, id: "noop-replace")
        #expect(again == noop.with(id: "noop-replace"))
        #expect(try await scene.freshCopy().version == 2)
    }

    /// §5's task ops, each confirmed in order; returns Build as moved.
    static func taskOps(_ run: inout ConfirmedInOrder) async throws -> GanttTask {
        let spec = run.copy["spec"]!
        let review = run.copy["review"]!
        let build = run.copy["build"]!
        let date = Demo.date

        // replace, moving Build from Implementation to Design (a group change) with progress 40.
        let movedBuild = build.with(parentID: "design").with(
            kind: .activity(schedule: build.schedule, progress: 40))
        let replaced = try await run.confirm(.replace(previous: build, proposed: movedBuild), "op-replace")
        #expect(replaced.upsert == [movedBuild])
        #expect(replaced.remove.isEmpty && replaced.order == nil && replaced.dependencies == nil)
        #expect(replaced.entries == nil)
        #expect(
            replaced.summaries == [
                "design": SummaryValues(
                    start: date("2026-09-08"), end: date("2026-09-21"), lastDate: date("2026-09-20"), progress: 20),
                "impl": SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0),
            ])

        // add: QA under Implementation, which gets bounds again.
        let qa = try GanttTask(
            id: "qa", title: "QA", parentID: "impl",
            kind: .activity(schedule: try TaskSchedule(start: date("2026-09-22"), days: 3), progress: 50))
        let added = try await run.confirm(.add(qa), "op-add")
        #expect(added.upsert == [qa] && added.remove.isEmpty && added.order == nil && added.dependencies == nil)
        #expect(
            added.summaries == [
                "impl": SummaryValues(
                    start: date("2026-09-22"), end: date("2026-09-25"), lastDate: date("2026-09-24"), progress: 50)
            ])

        // reorder: Review before Spec; only Design's child slots are permuted.
        let reordered = try await run.confirm(
            .reorder(previous: review, relativeTo: spec, position: .before), "op-reorder")
        #expect(reordered.order == ["design", "review", "spec", "impl", "build", "release", "qa"])
        #expect(reordered.upsert.isEmpty && reordered.remove.isEmpty && reordered.dependencies == nil)
        #expect(reordered.summaries.isEmpty)

        // remove: Spec, with its dependency Spec → Build.
        let removed = try await run.confirm(.remove(previous: spec), "op-remove")
        #expect(removed.remove == ["spec"] && removed.upsert.isEmpty && removed.order == nil)
        #expect(removed.dependencies == [TaskDependency(predecessorID: "build", successorID: "release")])
        #expect(
            removed.summaries == [
                "design": SummaryValues(
                    start: date("2026-09-11"), end: date("2026-09-21"), lastDate: date("2026-09-20"), progress: 20)
            ])

        // link and unlink.
        let linked = try await run.confirm(
            .link(TaskDependency(predecessorID: "qa", successorID: "release")), "op-link")
        #expect(
            linked.dependencies == [
                TaskDependency(predecessorID: "build", successorID: "release"),
                TaskDependency(predecessorID: "qa", successorID: "release"),
            ])
        #expect(linked.upsert.isEmpty && linked.remove.isEmpty && linked.summaries.isEmpty && linked.order == nil)
        let unlinked = try await run.confirm(
            .unlink(TaskDependency(predecessorID: "build", successorID: "release")), "op-unlink")
        #expect(unlinked.dependencies == [TaskDependency(predecessorID: "qa", successorID: "release")])
        #expect(unlinked.upsert.isEmpty && unlinked.summaries.isEmpty)
        return movedBuild
    }

    /// §5's timeline ops, each confirmed in order; returns what the final timeline holds.
    static func timelineOps(_ run: inout ConfirmedInOrder) async throws -> (
        later: TimelineEntry, planning: TimelineEntry, a1: TimelineAssignment, bookings: [TimelineAssignment]
    ) {
        // timeline.apply: the Workshop one hour later, then its booking moves to Room 2.
        let e1 = Demo.document.state.timeline.entry("e1")!
        let a1 = Demo.document.state.timeline.assignment("a1")!
        let later = try e1.with(start: Demo.time("2026-09-09T10:00"), end: Demo.time("2026-09-09T13:30"))
        let moved = try await run.confirm(
            .timelineApply(
                original: TimelineAssignedEntry(entry: e1, assignment: a1),
                proposed: TimelineAssignedEntry(entry: later, assignment: a1)), "op-timeline-move")
        #expect(moved == PlanChanges(entries: ["e1"]))
        let rebooked = try await run.confirm(
            .timelineApply(
                original: TimelineAssignedEntry(entry: later, assignment: a1),
                proposed: TimelineAssignedEntry(entry: later, assignment: a1.with(resourceID: "room-2"))),
            "op-timeline-rebook")
        #expect(rebooked == PlanChanges(entries: ["e1"]))

        // timeline.add: a Planning booked in both rooms; timeline.remove: the Retro.
        let planning = try TimelineEntry(
            id: "e3", title: "Planning", start: Demo.time("2026-09-15T10:00"), end: Demo.time("2026-09-15T11:00"))
        let bookings = [
            try TimelineAssignment(id: "a3", entryID: "e3", resourceID: "room-1"),
            try TimelineAssignment(id: "a4", entryID: "e3", resourceID: "room-2"),
        ]
        let addedEntry = try await run.confirm(.timelineAdd(entry: planning, assignments: bookings), "op-timeline-add")
        #expect(addedEntry == PlanChanges(entries: ["e3"]))
        let e2 = Demo.document.state.timeline.entry("e2")!
        let removedEntry = try await run.confirm(.timelineRemove(entry: e2), "op-timeline-remove")
        #expect(removedEntry == PlanChanges(entries: ["e2"]))
        return (later, planning, a1, bookings)
    }
}

// MARK: - Arrival order across connections

/// Proposals by the editor of an `ArrivalLog` ("editor", "viewer"), each checked to arrive in
/// order: both confirmed before the ack, the viewer's copy following the changes.
struct ConfirmedInOrder {
    let log: ArrivalLog
    let plan: String
    let editor: String
    var copy: ClientPlanCopy
    var version = 0

    /// Proposes, checks the order of arrivals, returns the changes.
    mutating func confirm(_ operation: PlanOperation, _ id: String) async throws -> PlanChanges {
        version += 1
        let (plan, expected) = (plan, version)
        log.send("editor", .propose(id: id, plan: plan, baseVersion: expected - 1, operation: operation))
        let ack = try await log.first("editor", "ack") { $0 == .ack(id: id, plan: plan, version: expected) }
        let seen = try await log.first("viewer", "confirmed") { $0.confirmedVersion == expected }
        let own = try await log.first("editor", "confirmed") { $0.confirmedVersion == expected }
        #expect(seen.position < ack.position, "\(id): the viewer's confirmed arrived after the proposer's ack")
        #expect(own.position < ack.position, "\(id): the proposer's own confirmed arrived after its ack")
        #expect(seen.message == own.message)
        guard case .confirmed(_, _, let mutationID, let user, let changes, _, _) = seen.message else {
            throw HarnessError("not a confirmed")
        }
        #expect(mutationID == id && user == editor)
        try copy.apply(seen.message)
        return changes
    }
}

/// Connections on a client transport of their own, whose server messages are logged in the one
/// order in which that transport's single service thread read them, across all connections.
final class ArrivalLog: Sendable {
    struct Arrival: Sendable {
        let tag: String
        let message: ServerMessage
    }

    /// A transport of its own, used by one test at a time (the suite is serialized), so that no
    /// other connections share its service loop; never stopped (see the report on `stop()`).
    private static let sharedTransport: ClientTransport = try! ClientTransport()

    private let transport = ArrivalLog.sharedTransport
    private let inbox = Inbox<Arrival>()
    private let continuation: AsyncStream<Arrival>.Continuation
    private let connections = Locked<[String: UInt64]>([:])

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
        self.continuation = continuation
        let inbox = self.inbox
        Task {
            for await arrival in stream { await inbox.append(arrival) }
        }
    }

    /// Connects a connection named `tag`, says hello and waits for the welcome.
    func connect(_ tag: String, url: String, token: String) async throws {
        guard let endpoint = ClientTransport.Endpoint(url: url) else { throw HarnessError("bad URL \(url)") }
        let id = transport.reserveConnectionID()
        connections.withLock { $0[tag] = id }
        let transport = self.transport
        let continuation = self.continuation
        transport.connect(id, to: endpoint) { event in
            switch event {
            case .opened:
                transport.send(ClientMessage.hello(token: token, client: "arrival-log/1").bytes, on: id)
            case .message(let bytes):
                for message in (try? ServerMessage.decodeFrame(bytes)) ?? [] {
                    continuation.yield(Arrival(tag: tag, message: message))
                }
            case .closed:
                break
            }
        }
        _ = try await first(tag, "welcome")
    }

    /// Sends a request on the connection named `tag`.
    func send(_ tag: String, _ message: ClientMessage) {
        guard let id = connections.withLock({ $0[tag] }) else { return }
        transport.send(message.bytes, on: id)
    }

    /// The first message ever logged for `tag` of `type` that matches, waiting for it, with its
    /// position in the log.
    func first(
        _ tag: String, _ type: String, within seconds: Double = 10,
        where match: @escaping @Sendable (ServerMessage) -> Bool = { _ in true }
    ) async throws -> (position: Int, message: ServerMessage) {
        let found = await inbox.first(within: seconds) {
            $0.tag == tag && $0.message.typeName == type && match($0.message)
        }
        guard let found else { throw HarnessError("no \(type) for \(tag) within \(seconds) s") }
        return (found.position, found.event.message)
    }

    /// Everything logged so far.
    func all() async -> [Arrival] {
        await inbox.all()
    }

    /// Closes every connection.
    func close() {
        for id in connections.withLock({ Array($0.values) }) { transport.close(id) }
        continuation.finish()
    }
}
