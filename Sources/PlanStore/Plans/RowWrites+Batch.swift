import ChronoSketchCore

extension RowWrites {
    /// The statements that write a batch of applied ops, in one transaction after the plan row
    /// moved on. An op must see the rows of the ops before it, so most statements run in batch
    /// order; three kinds of writes are gathered and written once per row instead:
    ///
    /// - Edits: a `replace` sets every column of its task but the position, a `timeline.apply`
    ///   every column of its entry and assignment, and no other statement reads those columns.
    ///   Each edited row is written once, with its last value, at the end (an edit of a row the
    ///   batch removes afterwards is dropped).
    /// - Reorders: each hands the position keys of the siblings it rotates around among them.
    ///   Followed through the batch, every moved task ends with the key one task held before the
    ///   batch (or got when added), and takes it in one statement: a task moved by several
    ///   reorders is written once.
    /// - Removals: one statement for all, after the reorders (which may have handed a removed
    ///   task's key to a sibling). Adding an id the batch removed writes what was gathered first.
    ///
    /// Fewer, larger statements: PostgreSQL prepares a table's constraint checks again for every
    /// statement, and a row written twice in one transaction is checked twice.
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

        /// The values to write, by id (one lock order for every writer).
        var survivors: [Value] { writes.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Reorders followed through a batch: which task's key (as it was before the batch, or when
    /// the task was added) each moved task ends with.
    struct KeyExchange {
        /// Moved task id → id of the task that held its final key.
        private(set) var heldBy: [String: String] = [:]

        var isEmpty: Bool { heldBy.isEmpty }

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
        var edits = LastWrites<GanttTask>()
        var entryEdits = LastWrites<TimelineAssignedEntry>()
        var keys = KeyExchange()
        var removals: [String] = []

        init(plan: String) { self.plan = plan }

        mutating func add(_ mutation: CommittedMutation) {
            switch mutation.operation {
            case .replace(_, let proposed):
                edits.write(proposed.id, proposed)
            case .timelineApply(_, let proposed):
                entryEdits.write(proposed.entry.id, proposed)
            case .reorder(let previous, _, _):
                guard case .tasks(let change) = mutation.change, !change.movedIDs.isEmpty else { return }
                if !keys.reorder(moved: previous.id, newOrder: change.movedIDs) {
                    // Not a rotation this writer knows: trade the keys in SQL, in order.
                    writeGathered()
                    statements += RowWrites.statements(
                        plan: plan, operation: mutation.operation, change: mutation.change)
                }
            case .remove(let previous):
                edits.remove(previous.id)
                removals.append(previous.id)
            case .add(let task):
                if removals.contains(task.id) { writeGathered() }
                statements += RowWrites.statements(plan: plan, operation: mutation.operation, change: mutation.change)
            case .timelineRemove(let entry):
                entryEdits.remove(entry.id)
                statements += RowWrites.statements(plan: plan, operation: mutation.operation, change: mutation.change)
            case .link, .unlink, .timelineAdd:
                statements += RowWrites.statements(plan: plan, operation: mutation.operation, change: mutation.change)
            }
        }

        /// Writes the gathered key exchanges, then the gathered removals.
        mutating func writeGathered() {
            let moves = keys.moves
            if !moves.isEmpty {
                statements.append(
                    PGStatement(
                        RowWrites.exchangeKeys,
                        [plan, PGArrayLiteral.make(moves.map(\.id)), PGArrayLiteral.make(moves.map(\.keyOf))]))
            }
            keys = KeyExchange()
            if !removals.isEmpty {
                statements.append(PGStatement(RowWrites.deleteTasks, [plan, PGArrayLiteral.make(removals)]))
            }
            removals = []
        }

        mutating func finish() -> [PGStatement] {
            writeGathered()
            let tasks = edits.survivors
            if !tasks.isEmpty {
                let rows = tasks.map(RowWrites.taskColumns)
                statements.append(
                    PGStatement(
                        RowWrites.updateTasks,
                        [plan] + (0..<7).map { column in PGArrayLiteral.make(rows.map { $0[column] }) }))
            }
            let entries = entryEdits.survivors
            if !entries.isEmpty {
                let rows = entries.map { RowWrites.entryColumns($0.entry) }
                statements.append(
                    PGStatement(
                        RowWrites.updateEntries,
                        [plan] + (0..<4).map { column in PGArrayLiteral.make(rows.map { $0[column] }) }))
                statements.append(
                    PGStatement(
                        RowWrites.updateAssignments,
                        [
                            plan, PGArrayLiteral.make(entries.map(\.assignment.id)),
                            PGArrayLiteral.make(entries.map(\.assignment.resourceID)),
                        ]))
            }
            return statements
        }
    }

    /// Each task `$2[i]` takes the key task `$3[i]` holds when the statement starts (a statement
    /// does not see its own updates, so keys can go round).
    static let exchangeKeys = """
        UPDATE tasks t SET position = holder.position
        FROM unnest($2::text[], $3::text[]) AS s(id, key_of)
        JOIN tasks holder ON holder.plan_id = $1 AND holder.id = s.key_of
        WHERE t.plan_id = $1 AND t.id = s.id
        """

    /// The removed tasks (their dependencies cascade).
    static let deleteTasks = "DELETE FROM tasks WHERE plan_id = $1 AND id = ANY($2::text[])"
}
