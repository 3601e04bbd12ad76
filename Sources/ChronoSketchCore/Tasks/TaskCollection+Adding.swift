extension TaskCollection {
    /// Appends a new task at the end of the input order (seed 000 `adding(_:)`).
    /// - Throws: `blankID`, `invalidProgress`, `duplicateID`, `invalidHierarchy` (missing or
    ///   non-summary parent); the collection is then unchanged.
    @discardableResult
    public mutating func add(_ task: GanttTask) throws(TaskGanttError) -> TaskCollectionChange {
        try task.validateOwnValues()
        guard positionByID[task.id] == nil else { throw .duplicateID(id: task.id) }
        try checkParent(task.parentID, of: task)

        var change = TaskCollectionChange()
        let position = tasks.count
        tasks.append(task)
        positionByID[task.id] = position
        childPositions[task.parentID, default: []].append(position)
        if task.kind.isSummary {
            aggregates[task.id] = .empty
            change.changedSummaryIDs.append(task.id)
        }
        propagate(from: task.parentID, removing: nil, adding: contribution(of: task), into: &change)
        change.upserted = [task]
        return change
    }

    /// A copy with `task` appended; see `add(_:)`.
    public func adding(_ task: GanttTask) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.add(task)
        return copy
    }
}
