import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer
import WebSocketWire

@testable import PlanServer

/// Subscribers, resuming, watches and presence on a `PlanOwner` driven by hand.
@Suite("Plan owner: audiences")
struct PlanOwnerAudienceTests {
    typealias F = OwnerFixture

    func lines(_ result: ([HubAction], joined: Bool)) -> [String] {
        ActionLines.lines(result.0)
    }

    /// An owner at version 5 that committed p1 (6) and p2 (7), with subscriber 9.
    func ownerWithHistory() -> OwnerDriver {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        _ = owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A"))
        _ = owner.committed(.success(6))
        _ = owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B"))
        _ = owner.committed(.success(7))
        return owner
    }

    @Test("resuming from memory: what was missed, then resumed; from the version itself, just resumed")
    func resumeFromMemory() {
        let owner = ownerWithHistory()
        #expect(
            lines(owner.subscribe(F.member(2), since: 6, ref: "r")) == [
                "confirmed 7 p2 → 2", "resumed 7 → 2", "presence 2 → 2",
            ])
        #expect(lines(owner.subscribe(F.member(3), since: 7, ref: nil)) == ["resumed 7 → 3", "presence 3 → 3"])
        // A version ahead of the plan is not resumable: a snapshot.
        #expect(lines(owner.subscribe(F.member(4), since: 99, ref: nil)) == ["snapshot 7 → 4", "presence 4 → 4"])
    }

    @Test(
        "resuming from before memory reads the log: missed rows, then memory, then resumed; a log that does not join up gives a snapshot"
    )
    func resumeFromLog() {
        let owner = ownerWithHistory()
        // Memory starts at 6: since 4 needs version 5 from the log.
        let (asked, state) = owner.subscribe(F.member(2), since: 4, ref: nil)
        #expect(ActionLines.lines(asked) == ["read log since 4 for 2"])
        #expect(!state, "waits for the log read")
        #expect(!owner.subscribers.contains(ConnectionID(2)))
        let log = [F.logged(5, "old", rename: "a", from: "a", to: "a")]
        let read = owner.resumeRead(F.member(2), since: 4, ref: nil, .success(.mutations(log, currentVersion: 7)))
        #expect(
            ActionLines.lines(read) == [
                "confirmed 5 old → 2", "confirmed 6 p1 → 2", "confirmed 7 p2 → 2", "resumed 7 → 2", "presence 2 → 2",
            ])
        let gap = owner.resumeRead(F.member(3), since: 3, ref: nil, .success(.mutations(log, currentVersion: 7)))
        #expect(ActionLines.lines(gap) == ["snapshot 7 → 3", "presence 3 → 3"])
    }

    @Test("versions read from the log for one resume are kept: the next resumes share their buffers, with no read")
    func resumesShareTheLog() throws {
        let owner = ownerWithHistory()
        _ = owner.subscribe(F.member(2), since: 4, ref: nil)
        let log = [F.logged(5, "old", rename: "a", from: "a", to: "a")]
        let first = owner.resumeRead(F.member(2), since: 4, ref: nil, .success(.mutations(log, currentVersion: 7)))
        #expect(owner.recentConfirmedStart == 5)
        let (second, state) = owner.subscribe(F.member(3), since: 4, ref: nil)
        #expect(state, "joined")
        #expect(
            ActionLines.lines(second) == [
                "confirmed 5 old → 3", "confirmed 6 p1 → 3", "confirmed 7 p2 → 3", "resumed 7 → 3", "presence 3 → 3",
            ])
        func sent(_ actions: [HubAction]) -> [OutgoingBuffer] {
            actions.compactMap { if case .send(let buffer, _) = $0 { buffer } else { nil } }
        }
        // The same bytes, not copies: one buffer per version however many resume.
        let shared = zip(sent(first).prefix(3), sent(second).prefix(3))
        #expect(shared.allSatisfy { $0 === $1 })
    }

    @Test("a read that finishes after another resume's read was kept sends only what follows its own version")
    func readsFinishingOutOfOrder() {
        let owner = ownerWithHistory()
        // Memory starts at 6. Member 2 resumes from 4 (it reads version 5), member 3 from 3 (it
        // reads 4 and 5): 3's read finishes first and is kept (memory from 4 on).
        _ = owner.subscribe(F.member(2), since: 4, ref: nil)
        _ = owner.subscribe(F.member(3), since: 3, ref: nil)
        let four = F.logged(4, "o4", rename: "a", from: "a", to: "a")
        let five = F.logged(5, "o5", rename: "a", from: "a", to: "a")
        _ = owner.resumeRead(F.member(3), since: 3, ref: nil, .success(.mutations([four, five], currentVersion: 7)))
        #expect(owner.recentConfirmedStart == 4)
        // Member 2's read (version 5 alone) comes back now: 5, 6, 7 — not 4 again.
        let late = owner.resumeRead(F.member(2), since: 4, ref: nil, .success(.mutations([five], currentVersion: 7)))
        #expect(
            ActionLines.lines(late) == [
                "confirmed 5 o5 → 2", "confirmed 6 p1 → 2", "confirmed 7 p2 → 2", "resumed 7 → 2", "presence 3 → 2",
            ])
    }

    @Test(
        "big snapshots are encoded once on a worker for everyone waiting, each naming its role; a waiter that left is skipped"
    )
    func snapshotOnWorker() throws {
        let owner = F.owner()
        var tasks = owner.confirmed.tasks.tasks
        for index in 0..<PlanOwner.workerSnapshotTasks { tasks.append(F.task("t\(index)")) }
        owner.confirmed = PlanState(tasks: try! TaskCollection(tasks), timeline: owner.confirmed.timeline)
        #expect(lines(owner.subscribe(F.member(1), since: nil, ref: nil)) == ["encode snapshot 5"])
        #expect(lines(owner.subscribe(F.member(2), since: nil, ref: nil)) == [])
        #expect(lines(owner.subscribe(F.member(3, editor: true), since: nil, ref: nil)) == [])
        #expect(!owner.isIdle)
        _ = owner.disconnected(ConnectionID(2), watches: [])
        let encoded = ServerMessage.snapshot(PlanSnapshot(plan: "p", version: 5, title: "T")).bytes
        let (actions, joined) = owner.snapshotEncoded(version: 5, OutgoingBuffer(encoded))
        #expect(joined == [ConnectionID(1), ConnectionID(3)])
        #expect(
            ActionLines.lines(actions) == ["snapshot 5 → 1", "presence 1 → 1", "snapshot 5 → 3", "presence 2 → 3"])
        let named = try actions.compactMap { action -> String? in
            guard case .send(let buffer, let connection) = action,
                case .snapshot(let snapshot, _) = try ServerMessage.decode(Array(buffer.payload))
            else { return nil }
            return "\(connection.rawValue) \(snapshot.role?.rawValue ?? "-")"
        }
        #expect(named == ["1 viewer", "3 editor"])
        #expect(owner.subscribers == [ConnectionID(1), ConnectionID(3)])
    }

    @Test("two bookings committed together: their confirmed in order, then one page per watch at the newer version")
    func batchRefreshesWatchOnce() throws {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        _ = owner.page(F.roomQuery, watch: "w", ref: nil, for: ConnectionID(4), now: F.start)
        func booking(_ id: String, hour: Int) throws -> QueuedProposal.Verdict {
            let entry = try TimelineEntry(
                id: id, title: id, start: LocalDateTime("2026-09-01T0\(hour):00"),
                end: LocalDateTime("2026-09-01T0\(hour + 1):00"))
            let assignment = try TimelineAssignment(id: "as-\(id)", entryID: id, resourceID: "room")
            return .judge(.timelineAdd(entry: entry, assignments: [assignment]))
        }
        #expect(owner.propose(F.origin("t1"), try booking("e1", hour: 1)) == ["commit 5+1"])
        #expect(owner.propose(F.origin("t2"), try booking("e2", hour: 3)) == [])
        #expect(owner.propose(F.origin("t3"), try booking("e3", hour: 5)) == [])
        _ = owner.committed(.success(6))
        #expect(
            owner.committed(.success(8)) == [
                "confirmed 7 t2 → *", "confirmed 8 t3 → *", "page w 8 → 4", "ack t2 7 → 1", "ack t3 8 → 1",
            ])
    }

    @Test("after a reload every subscriber gets the snapshot and every watch a fresh page")
    func reloadRefreshesWatchers() {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(
            ActionLines.lines(owner.page(F.roomQuery, watch: "w", ref: "q", for: ConnectionID(4), now: F.start)) == [
                "page w 5 → 4"
            ])
        _ = owner.notified(8)
        _ = owner.caughtUp(.success(.trimmed(currentVersion: 8)), now: F.start)
        let stored = StoredPlan(id: "p", version: 8, document: F.document(a: "Z"))
        #expect(
            ActionLines.lines(owner.reloaded(.success(stored), now: F.start)) == ["snapshot 8 → *", "page w 8 → 4"])
        owner.removeWatches(["w"], of: ConnectionID(4))
        #expect(owner.watches.isEmpty)
    }

    @Test("presence: the newcomer at once, the others with the next tick, once; a leave is told at the tick")
    func presenceCoalesced() {
        let owner = F.owner()
        #expect(lines(owner.subscribe(F.member(1), since: nil, ref: nil)) == ["snapshot 5 → 1", "presence 1 → 1"])
        #expect(lines(owner.subscribe(F.member(2), since: nil, ref: nil)) == ["snapshot 5 → 2", "presence 2 → 2"])
        #expect(ActionLines.lines(owner.tick(now: F.start)) == ["presence 2 → *"])
        #expect(ActionLines.lines(owner.tick(now: F.start)) == [])
        _ = owner.unsubscribe(ConnectionID(2))
        #expect(ActionLines.lines(owner.tick(now: F.start)) == ["presence 1 → *"])
    }
}
