import ChronoSketchCore
import PlanStore
import PlanTestSupport
import Testing

/// Automatic scheduling in the store (scheduling.md §7): settings and typed dependencies as
/// columns, a cascade writing only the moved rows, and the built undo with its restores.
@Suite("PlanStore plans: scheduling", .database)
struct PlanStoreSchedulingTests {
    let store = TestDatabase.store

    @Test("scheduling: settings, typed dependencies, relinks, cascades and their undo are stored and load back")
    func scheduling() throws {
        let id = try StoreFixtures.newDemoPlan("scheduled")
        var state = StoreFixtures.demo.state
        let settings = PlanSettings(
            scheduling: .automatic,
            calendar: try PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [Demo.date("2026-12-25")]))
        var version = 0
        func commit(_ operations: [PlanOperation]) throws -> [PlanChange] {
            var mutations: [CommittedMutation] = []
            for operation in operations {
                mutations.append(try StoreFixtures.mutation(operation, on: &state, id: "p\(version + mutations.count)"))
            }
            version = try store.commit(plan: id, baseVersion: version, mutations: mutations)
            #expect(try store.loadPlan(id)?.document.state == state)
            return mutations.map(\.change)
        }
        _ = try commit([.settingsReplace(previous: .default, proposed: settings)])
        // A link and its relink in one batch (the gathered insert takes the new type), then a
        // relink of a stored dependency, which pushes release.
        let link = TaskDependency(predecessorID: "spec", successorID: "release", type: .startToStart, lag: 2)
        let relinked = link.with(type: .finishToFinish, lag: -1)
        _ = try commit([.link(link), .relink(previous: link, proposed: relinked)])
        let pushing = TaskDependency(predecessorID: "build", successorID: "release")
        let changes = try commit([.relink(previous: pushing, proposed: pushing.with(type: .finishToStart, lag: 10))])
        #expect(changes.first?.cascade?.map(\.id) == ["release"])
        // The undo built from it: the relink turned round and release put back.
        let restore = try #require(changes.first?.cascade?.first)
        let undo = PlanOperation.restoring(
            .relink(previous: pushing.with(type: .finishToStart, lag: 10), proposed: pushing),
            restores: [TaskRestore(previous: restore, proposed: StoreFixtures.demo.state.tasks["release"]!)])
        _ = try commit([undo])
        #expect(state.tasks["release"] == StoreFixtures.demo.state.tasks["release"])
        // The export imports back with everything.
        let exported = try #require(try store.loadPlan(id)).document
        let copy = TestDatabase.unique("scheduled-copy")
        try store.createPlan(id: copy, document: try PlanDocument(json: JSONValue(parsing: exported.json)))
        #expect(try store.loadPlan(copy)?.document.state == state)
    }
}
