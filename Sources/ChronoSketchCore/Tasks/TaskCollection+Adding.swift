extension TaskCollection {
    /// Appends a new task at the end of the input order (seed 000 `adding(_:)`).
    /// - Throws: `blankID`, `invalidProgress`, `duplicateID`, `invalidHierarchy` (missing or
    ///   non-summary parent); the collection is then unchanged.
    @discardableResult
    public mutating func add(_ task: GanttTask) throws(TaskGanttError) -> TaskCollectionChange {
        try task.validateOwnValues()
        guard positionByID[task.id] == nil else { throw .duplicateID(id: task.id) }
        try checkParent(task.parentID, of: task)

        var touches = SummaryTouches()
        let position = tasks.count
        tasks.append(task)
        positionByID[task.id] = position
        graph?.appendTask()
        childPositions[task.parentID, default: []].append(position)
        if task.kind.isSummary {
            aggregates[task.id] = .empty
            touches.note(task.id, before: nil)
        }
        propagate(from: task.parentID, removing: nil, adding: contribution(of: task), touching: &touches)
        var change = TaskCollectionChange()
        change.upserted = [task]
        change.changedSummaryIDs = touches.changedIDs(in: self)
        return change
    }

    /// A copy with `task` appended; see `add(_:)`.
    public func adding(_ task: GanttTask) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.add(task)
        return copy
    }
}
