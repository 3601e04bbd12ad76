import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanStore

@Suite("PlanStore: several plans' batches in one transaction", .database)
struct CommitTogetherTests {
    /// A batch renaming `task` of a fresh copy of the demo plan, on top of its version 0.
    static func rename(_ task: String, to title: String, in plan: String, base: Int = 0) throws -> BatchCommit {
        var state = StoreFixtures.demo.state
        let original = try #require(state.tasks[task])
        let operation = PlanOperation.replace(previous: original, proposed: original.with(title: title))
        let inverse = state.inverse(of: operation)
        let change = try state.apply(operation)
        let mutation = CommittedMutation(
            proposalID: "\(plan)-\(title)", user: "tester", operation: operation, change: change, changesJSON: "{}",
            inverse: inverse)
        return BatchCommit(plan: plan, baseVersion: base, mutations: [mutation])
    }

    @Test("each plan moves on by its batch, with its log, as if committed alone")
    func together() throws {
        let store = TestDatabase.store
        let plans = try (0..<3).map { try StoreFixtures.newDemoPlan("together\($0)") }
        let batches = try plans.map { try Self.rename("spec", to: "Spec of \($0)", in: $0) }
        var (transactions, splits) = (0, 0)
        let results = store.commitTogether(batches, observe: { _ in transactions += 1 }, split: { splits += 1 })
        #expect(try results.map { try $0.get() } == [1, 1, 1])
        #expect(transactions == 1 && splits == 0, "one transaction for the three plans")
        for plan in plans {
            let loaded = try #require(try store.loadPlan(plan))
            #expect(loaded.version == 1)
            #expect(loaded.document.state.tasks["spec"]?.title == "Spec of \(plan)")
            guard case .mutations(let logged, _)? = try store.mutations(of: plan, since: 0) else {
                Issue.record("no log for \(plan)")
                continue
            }
            #expect(logged.map(\.proposalID) == ["\(plan)-Spec of \(plan)"])
        }
    }

    @Test("a batch that lost its race fails alone: the others are committed, it gets its version conflict")
    func oneConflict() throws {
        let store = TestDatabase.store
        let plans = try (0..<3).map { try StoreFixtures.newDemoPlan("conflict\($0)") }
        // The middle plan moves on first, so its batch's base version is stale.
        try store.commit(
            plan: plans[1], baseVersion: 0, mutations: try Self.rename("spec", to: "First", in: plans[1]).mutations)
        let batches = try plans.map { try Self.rename("review", to: "Late", in: $0) }
        var (transactions, splits) = (0, 0)
        let results = store.commitTogether(batches, observe: { _ in transactions += 1 }, split: { splits += 1 })
        // The failed transaction is not one; then each plan alone: two commits, the conflict none.
        #expect(transactions == 2 && splits == 1)
        #expect((try? results[0].get()) == 1)
        #expect((try? results[2].get()) == 1)
        guard case .failure(.versionConflict(let plan, let expected)) = results[1] else {
            Issue.record("expected a version conflict, got \(results[1])")
            return
        }
        #expect(plan == plans[1] && expected == 0)
        let middle = try #require(try store.loadPlan(plans[1]))
        #expect(middle.version == 1 && middle.document.state.tasks["review"]?.title == "Review")
        #expect(try #require(try store.loadPlan(plans[0])).document.state.tasks["review"]?.title == "Late")
    }

    @Test("a batch with nothing to write needs no transaction; one alone is committed as by commit")
    func emptyAndSingle() throws {
        let store = TestDatabase.store
        let plan = try StoreFixtures.newDemoPlan("single")
        let results = store.commitTogether([
            BatchCommit(plan: "nothing-to-write", baseVersion: 7, mutations: []),
            try Self.rename("spec", to: "Alone", in: plan),
        ])
        #expect(try results.map { try $0.get() } == [7, 1])
        #expect(try #require(try store.loadPlan(plan)).document.state.tasks["spec"]?.title == "Alone")
    }
}
