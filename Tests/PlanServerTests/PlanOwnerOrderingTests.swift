import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing

@testable import PlanServer

/// The commit pipeline's ordering rules, checked on a `PlanOwner` driven by hand: no socket, no
/// database, no clock. Each list is every message and job the owner decided, in order.
@Suite("Plan owner: ordering")
struct PlanOwnerOrderingTests {
    typealias F = OwnerFixture

    @Test("no ack before its commit: the confirmed goes to every subscriber first, then the ack")
    func ackAfterCommit() {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.committed(.success(6)) == ["confirmed 6 p1 → *", "ack p1 6 → 1"])
        #expect(owner.version == 6)
    }

    @Test("a rejection is sent only after the version it was judged against is committed")
    func rejectionAfterItsVersion() {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        // Judged against the candidate, in which "a" is already "A": stale at version 6.
        #expect(owner.propose(F.origin("p2", connection: 2), F.rename("a", from: "a", to: "X")) == [])
        #expect(owner.committed(.success(6)) == ["commit 6+0 decisions p2", "confirmed 6 p1 → *", "ack p1 6 → 1"])
        #expect(owner.committed(.success(6)) == ["rejected p2 staleTask 6 → 2"])
    }

    @Test("a re-send of an id being decided waits for that decision; later re-sends get it from memory")
    func duplicatesWait() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p1", connection: 2), F.rename("a", from: "a", to: "A")) == [])
        #expect(owner.committed(.success(6)) == ["ack p1 6 → 1", "ack p1 6 → 2"])
        #expect(owner.propose(F.origin("p1", connection: 3), F.rename("a", from: "a", to: "A")) == ["ack p1 6 → 3"])
        // The same id from another user is another proposal.
        let other = F.origin("p1", connection: 4, user: "someone")
        #expect(owner.propose(other, F.rename("b", from: "b", to: "B")) == ["commit 6+1"])
    }

    @Test("a batch that lost a race is judged again after catching up; held proposals follow it")
    func conflictCatchesUpAndJudgesAgain() {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == [])
        #expect(owner.committed(.failure(.versionConflict(plan: "p", expected: 5))) == ["read log since 5"])
        // Arriving while catching up: held, not judged.
        #expect(owner.propose(F.origin("p3"), F.rename("b", from: "B", to: "C")) == [])
        let log = [F.logged(6, "x", rename: "a", from: "a", to: "Z")]
        let after = ActionLines.lines(owner.caughtUp(.success(.mutations(log, currentVersion: 6)), now: F.start))
        #expect(after == ["confirmed 6 x → *", "commit 6+2 decisions p1"])
        #expect(
            owner.committed(.success(8)) == [
                "confirmed 7 p2 → *", "confirmed 8 p3 → *", "rejected p1 staleTask 6 → 1", "ack p2 7 → 1",
                "ack p3 8 → 1",
            ])
        // The other process's proposal is known as decided.
        #expect(owner.propose(F.origin("x", user: "other"), F.rename("a", from: "Z", to: "Y")) == ["ack x 6 → 1"])
    }

    @Test("a NOTIFY during a commit: of that very commit, nothing more; of a newer version, a catch-up after it")
    func notificationDuringCommit() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(ActionLines.lines(owner.notified(6)) == [])
        #expect(owner.committed(.success(6)) == ["ack p1 6 → 1"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == ["commit 6+1"])
        #expect(ActionLines.lines(owner.notified(8)) == [])
        #expect(owner.committed(.success(7)) == ["ack p2 7 → 1", "read log since 7"])
        // Idle, a NOTIFY of an older version changes nothing; of a newer one, it catches up at once.
        let idle = F.owner()
        #expect(ActionLines.lines(idle.notified(5)) == [])
        #expect(ActionLines.lines(idle.notified(6)) == ["read log since 5"])
    }

    @Test("a committed op that no longer applies: reload, then the snapshot, then the ack; held proposals after")
    func reloadDuringCommit() throws {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        // The confirmed data drifted from what p1 was judged against (as after a missed change).
        _ = try owner.confirmed.apply(.replace(previous: F.task("a"), proposed: F.task("a", "Q")))
        #expect(owner.committed(.success(6)) == ["reload p"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == [])
        let stored = StoredPlan(id: "p", version: 6, document: F.document(a: "A"))
        let after = ActionLines.lines(owner.reloaded(.success(stored), now: F.start))
        #expect(after == ["snapshot 6 → *", "ack p1 6 → 1", "commit 6+1"])
    }

    @Test("a batch whose second op no longer applies: the first is confirmed, then the reload; both answered after it")
    func reloadInTheMiddleOfABatch() throws {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p0"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        _ = owner.propose(F.origin("p1"), F.rename("a", from: "A", to: "A1"))
        _ = owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B"))
        #expect(owner.committed(.success(6)).first == "commit 6+2")
        // The confirmed "b" drifted from what p2 was judged against.
        _ = try owner.confirmed.apply(.replace(previous: F.task("b"), proposed: F.task("b", "Q")))
        #expect(owner.committed(.success(8)) == ["confirmed 7 p1 → *", "reload p"])
        #expect(owner.version == 7)
        let stored = StoredPlan(id: "p", version: 8, document: F.document(a: "A1", b: "B"))
        let after = ActionLines.lines(owner.reloaded(.success(stored), now: F.start))
        #expect(after == ["snapshot 8 → *", "ack p1 7 → 1", "ack p2 8 → 1"])
    }

    @Test("another process committed during a commit: the batch is published, the next one waits for the catch-up")
    func notificationHoldsTheNextBatch() {
        let owner = F.owner()
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p0"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p1"), F.rename("b", from: "b", to: "B")) == [])
        #expect(ActionLines.lines(owner.notified(7)) == [])
        #expect(owner.committed(.success(6)) == ["confirmed 6 p0 → *", "ack p0 6 → 1", "read log since 6"])
        let log = [F.logged(7, "x", rename: "a", from: "A", to: "Z")]
        let after = ActionLines.lines(owner.caughtUp(.success(.mutations(log, currentVersion: 7)), now: F.start))
        #expect(after == ["confirmed 7 x → *", "commit 7+1"])
    }

    @Test(
        "a batch that passes the checkpoint interval: one checkpoint, of the batch's last version, after its confirmed")
    func checkpointOncePerBatch() {
        let owner = F.owner(checkpointEvery: 2)
        _ = owner.subscribe(F.member(9), since: nil, ref: nil)
        #expect(owner.propose(F.origin("p0"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        _ = owner.propose(F.origin("p1"), F.rename("a", from: "A", to: "A1"))
        _ = owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B"))
        _ = owner.propose(F.origin("p3"), F.rename("b", from: "B", to: "B3"))
        #expect(owner.committed(.success(6)) == ["commit 6+3", "confirmed 6 p0 → *", "ack p0 6 → 1"])
        #expect(
            owner.committed(.success(9)) == [
                "confirmed 7 p1 → *", "confirmed 8 p2 → *", "confirmed 9 p3 → *", "checkpoint 9", "ack p1 7 → 1",
                "ack p2 8 → 1", "ack p3 9 → 1",
            ])
    }

    @Test("an undo of a version another process logged: judged from memory when its inverse is the op turned round")
    func undoOfAFollowedVersion() {
        let owner = F.owner()
        _ = owner.notified(7)
        let log = [
            F.logged(6, "x", rename: "a", from: "a", to: "Z", inverseFromOp: true),
            F.logged(7, "y", rename: "b", from: "b", to: "Y"),
        ]
        _ = owner.caughtUp(.success(.mutations(log, currentVersion: 7)), now: F.start)
        // Version 6 reverts itself: judged at once (a to "a" again); version 7's row held no inverse.
        #expect(owner.propose(F.origin("u1"), .judge(.undo(version: 6))) == ["commit 7+1"])
        #expect(owner.propose(F.origin("u2"), .judge(.undo(version: 7))) == ["read undo of 7"])
    }

    @Test("a catch-up that cannot follow the log reloads; a failed reload still judges the held proposals")
    func catchUpFallsBackToReload() {
        let owner = F.owner()
        #expect(ActionLines.lines(owner.notified(9)) == ["read log since 5"])
        #expect(ActionLines.lines(owner.caughtUp(.success(.trimmed(currentVersion: 9)), now: F.start)) == ["reload p"])
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == [])
        #expect(ActionLines.lines(owner.reloaded(.failure(.unavailable("down")), now: F.start)) == ["commit 5+1"])
        // A log with a gap is not followed either.
        let gap = F.owner()
        _ = gap.notified(9)
        let log = [F.logged(7, "x", rename: "a", from: "a", to: "Z")]
        #expect(
            ActionLines.lines(gap.caughtUp(.success(.mutations(log, currentVersion: 7)), now: F.start)) == ["reload p"])
    }

    @Test("a batch holding an already decided proposal: stored decisions answer it, the rest is judged again")
    func duplicateInBatch() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == [])
        #expect(owner.committed(.failure(.duplicate("p1"))) == ["decisions? p1,p2"])
        #expect(owner.propose(F.origin("p3"), F.rename("b", from: "B", to: "C")) == [])
        let stored: [ProposalKey: Decision] = [F.origin("p1").key: .acknowledged(version: 4, noop: false)]
        let after = ActionLines.lines(owner.decisionsLoaded(.success(stored), now: F.start))
        #expect(after == ["ack p1 4 → 1", "commit 5+2"])
    }

    @Test("a value the database refuses: the batch is committed one by one, and only its holder is rejected")
    func refusedValueIsolated() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p0"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p1"), F.rename("b", from: "b", to: "B")) == [])
        #expect(owner.propose(F.origin("p2"), F.rename("a", from: "A", to: "bad")) == [])
        #expect(owner.committed(.success(6)) == ["commit 6+2", "ack p0 6 → 1"])
        #expect(owner.committed(.failure(.invalid("value out of range"))) == ["commit 6+1"])
        #expect(owner.committed(.success(7)) == ["commit 7+1", "ack p1 7 → 1"])
        #expect(owner.committed(.failure(.invalid("value out of range"))) == ["commit 7+0 decisions p2"])
        #expect(owner.committed(.success(7)) == ["rejected p2 badMessage 7 → 1"])
    }

    @Test("proposals judged while a refused batch goes one by one wait behind it, then commit together")
    func refusedValueThenTogether() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p0"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p1"), F.rename("b", from: "b", to: "B")) == [])
        #expect(owner.propose(F.origin("p2"), F.rename("a", from: "A", to: "bad")) == [])
        #expect(owner.committed(.success(6)) == ["commit 6+2", "ack p0 6 → 1"])
        #expect(owner.committed(.failure(.invalid("value out of range"))) == ["commit 6+1"])
        #expect(owner.propose(F.origin("p3"), F.rename("b", from: "B", to: "B2")) == [])
        #expect(owner.propose(F.origin("p4"), F.rename("a", from: "A", to: "A2")) == [])
        #expect(owner.hasUncommittedWork)
        #expect(owner.committed(.success(7)) == ["commit 7+1", "ack p1 7 → 1"])
        #expect(owner.committed(.failure(.invalid("value out of range"))) == ["commit 7+0 decisions p2"])
        // p4 was stale against the candidate that held p2; judged again without it, it applies.
        #expect(owner.committed(.success(7)) == ["commit 7+2", "rejected p2 badMessage 7 → 1"])
        #expect(owner.committed(.success(9)) == ["ack p3 8 → 1", "ack p4 9 → 1"])
        #expect(!owner.hasUncommittedWork)
    }

    @Test("a commit the database could not make: unavailable, not remembered, so a re-send is judged again")
    func unavailableIsNotADecision() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == [])
        #expect(owner.committed(.failure(.unavailable("down"))) == ["rejected p1 unavailable 5 → 1", "commit 5+1"])
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == [])
        #expect(owner.committed(.success(6)) == ["commit 6+1", "ack p2 6 → 1"])
        #expect(owner.committed(.success(7)) == ["ack p1 7 → 1"])
    }

    @Test("a failed commit announced meanwhile did commit (its outcome was unknown): the log is read, not judged again")
    func announcedDuringAFailedCommit() {
        let owner = F.owner()
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.propose(F.origin("p2"), F.rename("b", from: "b", to: "B")) == [])
        // The commit's own announcement comes before its result (a cancelled wait for a standby).
        #expect(ActionLines.lines(owner.notified(6)) == [])
        #expect(
            owner.committed(.failure(.unavailable("the outcome is unknown")))
                == ["rejected p1 unavailable 5 → 1", "read log since 5"])
        #expect(owner.version == 5)
    }

    @Test("the log start moves with commits, the rows behind it are deleted a slice at a time, a failure retried")
    func logRetention() {
        let owner = F.owner(version: 100, logKeep: 10)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 100+1 logStart 91"])
        #expect(owner.committed(.success(101)) == ["delete trimmed log", "ack p1 101 → 1"])
        #expect(owner.logStart == 91)
        #expect(!owner.isIdle)
        #expect(
            ActionLines.lines(owner.trimmedLogDeleted(.success(PlanStore.trimmedLogSlice))) == ["delete trimmed log"])
        #expect(ActionLines.lines(owner.trimmedLogDeleted(.failure(.unavailable("down")))) == [])
        #expect(ActionLines.lines(owner.tick(now: F.start)) == ["delete trimmed log"])
        #expect(ActionLines.lines(owner.trimmedLogDeleted(.success(3))) == [])
        #expect(owner.isIdle)
        // Without logKeep the start never moves.
        let keepAll = F.owner(version: 100)
        #expect(keepAll.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 100+1"])
    }

    @Test("role and base version are judged as decisions: recorded with the batch, answered after it")
    func roleAndBaseVersionAreDecisions() {
        let owner = F.owner()
        #expect(
            owner.propose(F.origin("v1", user: "viewer"), F.rename("a", from: "a", to: "A"), role: .viewer) == [
                "commit 5+0 decisions v1"
            ])
        let ahead = owner.propose(
            F.origin("b1"), role: .editor, baseVersion: 99, verdict: F.rename("a", from: "a", to: "A"), now: F.start)
        #expect(ActionLines.lines(ahead) == [])
        #expect(owner.committed(.success(5)) == ["commit 5+0 decisions b1", "rejected v1 forbidden 5 → 1"])
        #expect(owner.committed(.success(5)) == ["rejected b1 badMessage 5 → 1"])
    }

    @Test("each decision is counted by outcome once its batch commits, with the commit's time from its start")
    func decisionsMeasured() {
        let owner = F.owner()
        _ = owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A"))
        _ = owner.propose(F.origin("p2", connection: 2), F.rename("b", from: "x", to: "B"))
        let committed = ActionLines.measurements(owner.committed(.success(6), now: F.start + .milliseconds(12)))
        #expect(committed == [.commitLatency(.milliseconds(12)), .decided(.confirmed)])
        let decided = ActionLines.measurements(owner.committed(.success(6), now: F.start + .milliseconds(20)))
        #expect(decided == [.commitLatency(.milliseconds(8)), .decided(.rejected(.staleTask))])
    }
}
