import ChronoSketchCore
import PlanProtocol
import Testing

private typealias F = Fixture

/// Applies `operation` to `state` and returns the changes the server broadcasts.
private func changes(_ operation: PlanOperation, to state: inout PlanState) throws -> PlanChanges {
    let change = try state.apply(operation)
    return PlanChanges(after: state, change: change)
}

@Suite("PlanChanges: the changes of confirmed")
struct PlanChangesTests {
    @Test("adding a task under a summary upserts it and the summary's new values")
    func add() throws {
        var state = F.demoState()
        let task = F.activity("test", parent: "phase-1", "2026-09-20", "2026-09-25", progress: 100)
        let result = try changes(.add(task), to: &state)
        #expect(result.upsert == [task])
        #expect(result.remove.isEmpty)
        #expect(result.order == nil)
        #expect(result.dependencies == nil)
        #expect(result.entries == nil)
        #expect(result.summaries == ["phase-1": state.tasks.summaryValues(of: "phase-1")!])
        #expect(
            result.json
                == #"{"upsert":[{"id":"test","title":"test","parentID":"phase-1","kind":"activity","#
                + #""schedule":{"start":"2026-09-20","end":"2026-09-25"},"progress":100}],"remove":[],"#
                + #""summaries":{"phase-1":{"start":"2026-09-08","end":"2026-09-25","lastDate":"2026-09-24","progress":58.333333333333336}}}"#
        )
        #expect(try PlanChanges(parsing: result.bytes) == result)
    }

    @Test("a reorder sends the complete order; a remove sends ids and, when touched, the dependency list")
    func reorderAndRemove() throws {
        var state = F.demoState()
        let reorder = try changes(.reorder(previous: F.release, relativeTo: F.spec, position: .before), to: &state)
        #expect(reorder.order == ["design", "release", "spec", "phase-1", "build"])
        #expect(reorder.upsert.isEmpty)
        #expect(
            reorder.json
                == #"{"upsert":[],"remove":[],"order":["design","release","spec","phase-1","build"],"summaries":{}}"#)
        let remove = try changes(.remove(previous: F.build), to: &state)
        #expect(remove.remove == ["build"])
        #expect(remove.dependencies == [])
        #expect(remove.order == nil)
        #expect(remove.summaries.keys.sorted() == ["phase-1"])
        let link = try changes(.link(TaskDependency(predecessorID: "spec", successorID: "release")), to: &state)
        #expect(link.dependencies == [TaskDependency(predecessorID: "spec", successorID: "release")])
        #expect(
            link.json
                == #"{"upsert":[],"remove":[],"dependencies":[{"predecessorID":"spec","successorID":"release","#
                + #""type":"finish-to-start","lag":0}],"summaries":{}}"#
        )
    }

    @Test("timeline ops name the entries they touched and nothing else")
    func timeline() throws {
        var state = F.demoState()
        let entry = F.entry("e2", "2026-09-10T09:00", "2026-09-10T10:00")
        let added = try changes(
            .timelineAdd(entry: entry, assignments: [F.assignment("a2", "e2", "room-2")]), to: &state)
        #expect(added == PlanChanges(entries: ["e2"]))
        #expect(added.json == #"{"upsert":[],"remove":[],"summaries":{},"entries":["e2"]}"#)
        let removed = try changes(.timelineRemove(entry: entry), to: &state)
        #expect(removed.entries == ["e2"])
        #expect(try PlanChanges(parsing: removed.bytes) == removed)
    }

    @Test("decoding accepts absent members and rejects wrong types with paths")
    func decoding() throws {
        #expect(try PlanChanges(parsing: Array("{}".utf8)) == PlanChanges())
        #expect(try PlanChanges(parsing: Array(#"{"order":null,"dependencies":null}"#.utf8)) == PlanChanges())
        #expect(throws: DecodingFailure(path: "changes.remove[0]", reason: "expected a string, found a number")) {
            try PlanChanges(parsing: Array(#"{"remove":[1]}"#.utf8))
        }
        #expect(throws: DecodingFailure.self) { try PlanChanges(parsing: Array(#"{"summaries":[]}"#.utf8)) }
        #expect(throws: DecodingFailure.self) { try PlanChanges(parsing: Array("[".utf8)) }
    }
}

@Suite("ClientPlanCopy")
struct ClientPlanCopyTests {
    static func start() -> (PlanState, ClientPlanCopy) {
        let state = F.demoState()
        let snapshot = PlanSnapshot(plan: "demo", version: 5, document: PlanDocument(title: "Demo", state: state))
        return (state, ClientPlanCopy(snapshot))
    }

    static func fresh(_ state: PlanState, version: Int) -> PlanSnapshot {
        PlanSnapshot(plan: "demo", version: version, document: PlanDocument(title: "Demo", state: state))
    }

