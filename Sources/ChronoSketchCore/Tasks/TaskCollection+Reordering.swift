extension TaskCollection {
    /// Moves `previous` directly before or after its sibling `relativeTo`, permuting only the
    /// input slots the siblings occupy (seed 000 `reordering(previous:relativeTo:position:)`).
    ///
    /// Nothing else moves: descendants keep their slots, so a summary's subtree follows it in the
    /// tree order. A changed sibling order alone does not make the intention stale.
    /// - Returns: what changed; `isNoop` for an adjacent no-op.
    /// - Throws: `staleTask` when either captured value is no longer current, `invalidHierarchy`
    ///   for a self or cross-parent target; the collection is then unchanged.
    @discardableResult
    public mutating func reorder(
        previous: GanttTask, relativeTo target: GanttTask, position: TaskOrderPosition
    ) throws(TaskGanttError) -> TaskCollectionChange {
        let sourcePosition = try currentPosition(of: previous)
        let targetPosition = try currentPosition(of: target)
        guard previous.id != target.id else {
            throw .invalidHierarchy(id: previous.id, reason: "a task cannot be ordered relative to itself")
        }
        guard previous.parentID == target.parentID else {
            throw .invalidHierarchy(id: previous.id, reason: "\"\(target.id)\" is not a sibling")
        }
        let slots = childPositions[previous.parentID]!
        let from = slots.sortedIndex(of: sourcePosition)!
        let targetIndex = slots.sortedIndex(of: targetPosition)!
        let remainingTargetIndex = targetIndex > from ? targetIndex - 1 : targetIndex
        let to = position == .before ? remainingTargetIndex : remainingTargetIndex + 1
        guard to != from else { return TaskCollectionChange() }

        // Rotate the tasks in the sibling slots between `from` and `to` (and their dependencies).
        if graph != nil {
            graph!.move(
                from < to
                    ? [(slots[from], slots[to])] + (from..<to).map { (slots[$0 + 1], slots[$0]) }
                    : [(slots[from], slots[to])] + (to..<from).map { (slots[$0], slots[$0 + 1]) })
        }
        let moved = tasks[sourcePosition]
        if from < to {
            for index in from..<to { tasks[slots[index]] = tasks[slots[index + 1]] }
        } else {
            for index in stride(from: from, to: to, by: -1) { tasks[slots[index]] = tasks[slots[index - 1]] }
        }
        tasks[slots[to]] = moved
        for index in min(from, to)...max(from, to) { positionByID[tasks[slots[index]].id] = slots[index] }

        var change = TaskCollectionChange()
        change.orderChanged = true
        change.movedIDs = (min(from, to)...max(from, to)).map { tasks[slots[$0]].id }
        return change
    }

    /// A reordered copy; see `reorder(previous:relativeTo:position:)`.
    public func reordering(
        previous: GanttTask, relativeTo target: GanttTask, position: TaskOrderPosition
    ) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.reorder(previous: previous, relativeTo: target, position: position)
        return copy
    }
}
