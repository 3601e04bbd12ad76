import ChronoSketchCore

extension RowWrites {
    /// The statements that write a batch of applied ops, in one transaction after the plan row
    /// moved on. Fewer, larger statements: PostgreSQL prepares a table's constraint checks again
    /// for every statement, a row written twice in one transaction is checked twice, and every
    /// add used to update the plan row for its key.
    ///
    /// An op must see the rows of the ops before it. Unlinks and timeline adds and removals run in
    /// batch order; every other write is gathered and written once per row:
    ///
    /// - Adds and links: one insert each, taking consecutive keys in batch order. An unlink of a
    ///   dependency the batch linked drops the link instead.
    /// - Reorders: each hands the position keys of the siblings it rotates around among them.
    ///   Followed through the batch, every moved task ends with the key one task held before
    ///   (added tasks included), and takes it in one statement.
    /// - Removals: one statement, after the reorders (which may have handed a removed task's key
    ///   to a sibling). Dependencies of removed tasks cascade, gathered links included.
    /// - Edits: a `replace` sets every column of its task but the position, a `timeline.apply`
    ///   every column of its entry and of one of its assignments, and no other statement reads
    ///   those columns. Each edited row (task, entry, assignment) is written once, with its last
    ///   value, at the end (unless removed).
    ///
    /// Adding an id the batch removed, or a reorder that is not a rotation, first writes what was
    /// gathered (adds, links, reorders, removals, in that order). Foreign keys between tasks and
    /// dependencies are checked at COMMIT, so the order between these groups is free otherwise.
    static func statements(plan: String, mutations: [CommittedMutation]) -> [PGStatement] {
        var batch = BatchWrites(plan: plan)
        for mutation in mutations where !mutation.change.isNoop { batch.add(mutation) }
        return batch.finish()
    }

    /// The last value written to each row of a batch, unless a later op removed the row.
    struct LastWrites<Value> {
        private var writes: [String: Value] = [:]

        mutating func write(_ id: String, _ value: Value) { writes[id] = value }
        mutating func remove(_ id: String) { writes[id] = nil }
        mutating func removeAll(where gone: (Value) -> Bool) { writes = writes.filter { !gone($0.value) } }