    @Test("a summary that becomes an activity, or is removed, loses its summary values")
    func summaryLifecycle() throws {
        var (state, copy) = Self.start()
        let group = F.summary("group")
        var version = 5
        for operation: PlanOperation in [
            .add(group),
            .replace(previous: group, proposed: F.activity("group", progress: 40)),
            .replace(previous: F.activity("group", progress: 40), proposed: F.summary("group", title: "G")),
            .add(F.milestone("m", parent: "group", "2026-12-24")),
            .remove(previous: F.milestone("m", parent: "group", "2026-12-24")),
            .remove(previous: F.summary("group", title: "G")),
        ] {
            let result = try changes(operation, to: &state)
            version += 1
            try copy.apply(version: version, changes: result)
            #expect(copy.snapshot == Self.fresh(state, version: version), "\(operation)")
        }
        #expect(copy.summaries.keys.sorted() == ["phase-1"])
        #expect(copy["design"] == F.design)
        #expect(copy["group"] == nil)
    }

    @Test("versions must follow on exactly; a failed apply changes nothing")
    func gaps() throws {
        var (state, copy) = Self.start()
        let result = try changes(.add(F.activity("new")), to: &state)
        let before = copy
        #expect(throws: ClientPlanCopyError.versionGap(expected: 6, received: 7)) {
            try copy.apply(version: 7, changes: result)
        }
        #expect(throws: ClientPlanCopyError.versionGap(expected: 6, received: 5)) {
            try copy.apply(version: 5, changes: result)
        }
        #expect(ClientPlanCopyError.versionGap(expected: 6, received: 5).isDuplicate)
        #expect(!ClientPlanCopyError.versionGap(expected: 6, received: 7).isDuplicate)
        #expect(throws: ClientPlanCopyError.self) { try copy.apply(version: 6, changes: PlanChanges(remove: ["nope"])) }
        #expect(throws: ClientPlanCopyError.self) {
            try copy.apply(version: 6, changes: PlanChanges(order: ["design", "spec"]))
        }
        #expect(throws: ClientPlanCopyError.self) {
            try copy.apply(
                version: 6, changes: PlanChanges(order: ["design", "design", "release", "phase-1", "build"]))
        }
        #expect(copy == before)
        try copy.apply(version: 6, changes: result)
        #expect(copy.snapshot == Self.fresh(state, version: 6))
    }

    @Test("an order of the same tasks is checked by the ids that moved: unknown and repeated ids are refused")
    func orderChecks() throws {
        var (_, copy) = Self.start()
        let ids = copy.tasks.map(\.id)
        let before = copy
        var unknown = ids
        unknown[1] = "nope"
        #expect(throws: ClientPlanCopyError.inconsistent("the order names task \"nope\", which is not in the copy")) {
            try copy.apply(version: 6, changes: PlanChanges(order: unknown))
        }
        // The last id again in place of the second: named twice (it is still in place at the end).
        var repeated = ids
        repeated[1] = ids[ids.count - 1]
        #expect(throws: ClientPlanCopyError.inconsistent("the order names task \"\(ids[ids.count - 1])\" twice")) {
            try copy.apply(version: 6, changes: PlanChanges(order: repeated))
        }
        // Two moved ids that are the same one.
        var twiceMoved = ids
        (twiceMoved[0], twiceMoved[1], twiceMoved[2]) = (ids[2], ids[0], ids[0])
        #expect(throws: ClientPlanCopyError.inconsistent("the order names task \"\(ids[0])\" twice")) {
            try copy.apply(version: 6, changes: PlanChanges(order: twiceMoved))
        }
        #expect(copy == before)
        let rotated = [ids[2], ids[0], ids[1]] + ids.dropFirst(3)
        try copy.apply(version: 6, changes: PlanChanges(order: rotated))
        #expect(copy.tasks.map(\.id) == rotated)
        for id in ids { #expect(copy[id]?.id == id) }
    }

    @Test("messages: snapshot replaces, confirmed applies, resumed checks the version, others are ignored")
    func messages() throws {
        var (state, copy) = Self.start()
        let result = try changes(.add(F.activity("new")), to: &state)
        let confirmed = ServerMessage.confirmed(plan: "demo", version: 6, mutationID: "m", user: "u", changes: result)
        #expect(try copy.apply(confirmed))
        #expect(try !copy.apply(.resumed(plan: "demo", version: 6)))
        #expect(throws: ClientPlanCopyError.versionGap(expected: 6, received: 8)) {
            try copy.apply(.resumed(plan: "demo", version: 8))
        }
        #expect(try !copy.apply(.resumed(plan: "other", version: 8)))
        #expect(try !copy.apply(.ack(id: "m", plan: "demo", version: 6)))
        #expect(copy.snapshot == Self.fresh(state, version: 6))
        let later = Self.fresh(F.demoState(), version: 9)
        #expect(try copy.apply(.snapshot(later)))
        #expect(copy.snapshot == later)
        #expect(copy.version == 9)
    }
}
