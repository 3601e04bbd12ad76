import ChronoSketchCore
import Dispatch
import PlanStore
import PlanTestSupport
import SystemSupport
import Testing

/// Every version of a long random history rebuilds exactly as it was: thousands of random ops
/// (undos of recent versions among them, so removals come back as restores) committed in batches
/// of random size, checkpoints every few versions as the server writes them, then `plan(asOf:)`
/// for every version compared with the state recorded when it was committed.
@Suite("Store: every version of a long random history", .database)
struct HistoryRandomizedTests {
    static let store = TestDatabase.store

    @Test("2,500 versions: each one read back from its checkpoint and the log equals the plan as it was")
    func everyVersion() throws {
        var operations = RandomPlanOperations(seed: 2_500)
        let id = TestDatabase.unique("random-history")
        try Self.store.createPlan(id: id, document: PlanDocument(title: "Random", state: operations.state))
        var states: [Int: PlanState] = [0: operations.state]
        var inverses: [Int: PlanOperation] = [:]
        var version = 0
        var checkpointed = 0
        while version < 2_500 {
            var batch: [CommittedMutation] = []
            for _ in 0..<operations.number(in: 1...12) {
                let next = version + batch.count + 1
                var operation: PlanOperation?
                if operations.chance(15), let target = inverses.keys.filter({ $0 > next - 8 }).max() {
                    operation = operations.state.undoOperation(from: inverses.removeValue(forKey: target)!)
                } else {
                    operation = operations.operation()
                }
                guard let operation, let inverse = operations.state.inverse(of: operation) else { continue }
                var state = operations.state
                guard let change = try? state.apply(operation) else { continue }
                batch.append(
                    CommittedMutation(
                        proposalID: "m\(next)", user: "random", operation: operation, change: change,
                        changesJSON: "{}", inverse: inverse))
                operations.state = state
                states[next] = state
                inverses[next] = inverse
            }
            guard !batch.isEmpty else { continue }
            version = try Self.store.commit(plan: id, baseVersion: version, mutations: batch)
            // As the server does: a checkpoint once the plan is a few versions past the last one.
            if version - checkpointed >= 7 {
                try Self.store.writeCheckpoint(
                    plan: id, version: version, document: PlanDocument(title: "Random", state: states[version]!))
                checkpointed = version
            }
        }
        // Read back on four threads (the store's pool serves them all), each a quarter of the versions.
        let versions = states.keys.sorted()
        let differing = Locked<[Int]>([])
        let recorded = states
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for at in stride(from: part, to: versions.count, by: 4).map({ versions[$0] }) {
                let read = try? Self.store.plan(id, asOf: at)
                guard case .document(let document)? = read, document.state == recorded[at] else {
                    differing.withLock { $0.append(at) }
                    continue
                }
            }
        }
        let wrong = differing.withLock { $0.sorted() }
        #expect(wrong.isEmpty, "versions that do not rebuild: \(wrong.prefix(20))")
        #expect(states.count > 2_000)
    }
}
