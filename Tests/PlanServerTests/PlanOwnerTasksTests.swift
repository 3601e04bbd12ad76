import ChronoSketchCore
import PlanProtocol
import Testing
import WebSocketServer

@testable import PlanServer

/// `tasks` on a `PlanOwner` driven by hand (docs/protocol.md, "Tasks by id"): answered from the
/// confirmed data at once, never from a proposal still being committed.
@Suite("Plan owner: tasks by id")
struct PlanOwnerTasksTests {
    typealias F = OwnerFixture

    func ask(_ owner: OwnerDriver, _ ids: [String], ref: String, from connection: UInt64) -> [String] {
        ActionLines.lines(owner.handle(.tasks(ids: ids, ref: ref, for: ConnectionID(connection))))
    }

    @Test("found in the order asked, each once; unknown ids listed as missing; none asked, none answered")
    func foundAndMissing() {
        let owner = F.owner(version: 5)
        #expect(ask(owner, ["b", "x", "a", "b"], ref: "t", from: 1) == ["tasks 5 b:b,a:a missing x ref t → 1"])
        #expect(ask(owner, [], ref: "none", from: 2) == ["tasks 5  missing  ref none → 2"])
    }

    @Test("a rename being committed is not answered until it is confirmed; then the new title")
    func confirmedOnly() {
        let owner = F.owner(version: 5)
        #expect(owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A")) == ["commit 5+1"])
        #expect(ask(owner, ["a"], ref: "before", from: 2) == ["tasks 5 a:a missing  ref before → 2"])
        #expect(owner.committed(.success(6)) == ["ack p1 6 → 1"])
        #expect(ask(owner, ["a"], ref: "after", from: 2) == ["tasks 6 a:A missing  ref after → 2"])
    }
}
