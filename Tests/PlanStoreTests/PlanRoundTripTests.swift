import ChronoSketchCore
import PlanStore
import PlanTestSupport
import Testing

@Suite("PlanStore plans: import, load, commit, export", .database)
struct PlanRoundTripTests {
    let store = TestDatabase.store

    @Test("an imported plan loads back equal, at version 0")
    func importAndLoad() throws {
        let id = try StoreFixtures.newDemoPlan("demo")
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.version == 0)
        #expect(loaded.document == StoreFixtures.demo)
        #expect(try store.loadPlan(TestDatabase.unique("missing")) == nil)
        #expect(throws: StoreError.self) { try store.createPlan(id: id, document: StoreFixtures.demo) }
    }

    @Test("every op commits its rows; the loaded plan equals the in-memory state")
    func everyOperation() throws {
        let id = try StoreFixtures.newDemoPlan("ops")
        var state = StoreFixtures.demo.state
        let t = state.tasks
        let spec = t["spec"]!
        let operations: [PlanOperation] = [
            .replace(previous: spec, proposed: spec.with(kind: .activity(schedule: spec.schedule, progress: 80))),
            .add(try GanttTask(id: "qa", title: "QA ✓", parentID: "impl", kind: .activity(schedule: nil, progress: 5))),
            .reorder(previous: t["impl"]!, relativeTo: t["design"]!, position: .before),
            .replace(previous: t["review"]!, proposed: t["review"]!.with(parentID: "impl")),
            .link(TaskDependency(predecessorID: "qa", successorID: "release")),
            .unlink(TaskDependency(predecessorID: "spec", successorID: "build")),
            .remove(previous: t["build"]!),
            .timelineApply(
                original: TimelineAssignedEntry(
                    entry: state.timeline.entry("e1")!, assignment: state.timeline.assignment("a1")!),
                proposed: TimelineAssignedEntry(
                    entry: try TimelineEntry(
                        id: "e1", title: "Workshop (moved)", start: Demo.time("2026-09-09T13:00"),
                        end: Demo.time("2026-09-09T16:30")),
                    assignment: try TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-2"))),
            .timelineAdd(
                entry: try TimelineEntry(
                    id: "e3", title: "Demo", start: Demo.time("2026-09-12T10:00"),
                    end: Demo.time("2026-09-12T11:00")),
                assignments: [try TimelineAssignment(id: "a9", entryID: "e3", resourceID: "room-1")]),
            .timelineRemove(entry: state.timeline.entry("e2")!),
        ]
        var version = 0
        for (index, operation) in operations.enumerated() {
            // Ops built from `t` may be stale after earlier ones: rebuild from the current state.
            let current = try Self.refresh(operation, in: state)
            let mutation = try StoreFixtures.mutation(current, on: &state, id: "p\(index)")
            version = try store.commit(plan: id, baseVersion: version, mutations: [mutation])
            let loaded = try #require(try store.loadPlan(id))
            #expect(loaded.version == index + 1)
            #expect(loaded.document.state == state, "after \(operation.typeName)")
        }
        #expect(state.tasks.tasks.map(\.id) == ["impl", "spec", "review", "design", "release", "qa"])
    }

    /// The same op with its captured originals replaced by the current values.
    static func refresh(_ operation: PlanOperation, in state: PlanState) throws -> PlanOperation {
        switch operation {
        case .replace(let previous, let proposed): .replace(previous: state.tasks[previous.id]!, proposed: proposed)
        case .reorder(let previous, let target, let position):
            .reorder(previous: state.tasks[previous.id]!, relativeTo: state.tasks[target.id]!, position: position)
        case .remove(let previous): .remove(previous: state.tasks[previous.id]!)
        default: operation
        }
    }

    @Test("a group commit writes many mutations with consecutive versions in one transaction")
    func groupCommit() throws {
        let id = try StoreFixtures.newDemoPlan("group")
        var state = StoreFixtures.demo.state
        var batch: [CommittedMutation] = []
        for index in 0..<60 {
            let spec = state.tasks["spec"]!
            let progress = Double(index % 101)
            let operation: PlanOperation =
                index % 3 == 2
                ? .add(try GanttTask(id: "n\(index)", title: "New \(index)", parentID: "design", kind: .summary))
                : .replace(
                    previous: spec, proposed: spec.with(kind: .activity(schedule: spec.schedule, progress: progress)))
            guard let mutation = try? StoreFixtures.mutation(operation, on: &state, id: "g\(index)"),
                !mutation.change.isNoop
            else { continue }
            batch.append(mutation)
        }
        let rejection = RecordedDecision(
            proposalID: "bad-1", user: "tester", decision: .rejected(version: 3, code: .staleTask, message: "stale"))
        let version = try store.commit(plan: id, baseVersion: 0, mutations: batch, decisions: [rejection])
        #expect(version == batch.count)
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.version == batch.count && loaded.document.state == state)
        guard case .mutations(let log, let current) = try store.mutations(of: id, since: 0) else {
            Issue.record("log missing")
            return
        }
        #expect(current == batch.count)
        #expect(log.map(\.version) == Array(1...batch.count))
        #expect(log.map(\.proposalID) == batch.map(\.proposalID))
        #expect(
            try store.decision(plan: id, user: "tester", proposalID: "g1") == .acknowledged(version: 2, noop: false))
        #expect(
            try store.decision(plan: id, user: "tester", proposalID: "bad-1")
                == .rejected(version: 3, code: .staleTask, message: "stale"))
        #expect(try store.decision(plan: id, user: "someone-else", proposalID: "g1") == nil)
    }

    @Test(
        "a batch of edits, some of rows it removes later, loads back with the last values (RowWritesTests counts the writes)"
    )
    func editsWrittenOnce() throws {
        let id = try StoreFixtures.newDemoPlan("edits")
        var state = StoreFixtures.demo.state
        var batch: [CommittedMutation] = []
        func commit(_ operation: PlanOperation) throws {
            batch.append(try StoreFixtures.mutation(operation, on: &state, id: "m\(batch.count)"))
        }
        func retitle(_ task: String, _ title: String) throws {
            let current = try #require(state.tasks[task])
            try commit(.replace(previous: current, proposed: current.with(title: title)))
        }
        func move(_ entry: String, to start: String, _ end: String, resource: String) throws {
            let current = try #require(state.timeline.entry(entry))
            let assignment = try #require(state.timeline.assignments(ofEntry: entry).first)
            let original = TimelineAssignedEntry(entry: current, assignment: assignment)
            let moved = TimelineAssignedEntry(
                entry: try current.with(start: Demo.time(start), end: Demo.time(end)),
                assignment: try TimelineAssignment(id: assignment.id, entryID: entry, resourceID: resource))
            try commit(.timelineApply(original: original, proposed: moved))
        }
        try retitle("spec", "First")
        try retitle("review", "Doomed")
        try retitle("spec", #"Second "quoted\" \\ é"#)
        try commit(.remove(previous: try #require(state.tasks["review"])))
        let again = try GanttTask(
            id: "review", title: "Back", parentID: "impl", kind: .activity(schedule: nil, progress: 5))
        try commit(.add(again))
        try retitle("review", "Back again")
        try move("e2", to: "2026-09-11T09:00", "2026-09-11T10:00", resource: "room-1")
        try move("e2", to: "2026-09-12T09:00", "2026-09-12T11:00", resource: "room-2")
        try move("e1", to: "2026-09-09T10:00", "2026-09-09T13:30", resource: "room-1")
        try commit(.timelineRemove(entry: try #require(state.timeline.entry("e1"))))
        #expect(try store.commit(plan: id, baseVersion: 0, mutations: batch) == batch.count)
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.document.state == state)
        #expect(loaded.document.state.tasks["spec"]?.title == #"Second "quoted\" \\ é"#)
        #expect(loaded.document.state.tasks["review"]?.title == "Back again")
        #expect(loaded.document.state.timeline.entry("e2")?.start == Demo.time("2026-09-12T09:00"))
        #expect(loaded.document.state.timeline.entry("e1") == nil)
    }

    @Test("moves of two assignments of one entry in one batch are both written")
    func twoAssignmentsOfOneEntry() throws {
        var state = StoreFixtures.demo.state
        let timeline = state.timeline
        state.timeline = try TimelineData(
            resources: timeline.resources + [try TimelineResource(id: "room-3", label: "Room 3")],
            entries: timeline.entries, assignments: timeline.assignments)
        let id = TestDatabase.unique("assignments")
        try store.createPlan(id: id, document: PlanDocument(title: "Rooms", state: state))
        var batch: [CommittedMutation] = []
        /// Moves the assignment `assignmentID` of e1 to `resource`.
        func move(_ assignmentID: String, to resource: String) throws {
            let entry = try #require(state.timeline.entry("e1"))
            let assignment = try #require(state.timeline.assignments(ofEntry: "e1").first { $0.id == assignmentID })
            let operation = PlanOperation.timelineApply(
                original: TimelineAssignedEntry(entry: entry, assignment: assignment),
                proposed: TimelineAssignedEntry(entry: entry, assignment: assignment.with(resourceID: resource)))
            batch.append(try StoreFixtures.mutation(operation, on: &state, id: "move-\(assignmentID)"))
        }
        try move("a1", to: "room-3")
        try move("a2", to: "room-1")
        #expect(try store.commit(plan: id, baseVersion: 0, mutations: batch) == 2)
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.document.state == state)
        #expect(
            loaded.document.state.timeline.assignments(ofEntry: "e1").map(\.resourceID).sorted() == [
                "room-1", "room-3",
            ])
    }

    @Test("random batches of every op commit to rows that load back as the in-memory state", arguments: [1, 2, 3, 4])
    func randomBatches(seed: UInt64) throws {
        var random = RandomPlanOperations(seed: seed)
        for _ in 0..<40 {
            if let operation = random.operation() { _ = try? random.state.apply(operation) }
        }
        let id = TestDatabase.unique("random")
        try store.createPlan(id: id, document: PlanDocument(title: "Random", state: random.state))
        var version = 0
        var kinds: Set<String> = []
        for round in 0..<12 {
            var batch: [CommittedMutation] = []
            // Batches grow round by round, so that later ones move and edit the same tasks repeatedly.
            while batch.count < 8 + round * 3 {
                guard let operation = random.operation() else { continue }
                guard
                    let mutation = try? StoreFixtures.mutation(
                        operation, on: &random.state, id: "r\(round)-\(batch.count)"),
                    !mutation.change.isNoop
                else { continue }
                kinds.insert(operation.typeName)
                batch.append(mutation)
            }
            version = try store.commit(plan: id, baseVersion: version, mutations: batch)
            let loaded = try #require(try store.loadPlan(id))
            #expect(loaded.version == version)
            #expect(loaded.document.state == random.state, "seed \(seed) round \(round)")
            #expect(loaded.document.state.tasks.tasks.map(\.id) == random.state.tasks.tasks.map(\.id))
        }
        #expect(kinds.count == 9, "\(kinds.sorted())")
    }

    @Test("the log keeps op and changes byte for byte; since-reads")
    func logReads() throws {
        let id = try StoreFixtures.newDemoPlan("log")
        var state = StoreFixtures.demo.state
        for index in 0..<5 { try renameRelease(id, &state, version: index) }
        guard case .mutations(let tail, let current) = try store.mutations(of: id, since: 3) else {
            Issue.record("log missing")
            return
        }
        #expect(current == 5 && tail.map(\.version) == [4, 5])
        #expect(tail[0].changesJSON == #"{"op":"replace"}"#)
        let op = try PlanOperation(json: try JSONValue(parsing: tail[1].opJSON))
        if case .replace(_, let proposed) = op { #expect(proposed.title == "Release 4") } else { Issue.record("op") }
        #expect(try store.mutations(of: id, since: 5) == .mutations([], currentVersion: 5))
        #expect(try store.mutations(of: TestDatabase.unique("nope"), since: 0) == nil)
    }

    /// Commits one rename of the demo plan's release at `version` (to version + 1).
    private func renameRelease(_ id: String, _ state: inout PlanState, version: Int, logStart: Int? = nil) throws {
        let release = state.tasks["release"]!
        let mutation = try StoreFixtures.mutation(
            .replace(previous: release, proposed: release.with(title: "Release \(version)")), on: &state,
            id: "r\(version)")
        try store.commit(plan: id, baseVersion: version, mutations: [mutation], logStart: logStart)
    }

    @Test("a commit moves the log start with it; the rows behind it are deleted oldest first, a slice at a time")
    func logStartMoves() throws {
        let id = try StoreFixtures.newDemoPlan("keep")
        var state = StoreFixtures.demo.state
        for index in 0..<8 { try renameRelease(id, &state, version: index, logStart: index == 6 ? 5 : nil) }
        // From the commit on, the log answers only from its start.
        #expect(try store.mutations(of: id, since: 4) == .trimmed(currentVersion: 8))
        guard case .mutations(let tail, _) = try store.mutations(of: id, since: 5) else {
            Issue.record("log missing")
            return
        }
        #expect(tail.map(\.version) == [6, 7, 8])
        #expect(try #require(try store.loadPlan(id)).logStart == 5)
        // A start below the current one never moves it back.
        try renameRelease(id, &state, version: 8, logStart: 2)
        #expect(try #require(try store.loadPlan(id)).logStart == 5)

        let connection = try PGConnection(conninfo: TestDatabase.url)
        func logged() throws -> [Int] {
            let rows = try connection.query(
                "SELECT version FROM mutations WHERE plan_id = $1 ORDER BY version", [id])
            return (0..<rows.rowCount).compactMap { rows.int($0, 0) }
        }
        #expect(try logged() == Array(1...9))
        #expect(try store.deleteTrimmedLog(of: id, limit: 3) == 3)
        #expect(try logged() == [4, 5, 6, 7, 8, 9])
        #expect(try store.deleteTrimmedLog(of: id, limit: 3) == 1)
        // The row at the start stays: it holds the start's undo (protocol.md §5.9).
        #expect(try logged() == [5, 6, 7, 8, 9])
        #expect(try store.deleteTrimmedLog(of: id) == 0)
        // The rows behind the start are gone, yet the start itself is still rebuilt: the trim
        // wrote a checkpoint there first and kept it (the older ones went).
        let checkpoints = try connection.query(
            "SELECT version FROM checkpoints WHERE plan_id = $1 ORDER BY version", [id])
        #expect((0..<checkpoints.rowCount).compactMap { checkpoints.int($0, 0) } == [5])
        guard case .document(let atStart)? = try store.plan(id, asOf: 5) else {
            Issue.record("the log start cannot be fetched")
            return
        }
        #expect(atStart.state.tasks["release"]?.title == "Release 4")
    }

    @Test("two stores racing on one version: exactly one commit wins, the other sees the conflict")
    func versionGuard() throws {
        let id = try StoreFixtures.newDemoPlan("race")
        let other = PlanStore(conninfo: TestDatabase.url)
        var mine = StoreFixtures.demo.state
        var theirs = StoreFixtures.demo.state
        let spec = mine.tasks["spec"]!
        let a = try StoreFixtures.mutation(
            .replace(previous: spec, proposed: spec.with(title: "mine")), on: &mine, id: "m")
        let b = try StoreFixtures.mutation(
            .replace(previous: spec, proposed: spec.with(title: "theirs")), on: &theirs, id: "t")
        try store.commit(plan: id, baseVersion: 0, mutations: [a])
        #expect(throws: StoreError.versionConflict(plan: id, expected: 0)) {
            try other.commit(plan: id, baseVersion: 0, mutations: [b])
        }
        let loaded = try #require(try other.loadPlan(id))
        #expect(loaded.version == 1 && loaded.document.state.tasks["spec"]?.title == "mine")
        #expect(try other.decision(plan: id, user: "tester", proposalID: "t") == nil)
    }

    @Test("concurrent writers from many threads: versions stay contiguous, every commit is either in or out")
    func concurrentWriters() async throws {
        let id = try StoreFixtures.newDemoPlan("concurrent")
        let writers = 4
        let wins = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let own = PlanStore(conninfo: TestDatabase.url, connections: 1)
                    var committed = 0
                    for attempt in 0..<15 {
                        let plan = try own.loadPlan(id)!
                        var state = plan.document.state
                        let spec = state.tasks["spec"]!
                        let mutation = try StoreFixtures.mutation(
                            .replace(previous: spec, proposed: spec.with(title: "w\(writer)-\(attempt)")), on: &state,
                            id: "w\(writer)-\(attempt)")
                        do {
                            try own.commit(plan: id, baseVersion: plan.version, mutations: [mutation])
                            committed += 1
                        } catch StoreError.versionConflict {
                            continue
                        }
                    }
                    return committed
                }
            }
            return try await group.reduce(0, +)
        }
        guard case .mutations(let log, let current) = try store.mutations(of: id, since: 0) else {
            Issue.record("log missing")
            return
        }
        #expect(current == wins && log.count == wins)
        #expect(wins > 0 && log.map(\.version) == Array(1...wins))
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.document.state.tasks["spec"]?.title == log.last.map { "\($0.proposalID)" })
    }

    @Test("export carries id, version and every field; it imports back equal")
    func export() throws {
        let id = try StoreFixtures.newDemoPlan("export")
        let exported = try #require(try store.loadPlan(id)).exportJSON
        let document = try PlanDocument(json: try JSONValue(parsing: exported))
        #expect(document == StoreFixtures.demo)
        #expect(exported.hasPrefix(#"{"id":"\#(id)","version":0,"title":"Demo plan""#))
    }

    @Test("an invalid import file is rejected as a whole and creates nothing")
    func invalidImport() throws {
        let id = TestDatabase.unique("invalid")
        let text = #"{"title":"x","tasks":[{"id":"a","title":"A","kind":"activity","parentID":"ghost"}]}"#
        #expect(throws: DecodingFailure.self) { try PlanDocument(json: try JSONValue(parsing: text)) }
        // A document that is valid for the domain but breaks a database constraint (blank plan id)
        // fails inside the transaction: no plan row, no task rows.
        #expect(throws: StoreError.self) { try store.createPlan(id: " ", document: StoreFixtures.demo) }
        #expect(try store.loadPlan(id) == nil)
        let orphanRows = try store.pool.withConnection { connection throws(StoreError) in
            try connection.query("SELECT count(*) FROM tasks WHERE plan_id = ' '").int(0, 0)
        }
        #expect(orphanRows == 0)
    }
}
