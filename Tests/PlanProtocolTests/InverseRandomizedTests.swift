import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

/// The inverse table of protocol.md §10 as pure logic: an op's inverse, formed on the data before
/// it, reverts it exactly; an undo of that undo re-applies it; baselines are judged by rule.
@Suite("History: inverses, restores and baselines")
struct InverseRandomizedTests {
    /// Tasks in order, dependencies as a set, timeline entries and assignments as sets.
    struct Data: Equatable {
        let tasks: [GanttTask]
        let dependencies: Set<TaskDependency>
        let entries: Set<TimelineEntry>
        let assignments: Set<TimelineAssignment>

        init(_ state: PlanState) {
            tasks = state.tasks.tasks
            dependencies = Set(state.tasks.dependencies)
            entries = Set(state.timeline.entries)
            assignments = Set(state.timeline.assignments)
        }
    }

    @Test("random ops: the inverse reverts each, and the inverse of the undo re-applies it", arguments: [1, 2, 3, 4])
    func undoRedo(seed: UInt64) throws {
        var operations = RandomPlanOperations(seed: seed)
        var undone = 0
        for _ in 0..<400 {
            guard let operation = operations.operation() else { continue }
            let before = operations.state
            guard (try? operations.state.apply(operation))?.isNoop == false else { continue }
            let after = operations.state
            guard let inverse = before.inverse(of: operation) else {
                Issue.record("no inverse of \(operation)")
                continue
            }
            var reverted = after
            let undo = after.undoOperation(from: inverse)
            try reverted.apply(undo)
            #expect(Data(reverted) == Data(before), "undo of \(operation)")
            // Redo: the inverse of the undo, formed on the data before the undo.
            let redo = try #require(after.inverse(of: undo))
            var redone = reverted
            try redone.apply(reverted.undoOperation(from: redo))
            #expect(Data(redone) == Data(after), "redo of \(operation)")
            undone += 1
        }
        #expect(undone > 150, "most random ops took effect and were undone")
    }

    @Test("a removed task comes back before its former follower, or last when that is gone, with the links that can")
    func restorePlaces() throws {
        let a = try GanttTask(id: "a", title: "A", kind: .activity(schedule: nil, progress: 0))
        let b = try GanttTask(id: "b", title: "B", kind: .activity(schedule: nil, progress: 0))
        let c = try GanttTask(id: "c", title: "C", kind: .activity(schedule: nil, progress: 0))
        let ab = TaskDependency(predecessorID: "a", successorID: "b")
        let bc = TaskDependency(predecessorID: "b", successorID: "c")
        var state = PlanState(tasks: try TaskCollection([a, b, c], dependencies: [ab, bc]))
        let inverse = try #require(state.inverse(of: .remove(previous: b)))
        #expect(inverse == .restore(task: b, before: "c", dependencies: [ab, bc]))
        try state.apply(.remove(previous: b))
        var back = state
        try back.apply(back.undoOperation(from: inverse))
        #expect(back.tasks.tasks.map(\.id) == ["a", "b", "c"])
        #expect(Set(back.tasks.dependencies) == [ab, bc])
        // Its follower and one endpoint gone since: last, with only the link whose ends exist.
        try state.apply(.remove(previous: c))
        try back.apply(.remove(previous: c))
        var later = state
        try later.apply(later.undoOperation(from: inverse))
        #expect(later.tasks.tasks.map(\.id) == ["a", "b"])
        #expect(later.tasks.dependencies == [ab])
        // Back already (someone re-added it): the restore is stale, not merged.
        #expect(throws: PlanOperationError.self) { try back.apply(back.undoOperation(from: inverse)) }
    }

    @Test("baselines: the judged version by default, moved by name, bounded by the log, removed only when there")
    func baselines() throws {
        var state = PlanState()
        let context = JudgingContext(version: 9, logStart: 3, at: "2026-12-01T10:00:00.000Z")
        #expect(try state.apply(.baselineSet(name: "Q3", version: nil), context: context) == .baselines)
        #expect(state.baselines == [PlanBaseline(name: "Q3", version: 9, at: "2026-12-01T10:00:00.000Z")])
        try state.apply(.baselineSet(name: "Q3", version: 3), context: context)
        try state.apply(.baselineSet(name: "Alpha", version: 5), context: context)
        #expect(state.baselines.map(\.name) == ["Alpha", "Q3"] && state.baselines.map(\.version) == [5, 3])
        let judged = state
        #expect(throws: PlanOperationError.history(.badMessage, "version 10 is above the current version 9")) {
            try state.apply(.baselineSet(name: "X", version: 10), context: context)
        }
        #expect(throws: PlanOperationError.history(.historyUnavailable, "version 2 is older than the log (3)")) {
            try state.apply(.baselineSet(name: "X", version: 2), context: context)
        }
        #expect(throws: PlanOperationError.history(.staleBaseline, "there is no baseline \"X\"")) {
            try state.apply(.baselineRemove(name: "X"), context: context)
        }
        #expect(state == judged)
        try state.apply(.baselineRemove(name: "Q3"), context: context)
        #expect(state.baselines.map(\.name) == ["Alpha"])
        #expect(state.inverse(of: .baselineRemove(name: "Alpha")) == nil)
    }

    @Test("baseline names on the wire: 1…128 scalars, not blank")
    func baselineNames() throws {
        func decode(_ name: String) throws -> PlanOperation {
            var writer = JSONWriter()
            writer.string(name)
            return try PlanOperation(
                json: JSONValue(parsing: Array(#"{"type":"baseline.set","name":\#(writer.string)}"#.utf8)))
        }
        #expect(try decode("Q3 commitment") == .baselineSet(name: "Q3 commitment", version: nil))
        #expect(
            try decode(String(repeating: "ü", count: 128))
                == .baselineSet(name: String(repeating: "ü", count: 128), version: nil))
        for bad in ["", "  \t", String(repeating: "x", count: 129)] {
            #expect(throws: DecodingFailure.self) { try decode(bad) }
        }
    }
}
