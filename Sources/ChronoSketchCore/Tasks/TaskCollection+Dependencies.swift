extension TaskCollection {
    /// Adds one dependency at the end of the list.
    /// - Throws: `invalidDependency` (lag out of range, missing endpoint, self-link, summary
    ///   endpoint), `duplicateDependency` (the pair is there, whatever its type), `dependencyCycle`;
    ///   the collection is then unchanged.
    @discardableResult
    public mutating func link(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollectionChange {
        let (from, to) = try TaskCollection.endpointPositions(of: dependency, tasks: tasks, positionByID: positionByID)
        guard dependencyByPair[dependency.pair] == nil else {
            throw .duplicateDependency(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        guard admitted(dependency, from: from, to: to) else {
            throw .dependencyCycle(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        graph?.link(dependency, from: from, to: to)
        dependencies.append(dependency)
        dependencyByPair[dependency.pair] = dependency
        successorsByID[dependency.predecessorID, default: []].append(dependency)
        predecessorsByID[dependency.successorID, default: []].append(dependency)
        var change = TaskCollectionChange()
        change.dependenciesChanged = true
        return change
    }

    /// Removes one dependency, named by value.
    /// - Throws: `staleDependency` when its pair is not there or differs in type or lag; the
    ///   collection is then unchanged.
    @discardableResult
    public mutating func unlink(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollectionChange {
        guard dependencyByPair[dependency.pair] == dependency else {
            throw .staleDependency(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        dependencies.remove(at: dependencies.firstIndex(of: dependency)!)
        forgetIndexes(of: dependency)
        var change = TaskCollectionChange()
        change.dependenciesChanged = true
        return change
    }

    /// Changes a dependency's type or lag in place (its place in the list kept).
    /// - Throws: `invalidDependency` for a lag out of range, `staleDependency` when `previous`
    ///   is not the current dependency of its pair, `identityChanged` when `proposed` names
    ///   another pair; the collection is then unchanged. Equal values change nothing.
    @discardableResult
    public mutating func relink(previous: TaskDependency, proposed: TaskDependency) throws(TaskGanttError)
        -> TaskCollectionChange
    {
        try TaskCollection.checkLag(of: proposed)
        guard dependencyByPair[previous.pair] == previous else {
            throw .staleDependency(predecessorID: previous.predecessorID, successorID: previous.successorID)
        }
        guard proposed.pair == previous.pair else {
            throw .identityChanged(
                previous: "\(previous.predecessorID) → \(previous.successorID)",
                proposed: "\(proposed.predecessorID) → \(proposed.successorID)")
        }
        var change = TaskCollectionChange()
        guard proposed != previous else { return change }
        dependencies[dependencies.firstIndex(of: previous)!] = proposed
        dependencyByPair[proposed.pair] = proposed
        if let index = successorsByID[proposed.predecessorID]?.firstIndex(of: previous) {
            successorsByID[proposed.predecessorID]![index] = proposed
        }
        if let index = predecessorsByID[proposed.successorID]?.firstIndex(of: previous) {
            predecessorsByID[proposed.successorID]![index] = proposed
        }
        if graph != nil {
            graph!.relink(
                proposed, from: positionByID[proposed.predecessorID]!, to: positionByID[proposed.successorID]!)
        }
        change.dependenciesChanged = true
        return change
    }

    /// A copy with the dependency added; see `link(_:)`.
    public func linking(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.link(dependency)
        return copy
    }

    /// A copy without the dependency; see `unlink(_:)`.
    public func unlinking(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollection {
        var copy = self
        try copy.unlink(dependency)
        return copy
    }

    /// Removes a dependency from the lookup indexes (not from the list).
    mutating func forgetIndexes(of dependency: TaskDependency) {
        if graph != nil {
            graph!.unlink(from: positionByID[dependency.predecessorID]!, to: positionByID[dependency.successorID]!)
        }
        dependencyByPair[dependency.pair] = nil
        successorsByID[dependency.predecessorID]?.removeAll { $0.successorID == dependency.successorID }
        if successorsByID[dependency.predecessorID]?.isEmpty == true { successorsByID[dependency.predecessorID] = nil }
        predecessorsByID[dependency.successorID]?.removeAll { $0.predecessorID == dependency.predecessorID }
        if predecessorsByID[dependency.successorID]?.isEmpty == true { predecessorsByID[dependency.successorID] = nil }
    }

    /// Whether `dependency` (between the positions `from` and `to`) closes no cycle, making room
    /// for it in the ranks when the graph is kept (their search finds cycles too); without a
    /// graph, a search forward from its successor.
    private mutating func admitted(_ dependency: TaskDependency, from: Int, to: Int) -> Bool {
        guard graph != nil else {
            let successors = successorsByID
            var stack = [dependency.successorID]
            var visited: Set<String> = [dependency.successorID]
            while let id = stack.popLast() {
                if id == dependency.predecessorID { return false }
                for next in successors[id] ?? [] where visited.insert(next.successorID).inserted {
                    stack.append(next.successorID)
                }
            }
            return true
        }
        return graph!.admit(from: from, to: to)
    }
}
