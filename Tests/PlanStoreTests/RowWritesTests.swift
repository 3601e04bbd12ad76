import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanStore

@Suite("RowWrites: the statements of a batch")
struct RowWritesTests {
    /// The statements of a batch of ops applied to the demo plan in order.
    static func statements(_ operations: (PlanState) throws -> [PlanOperation]) throws -> [PGStatement] {
        var state = StoreFixtures.demo.state
        let mutations = try operations(state).enumerated().map { index, operation in
            try StoreFixtures.mutation(operation, on: &state, id: "m\(index)")
        }
        return RowWrites.statements(plan: "p", mutations: mutations)
    }

    @Test("edits become one update with each row's last value; an edited row removed later is not updated")
    func editsOnce() throws {
        let statements = try Self.statements { state in
            let spec = try #require(state.tasks["spec"])
            let review = try #require(state.tasks["review"])
            return [
                .replace(previous: spec, proposed: spec.with(title: "First")),
                .replace(previous: spec.with(title: "First"), proposed: spec.with(title: "Last")),
                .replace(previous: review, proposed: review.with(title: "Gone soon")),
                .remove(previous: review.with(title: "Gone soon")),
            ]
        }
        #expect(statements.map(\.sql) == [RowWrites.deleteTasks, RowWrites.updateTasks])
        // The update names spec once, with its last title, and not the removed review.
        #expect(statements[1].values[1] == .array(["spec"], of: .text))
        #expect(statements[1].values[3] == .array(["Last"], of: .text))
        #expect(statements[0].values[1] == .array(["review"], of: .text))
    }

    @Test("reorders in a batch become one key exchange; a move that is not a rotation is traded in SQL, in order")
    func reorders() throws {
        let statements = try Self.statements { state in
            let design = try #require(state.tasks["design"])
            let release = try #require(state.tasks["release"])
            let impl = try #require(state.tasks["impl"])
            return [
                .reorder(previous: release, relativeTo: design, position: .before),
                .reorder(previous: impl, relativeTo: release, position: .before),
            ]
        }
        #expect(statements.map(\.sql) == [RowWrites.exchangeKeys])

        // A change whose moved task is at neither end of its ids (no reorder makes one).
        let state = StoreFixtures.demo.state
        let release = try #require(state.tasks["release"])
        let design = try #require(state.tasks["design"])
        var change = TaskCollectionChange()
        change.orderChanged = true
        change.movedIDs = ["design", "release", "impl"]
        let odd = CommittedMutation(
            proposalID: "odd", user: "tester",
            operation: .reorder(previous: release, relativeTo: design, position: .after),
            change: .tasks(change), changesJSON: "{}")
        let fallback = RowWrites.statements(plan: "p", mutations: [odd])
        #expect(fallback.map(\.sql) == [RowWrites.reorderTasks])
        #expect(fallback[0].values[1] == .array(["design", "release", "impl"], of: .text))
    }
}
