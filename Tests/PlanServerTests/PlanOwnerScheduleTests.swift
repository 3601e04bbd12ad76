import ChronoSketchCore
import PlanProtocol
import Testing
import WebSocketServer

@testable import PlanServer

/// `schedule` on a `PlanOwner` driven by hand (scheduling.md §6): a version's figures computed
/// once on a worker, then answered from memory; past versions rebuilt on a worker.
@Suite("Plan owner: schedule")
struct PlanOwnerScheduleTests {
    typealias F = OwnerFixture

    func ask(_ owner: OwnerDriver, _ version: Int?, ids: [String]? = nil, ref: String, from connection: UInt64)
        -> [String]
    {
        ActionLines.lines(owner.handle(.schedule(version: version, ids: ids, ref: ref, for: ConnectionID(connection))))
    }

    @Test("two requests for the current version start one computation and are both answered; the next from memory")
    func computedOncePerVersion() {
        let owner = F.owner(version: 5, logStart: 2)
        #expect(ask(owner, nil, ref: "s1", from: 1) == ["compute schedule 5"])
        #expect(ask(owner, 5, ref: "s2", from: 2) == [])
        let figures = ScheduleFigures(owner.owner.confirmed.tasks, time: WorkingTime(.allDaysWorking))
        #expect(
            ActionLines.lines(owner.handle(.scheduleComputed(version: 5, figures)))
                == ["schedule 5  ref s1 → 1", "schedule 5  ref s2 → 2"])
        #expect(ask(owner, nil, ref: "s3", from: 3) == ["schedule 5  ref s3 → 3"])
        #expect(owner.owner.scheduleWaiting.isEmpty)
    }

    @Test("a past version in the history is rebuilt on a worker; one outside it is historyUnavailable")
    func pastVersions() {
        let owner = F.owner(version: 5, logStart: 2)
        #expect(ask(owner, 3, ref: "p", from: 4) == ["schedule 3 for 4"])
        #expect(ask(owner, 1, ref: "old", from: 4) == ["error historyUnavailable ref old → 4"])
        #expect(ask(owner, 6, ref: "ahead", from: 4) == ["error historyUnavailable ref ahead → 4"])
    }

    @Test("a commit lets the kept figures go; figures of a version no longer current are answered, not kept")
    func commitsDropTheFigures() {
        let owner = F.owner(version: 5, logStart: 2)
        #expect(ask(owner, nil, ref: "s1", from: 1) == ["compute schedule 5"])
        let figures = ScheduleFigures(owner.owner.confirmed.tasks, time: WorkingTime(.allDaysWorking))
        _ = owner.handle(.scheduleComputed(version: 5, figures))
        #expect(owner.owner.scheduleCache?.version == 5)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(owner.committed(.success(6)) == ["ack p1 6 → 1"])  // nobody subscribed: no confirmed goes out
        #expect(owner.owner.scheduleCache == nil)
        // Asked at 6, answered with 5's figures arriving late: those wait in nothing and stay out.
        #expect(ask(owner, nil, ref: "s2", from: 2) == ["compute schedule 6"])
        #expect(ActionLines.lines(owner.handle(.scheduleComputed(version: 5, figures))).isEmpty)
        #expect(owner.owner.scheduleCache == nil)
        #expect(
            ActionLines.lines(owner.handle(.scheduleComputed(version: 6, figures))) == ["schedule 6  ref s2 → 2"])
        #expect(owner.owner.scheduleCache?.version == 6)
    }
}
