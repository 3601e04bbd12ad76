import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

/// Collects listener events and lets a test await the first one that matches.
final class EventCollector: Sendable {
    private let stream: AsyncStream<PlanListener.Event>
    let continuation: AsyncStream<PlanListener.Event>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: PlanListener.Event.self)
    }

    /// The first event satisfying `predicate`, or nil after `seconds`.
    func first(within seconds: Int, where predicate: @escaping @Sendable (PlanListener.Event) -> Bool) async
        -> PlanListener.Event?
    {
        let stream = self.stream
        return await withTaskGroup(of: PlanListener.Event?.self) { group in
            group.addTask {
                for await event in stream where predicate(event) { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let result = await group.next() ?? nil
            group.cancelAll()
            return result
        }
    }
}

@Suite("PlanStore notifications and recovery", .database)
struct NotificationAndRecoveryTests {
    @Test("a commit in one store reaches another store's listener")
    func listenNotify() async throws {
        let store = TestDatabase.store
        let id = TestDatabase.unique("notify")
        try store.createPlan(id: id, document: StoreFixtures.demo)
        let events = EventCollector()
        let listener = try PlanListener(conninfo: TestDatabase.url) { events.continuation.yield($0) }
        try listener.start()
        defer { listener.stop() }
        #expect(await events.first(within: 10) { $0 == .resynchronize } != nil)

        let writer = PlanStore(conninfo: TestDatabase.url)
        var state = StoreFixtures.demo.state
        let spec = state.tasks["spec"]!
        let mutation = try StoreFixtures.mutation(
            .replace(previous: spec, proposed: spec.with(title: "notified")), on: &state, id: "n1")
        try writer.commit(plan: id, baseVersion: 0, mutations: [mutation])
        let event = await events.first(within: 10) { event in
            if case .committed(let plan, _) = event { return plan == id }
            return false
        }
        #expect(event == .committed(plan: id, version: 1))
    }

    /// Runs on a cluster of its own, so that stopping it disturbs no other test.
    @Test("PostgreSQL going away: clear unavailable errors, nothing half-written, recovery by itself")
    func restart() async throws {
        let cluster = try await PrivateCluster.start(port: 5441)
        defer { withExtendedLifetime(cluster) {} }  // destroyed at the end, not after its last use
        let (url, store) = (cluster.url, cluster.store)
        try store.createPlan(id: "p", document: StoreFixtures.demo)
        let events = EventCollector()
        let listener = try PlanListener(conninfo: url) { events.continuation.yield($0) }
        try listener.start()
        defer { listener.stop() }
        #expect(await events.first(within: 10) { $0 == .resynchronize } != nil)

        var state = StoreFixtures.demo.state
        let spec = state.tasks["spec"]!
        let first = try StoreFixtures.mutation(
            .replace(previous: spec, proposed: spec.with(title: "before crash")), on: &state, id: "c1")
        try store.commit(plan: "p", baseVersion: 0, mutations: [first])

        // Crash-stop the server: every call now fails cleanly as unavailable.
        #expect(try await cluster.kill())
        var candidate = state
        let again = candidate.tasks["spec"]!
        let second = try StoreFixtures.mutation(
            .replace(previous: again, proposed: again.with(title: "during outage")), on: &candidate, id: "c2")
        #expect(throws: StoreError.self) { try store.commit(plan: "p", baseVersion: 1, mutations: [second]) }
        do {
            _ = try store.loadPlan("p")
            Issue.record("load succeeded without a server")
        } catch {
            #expect(error.isUnavailable, "\(error)")
        }
        #expect(!store.isAvailable())

        // Back up: the same store reconnects by itself; the failed commit left nothing behind.
        #expect(try await cluster.restart())
        let loaded = try #require(try store.loadPlan("p"))
        #expect(loaded.version == 1)
        #expect(loaded.document.state.tasks["spec"]?.title == "before crash")
        #expect(try store.decision(plan: "p", user: "tester", proposalID: "c2") == nil)
        // The listener reconnects too and says it may have missed notifications; later commits
        // reach it again.
        #expect(await events.first(within: 20) { $0 == .resynchronize } != nil)
        try store.commit(plan: "p", baseVersion: 1, mutations: [second])
        #expect(try store.loadPlan("p")?.version == 2)
        let notified = await events.first(within: 10) { event in
            if case .committed("p", 2) = event { return true }
            return false
        }
        #expect(notified != nil)
    }
}
