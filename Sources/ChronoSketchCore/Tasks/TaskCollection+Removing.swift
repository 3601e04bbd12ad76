extension TaskCollection {
    /// Removes a task that has no children; dependencies touching it go with it.
    ///
    /// Costs time in proportion to the plan (later input positions shift by one).
    /// - Throws: `staleTask` when `previous` is not current, `invalidHierarchy` when the task has
    ///   children; the collection is then unchanged.
    @discardableResult
    public mutating func remove(previous: GanttTask) throws(TaskGanttError) -> TaskCollectionChange {
        let position = try currentPosition(of: previous)
        guard !hasChildren(previous.id) else {
            throw .invalidHierarchy(id: previous.id, reason: "a task with children cannot be removed")
        }

        var change = TaskCollectionChange()
        let before = contribution(of: previous)
        let touching = outgoing(previous.id) + incoming(previous.id)
        if !touching.isEmpty {
            let doomed = Set(touching)
            dependencies.removeAll { doomed.contains($0) }
            for dependency in touching { forgetIndexes(of: dependency) }
            change.dependenciesChanged = true
        }
        graph?.removeTask(at: position)

        tasks.remove(at: position)
        positionByID[previous.id] = nil
        for later in position..<tasks.count { positionByID[tasks[later].id] = later }
        childPositions[previous.parentID]!.remove(at: childPositions[previous.parentID]!.sortedIndex(of: position)!)
        if childPositions[previous.parentID]!.isEmpty { childPositions[previous.parentID] = nil }
        for key in childPositions.keys {
            let slots = childPositions[key]!
            let firstLater = slots.insertionIndex(of: position)
            guard firstLater < slots.count else { continue }
            childPositions[key]!.withUnsafeMutableBufferPointer { buffer in
                for index in firstLater..<buffer.count { buffer[index] -= 1 }
            }
        }
        aggregates[previous.id] = nil
        var touches = SummaryTouches()
        propagate(from: previous.parentID, removing: before, adding: nil, touching: &touches)
        change.removed = [previous.id]
        change.changedSummaryIDs = touches.changedIDs(in: self)
        return change
    }

    /// A copy without `previous`; see `remove(previous:)`.
    public func removing(previous: GanttTask) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.remove(previous: previous)
        return copy
    }
}
