import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanStore

@Suite("The log's inverses: stored when reverting needs the data, formed from the op otherwise")
struct LogInverseTests {
    @Test(
        "an edit's and a link's inverses are not stored, a removal's and a reorder's are; all read back alike",
        .database)
    func inversesReadBack() throws {
        let store = TestDatabase.store
        let id = try StoreFixtures.newDemoPlan("inverses")
        var state = StoreFixtures.demo.state
        let spec = try #require(state.tasks["spec"])
        let review = try #require(state.tasks["review"])
        let release = try #require(state.tasks["release"])
        let operations: [PlanOperation] = [
            .replace(previous: spec, proposed: spec.with(title: "Edited")),
            .link(TaskDependency(predecessorID: "review", successorID: "release")),
            .reorder(previous: release, relativeTo: try #require(state.tasks["design"]), position: .before),
            .remove(previous: review),
        ]
        var inverses: [PlanOperation] = []
        var mutations: [CommittedMutation] = []
        for (index, operation) in operations.enumerated() {
            let inverse = try #require(state.inverse(of: operation))
            let change = try state.apply(operation)
            inverses.append(inverse)
            mutations.append(
                CommittedMutation(
                    proposalID: "m\(index)", user: "tester", operation: operation, change: change, changesJSON: "{}",
                    inverse: inverse))
        }
        try store.commit(plan: id, baseVersion: 0, mutations: mutations)

        let connection = try PGConnection(conninfo: TestDatabase.url)
        let rows = try connection.query(
            "SELECT inverse IS NULL, inverse_from_op FROM mutations WHERE plan_id = $1 ORDER BY version", [id])
        let stored = (0..<rows.rowCount).map { [rows.string($0, 0), rows.string($0, 1)] }
        #expect(stored == [["t", "t"], ["t", "t"], ["f", "f"], ["f", "f"]])

        for (index, inverse) in inverses.enumerated() {
            #expect(try store.undoSource(of: id, version: index + 1) == .inverse(inverse))
        }
        guard case .mutations(let logged, _)? = try store.mutations(of: id, since: 0) else {
            Issue.record("the log did not read")
            return
        }
        // The log read says which inverses to form from the op (and holds the others).
        #expect(logged.map(\.inverseFromOp) == [true, true, false, false])
        let read = try logged.map { entry in
            entry.inverseFromOp
                ? try PlanOperation(json: JSONValue(parsing: Array(entry.opJSON.utf8))).inverseOfItself
                : try PlanOperation(json: JSONValue(parsing: Array(try #require(entry.inverseJSON).utf8)))
        }
        #expect(read == inverses)
    }

    @Test("a mutation whose inverse is not its op turned round keeps it stored (or its absence)")
    func otherInversesStored() throws {
        var state = StoreFixtures.demo.state
        let spec = try #require(state.tasks["spec"])
        let edit = PlanOperation.replace(previous: spec, proposed: spec.with(title: "Edited"))
        let change = try state.apply(edit)
        let withNone = CommittedMutation(
            proposalID: "a", user: "tester", operation: edit, change: change, changesJSON: "{}")
        let withOther = CommittedMutation(
            proposalID: "b", user: "tester", operation: edit, change: change, changesJSON: "{}", inverse: edit)
        let turnedRound = CommittedMutation(
            proposalID: "c", user: "tester", operation: edit, change: change, changesJSON: "{}",
            inverse: edit.inverseOfItself)
        #expect([withNone, withOther, turnedRound].map(\.inverseFromOp) == [false, false, true])
    }
}
