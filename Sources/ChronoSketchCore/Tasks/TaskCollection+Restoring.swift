extension TaskCollection {
    /// Puts a removed task back (the undo of a removal, protocol.md §10): before the task `before`
    /// in the input order (last when `before` is nil or gone), then links `dependencies`.
    ///
    /// Costs time in proportion to the plan (the indexes are rebuilt when the task goes anywhere
    /// but last).
    /// - Throws: what `add(_:)` and `link(_:)` throw; the collection is then unchanged.
    @discardableResult
    public mutating func restore(
        _ task: GanttTask, before: String?, dependencies restored: [TaskDependency]
    ) throws(TaskGanttError) -> TaskCollectionChange {
        var copy = self
        var change = try copy.add(task)
        if let before, let target = copy.positionByID[before] {
            var tasks = copy.tasks
            tasks.insert(tasks.removeLast(), at: target)
            change.orderChanged = true
            change.movedIDs = tasks[target...].map(\.id)
            let keptRanks = copy.graph != nil
            copy = TaskCollection(unchecked: tasks, dependencies: copy.dependencies)
            if keptRanks { copy.keepRanks() }
        }
        for dependency in restored {
            try copy.link(dependency)
            change.dependenciesChanged = true
        }
        self = copy
        return change
    }

    /// The id of the task after `id` in the input order, if any.
    func idAfter(_ id: String) -> String? {
        guard let position = positionByID[id], position + 1 < tasks.count else { return nil }
        return tasks[position + 1].id
    }

    /// The dependencies touching `id`, in list order.
    func dependencies(touching id: String) -> [TaskDependency] {
        dependencies.filter { $0.predecessorID == id || $0.successorID == id }
    }

    /// The sibling directly after `id` (`.before` it) or, for the last child, directly before it
    /// (`.after` it): where a reorder of `id` can put it back.
    func neighbour(of id: String) -> (sibling: GanttTask, position: TaskOrderPosition)? {
        guard let position = positionByID[id], let slots = childPositions[tasks[position].parentID],
            let index = slots.sortedIndex(of: position)
        else { return nil }
        if index + 1 < slots.count { return (tasks[slots[index + 1]], .before) }
        if index > 0 { return (tasks[slots[index - 1]], .after) }
        return nil
    }

    /// The current value of the task `id`, if it exists.
    public func task(withID id: String) -> GanttTask? {
        positionByID[id].map { tasks[$0] }
    }
}