        /// The values to write, by id (one lock order for every writer).
        var survivors: [Value] { writes.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Reorders followed through a batch: which task's key (as it was before the batch, or when
    /// the task was added) each moved task ends with.
    struct KeyExchange {
        /// Moved task id → id of the task that held its final key.
        private(set) var heldBy: [String: String] = [:]

        /// Follows one reorder: `moved` went to one end of `newOrder`, the siblings whose slots
        /// it rotated, which take the keys of those slots in ascending order, as they held them.
        /// - Returns: false when `moved` is at neither end (then nothing is recorded).
        mutating func reorder(moved: String, newOrder: [String]) -> Bool {
            let before: [String]
            if newOrder.last == moved {
                before = [moved] + newOrder.dropLast()
            } else if newOrder.first == moved {
                before = Array(newOrder.dropFirst()) + [moved]
            } else {
                return false
            }
            let keys = before.map { heldBy[$0] ?? $0 }
            for (id, key) in zip(newOrder, keys) { heldBy[id] = key }
            return true
        }

        /// The tasks whose key changed and whose key they take, by id.
        var moves: [(id: String, keyOf: String)] {
            heldBy.filter { $0.key != $0.value }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// A batch being turned into statements; see `statements(plan:mutations:)`.
    private struct BatchWrites {
        let plan: String
        var statements: [PGStatement] = []
        var adds: [GanttTask] = []
        var links: [TaskDependency] = []
        var keys = KeyExchange()
        var removals: [String] = []
        var edits = LastWrites<GanttTask>()
        var entryEdits = LastWrites<TimelineEntry>()
        var assignmentEdits = LastWrites<TimelineAssignment>()

        init(plan: String) { self.plan = plan }

        mutating func add(_ mutation: CommittedMutation) {
            add(mutation.operation, mutation)
            // What the op's cascade pushed (scheduling.md §4): only the moved rows, each once.
            if case .tasks(let change) = mutation.change, !change.pushedFrom.isEmpty {
                let pushed = Set(change.pushed)
                for task in change.upserted where pushed.contains(task.id) { edits.write(task.id, task) }
            }
        }

        private mutating func add(_ operation: PlanOperation, _ mutation: CommittedMutation) {
            switch operation {
            case .add(let task):
                if removals.contains(task.id) { writeGathered() }
                adds.append(task)
            case .replace(_, let proposed):
                edits.write(proposed.id, proposed)
            case .reorder(let previous, _, _):
                guard case .tasks(let change) = mutation.change, !change.movedIDs.isEmpty else { return }
                if !keys.reorder(moved: previous.id, newOrder: change.movedIDs) {
                    // Not a rotation this writer knows: trade the keys in SQL, in order.
                    writeGathered()
                    statements.append(
                        PGStatement(RowWrites.reorderTasks, values: RowWrites.arrays(plan: plan, change.movedIDs)))
                }
            case .remove(let previous):
                edits.remove(previous.id)
                removals.append(previous.id)
            case .link(let dependency):
                links.append(dependency)
            case .relink(let previous, let proposed):
                if let index = links.firstIndex(of: previous) {
                    links[index] = proposed
                } else {
                    statements.append(
                        PGStatement(
                            RowWrites.updateDependency,
                            [
                                plan, proposed.predecessorID, proposed.successorID, proposed.type.rawValue,
                                String(proposed.lag),
                            ]))
                }
            case .settingsReplace(_, let proposed):
                statements.append(PGStatement(RowWrites.updateSettings, RowWrites.settingsValues(plan: plan, proposed)))
            case .restoring(let base, let restores):
                add(base, mutation)
                for restore in restores { edits.write(restore.proposed.id, restore.proposed) }
            case .unlink(let dependency):
                if let index = links.firstIndex(of: dependency) {
                    links.remove(at: index)
                } else {
                    statements.append(
                        PGStatement(
                            RowWrites.deleteDependency, [plan, dependency.predecessorID, dependency.successorID]))
                }
            case .timelineApply(_, let proposed):
                entryEdits.write(proposed.entry.id, proposed.entry)
                assignmentEdits.write(proposed.assignment.id, proposed.assignment)
            case .timelineAdd(let entry, let assignments):
                statements.append(PGStatement(RowWrites.insertEntry, [plan] + RowWrites.entryColumns(entry)))
                if !assignments.isEmpty { statements.append(RowWrites.insertAssignments(plan: plan, assignments)) }
            case .timelineRemove(let entry):
                entryEdits.remove(entry.id)
                assignmentEdits.removeAll { $0.entryID == entry.id }
                statements.append(PGStatement(RowWrites.deleteEntry, [plan, entry.id]))
            case .restore(let task, _, let dependencies):
                restore(task, dependencies, mutation.change)
            case .baselineSet(let name, let version):
                statements.append(
                    PGStatement(RowWrites.upsertBaseline, [plan, name, version.map(String.init), mutation.at]))
            case .baselineRemove(let name):
                statements.append(PGStatement(RowWrites.deleteBaseline, [plan, name]))
            case .undo:
                preconditionFailure("an undo is confirmed as the op it built")
            }
        }

        /// A task put back: added (its key is the plan's next), then rotated from the end to its
        /// place with the tasks after it, then its dependencies linked.
        private mutating func restore(_ task: GanttTask, _ dependencies: [TaskDependency], _ change: PlanChange) {
            if removals.contains(task.id) { writeGathered() }
            adds.append(task)
            if case .tasks(let change) = change, !change.movedIDs.isEmpty,
                !keys.reorder(moved: task.id, newOrder: change.movedIDs)
            {
                writeGathered()
                statements.append(
                    PGStatement(RowWrites.reorderTasks, values: RowWrites.arrays(plan: plan, change.movedIDs)))
            }
            links += dependencies
        }

        /// Writes the gathered adds, links, key exchanges and removals, in that order.
        mutating func writeGathered() {
            let moves = keys.moves
            let tasks = adds.map(RowWrites.taskColumns)
            append(RowWrites.insertTasks, tasks.isEmpty ? nil : RowWrites.columnArrays(plan: plan, tasks, columns: 7))
            append(
                RowWrites.insertDependencies,
                links.isEmpty
                    ? nil
                    : RowWrites.arrays(
                        plan: plan, links.map(\.predecessorID), links.map(\.successorID), links.map(\.type.rawValue),
                        links.map { String($0.lag) }))
            append(
                RowWrites.exchangeKeys,
                moves.isEmpty ? nil : RowWrites.arrays(plan: plan, moves.map(\.id), moves.map(\.keyOf)))
            append(RowWrites.deleteTasks, removals.isEmpty ? nil : RowWrites.arrays(plan: plan, removals))
            adds = []
            links = []
            keys = KeyExchange()
            removals = []
        }

        mutating func finish() -> [PGStatement] {
            writeGathered()
            let tasks = edits.survivors.map(RowWrites.taskColumns)
            let entries = entryEdits.survivors.map(RowWrites.entryColumns)
            let assignments = assignmentEdits.survivors
            append(RowWrites.updateTasks, tasks.isEmpty ? nil : RowWrites.columnArrays(plan: plan, tasks, columns: 7))
            append(
                RowWrites.updateEntries, entries.isEmpty ? nil : RowWrites.columnArrays(plan: plan, entries, columns: 4)
            )
            append(
                RowWrites.updateAssignments,
                assignments.isEmpty
                    ? nil : RowWrites.arrays(plan: plan, assignments.map(\.id), assignments.map(\.resourceID)))
            return statements
        }

        /// Appends a statement of gathered rows; nil parameters: there are none.
        private mutating func append(_ sql: String, _ values: [PGValue]?) {
            if let values { statements.append(PGStatement(sql, values: values)) }
        }
    }
}
