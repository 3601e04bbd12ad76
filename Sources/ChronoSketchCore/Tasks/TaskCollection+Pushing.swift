extension TaskCollection {
    /// Moves many tasks at once to new dates (a settle's pushes): each must exist and keep its
    /// id, title, parent and kind of task. The summaries above them are folded again once each,
    /// deepest first, instead of once per task and level.
    /// - Returns: what changed (the tasks, and the summaries whose values differ), or nil, with
    ///   nothing changed, when a task is not such a move.
    mutating func moveDates(of moved: [GanttTask], at positions: [Int]) -> TaskCollectionChange? {
        for (task, position) in zip(moved, positions) {
            guard TaskCollection.isDateMove(from: tasks[position], to: task) else { return nil }
        }
        // Every summary above a moved task, with its depth (siblings in a row share one walk).
        var depthOf: [String: Int] = [:]
        var lastParent: String?
        for task in moved where task.parentID != lastParent {
            lastParent = task.parentID
            var parent = task.parentID
            while let id = parent, depthOf[id] == nil {
                depthOf[id] = 0
                parent = tasks[positionByID[id]!].parentID
            }
        }
        for id in depthOf.keys {
            var depth = 0
            var parent = tasks[positionByID[id]!].parentID
            while let above = parent {
                depth += 1
                parent = tasks[positionByID[above]!].parentID
            }
            depthOf[id] = depth
        }
        for (task, position) in zip(moved, positions) { tasks[position] = task }
        var change = TaskCollectionChange()
        change.upserted = moved
        for (id, _) in depthOf.sorted(by: { $0.value > $1.value }) {
            let before = aggregates[id]!
            let after = aggregateFromChildren(of: id)
            guard after != before else { continue }
            aggregates[id] = after
            if after.values != before.values { change.changedSummaryIDs.append(id) }
        }
        return change
    }

    /// The positions of `moved` (each task's own id): `known` when it names them (as a settle
    /// does), else looked up; nil when a task is not in the collection.
    func positions(of moved: [GanttTask], known: [Int]) -> [Int]? {
        if known.count == moved.count, zip(moved, known).allSatisfy({ $1 < tasks.count && tasks[$1].id == $0.id }) {
            return known
        }
        var positions: [Int] = []
        positions.reserveCapacity(moved.count)
        for task in moved {
            guard let position = positionByID[task.id] else { return nil }
            positions.append(position)
        }
        return positions
    }

    /// Whether `proposed` differs from `current` in its dates only.
    private static func isDateMove(from current: GanttTask, to proposed: GanttTask) -> Bool {
        guard current.id == proposed.id, current.title == proposed.title, current.parentID == proposed.parentID
        else { return false }
        switch (current.kind, proposed.kind) {
        case (.activity(_?, let before), .activity(_?, let after)): return before == after
        case (.milestone, .milestone): return true
        default: return false
        }
    }
}
