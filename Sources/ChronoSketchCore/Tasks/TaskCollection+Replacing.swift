extension TaskCollection {
    /// Replaces a confirmed task in place (seed 000 `replacing(previous:proposed:)`).
    ///
    /// `previous` must equal the current task with its id; `proposed` keeps that id and takes the
    /// same slot in the input order. A new `parentID` moves the task (and its subtree) to another
    /// group. Existing dependencies are kept and revalidated.
    /// - Returns: what changed; `isNoop` when `proposed` equals `previous`.
    /// - Throws: `staleTask`, `identityChanged`, `invalidProgress`, `invalidHierarchy`,
    ///   `invalidDependency`; the collection is then unchanged.
    @discardableResult
    public mutating func replace(previous: GanttTask, proposed: GanttTask) throws(TaskGanttError)
        -> TaskCollectionChange
    {
        let position = try currentPosition(of: previous)
        guard proposed.id == previous.id else {
            throw .identityChanged(previous: previous.id, proposed: proposed.id)
        }
        try proposed.validateOwnValues()
        guard proposed != previous else { return TaskCollectionChange() }
        if proposed.parentID != previous.parentID {
            try checkParent(proposed.parentID, of: proposed)
        } else if proposed.parentID == proposed.id {
            throw .invalidHierarchy(id: proposed.id, reason: "a task cannot be its own parent")
        }
        if previous.kind.isSummary, !proposed.kind.isSummary, hasChildren(previous.id) {
            throw .invalidHierarchy(id: previous.id, reason: "a task with children must stay a summary")
        }
        if proposed.kind.isSummary, !previous.kind.isSummary {
            try checkNoDependencies(onFutureSummary: proposed.id)
        }

        var touches = SummaryTouches()
        let before = contribution(of: previous)
        tasks[position] = proposed
        if proposed.kind.isSummary != previous.kind.isSummary {
            if proposed.kind.isSummary {
                aggregates[proposed.id] = .empty
                touches.note(proposed.id, before: nil)
            } else {
                aggregates[proposed.id] = nil
            }
        }
        let after = contribution(of: proposed)
        if proposed.parentID == previous.parentID {
            if after != before {
                propagate(from: proposed.parentID, removing: before, adding: after, touching: &touches)
            }
        } else {
            moveChildPosition(position, from: previous.parentID, to: proposed.parentID)
            propagate(from: previous.parentID, removing: before, adding: nil, touching: &touches)
            propagate(from: proposed.parentID, removing: nil, adding: after, touching: &touches)
        }
        var change = TaskCollectionChange()
        change.upserted = [proposed]
        change.changedSummaryIDs = touches.changedIDs(in: self)
        return change
    }

    /// A copy with `previous` replaced by `proposed`; see `replace(previous:proposed:)`.
    public func replacing(previous: GanttTask, proposed: GanttTask) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.replace(previous: previous, proposed: proposed)
        return copy
    }

    /// The input position of a task whose captured value must still be current.
    func currentPosition(of original: GanttTask) throws(TaskGanttError) -> Int {
        guard let position = positionByID[original.id], tasks[position] == original else {
            throw .staleTask(id: original.id)
        }
        return position
    }

    /// Checks that `parentID` names an existing summary that is not `task` or one of its descendants.
    func checkParent(_ parentID: String?, of task: GanttTask) throws(TaskGanttError) {
        guard let parentID else { return }
        guard parentID != task.id else {
            throw .invalidHierarchy(id: task.id, reason: "a task cannot be its own parent")
        }
        guard let parentPosition = positionByID[parentID] else {
            throw .invalidHierarchy(id: task.id, reason: "parent \"\(parentID)\" does not exist")
        }
        guard tasks[parentPosition].kind.isSummary else {
            throw .invalidHierarchy(id: task.id, reason: "parent \"\(parentID)\" is not a summary")
        }
        var ancestorID = tasks[parentPosition].parentID
        while let id = ancestorID {
            guard id != task.id else {
                throw .invalidHierarchy(
                    id: task.id, reason: "parent \"\(parentID)\" is one of its own descendants")
            }
            ancestorID = tasks[positionByID[id]!].parentID
        }
    }

    /// A task about to become a summary must not be a dependency endpoint.
    private func checkNoDependencies(onFutureSummary id: String) throws(TaskGanttError) {
        if let successorID = successorsByID[id]?.first?.successorID {
            throw .invalidDependency(
                predecessorID: id, successorID: successorID,
                reason: "summary \"\(id)\" cannot be a dependency endpoint")
        }
        if let predecessorID = predecessorsByID[id]?.first?.predecessorID {
            throw .invalidDependency(
                predecessorID: predecessorID, successorID: id,
                reason: "summary \"\(id)\" cannot be a dependency endpoint")
        }
    }

    /// Moves an input position from one parent's sorted child list to another's.
    private mutating func moveChildPosition(_ position: Int, from oldParentID: String?, to newParentID: String?) {
        if let index = childPositions[oldParentID]?.sortedIndex(of: position) {
            childPositions[oldParentID]!.remove(at: index)
            if childPositions[oldParentID]!.isEmpty { childPositions[oldParentID] = nil }
        }
        childPositions[newParentID, default: []].insertSorted(position)
    }
}
