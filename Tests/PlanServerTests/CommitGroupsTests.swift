import Testing

@testable import PlanServer

@Suite("CommitGroups: the commits waiting for a worker thread, taken together")
struct CommitGroupsTests {
    static func waiting(_ plan: String) -> CommitGroups.Waiting {
        CommitGroups.Waiting(
            request: CommitRequest(plan: plan, baseVersion: 0, mutations: [], decisions: [], logStart: nil),
            submitted: .now)
    }

    @Test("the first take gets a thread's waiting commits, oldest first, at most 16; the next takes the rest")
    func takesInOrder() {
        let groups = CommitGroups()
        let plans = (0..<20).map { "p\($0)" }
        for plan in plans { groups.add(Self.waiting(plan), thread: 1) }
        groups.add(Self.waiting("elsewhere"), thread: 0)
        #expect(groups.take(thread: 1).map(\.request.plan) == Array(plans.prefix(CommitGroups.largest)))
        #expect(groups.take(thread: 1).map(\.request.plan) == Array(plans.dropFirst(CommitGroups.largest)))
        // The closures of the commits already taken find nothing left to do.
        #expect(groups.take(thread: 1).isEmpty)
        #expect(groups.take(thread: 0).map(\.request.plan) == ["elsewhere"])
    }
}
