extension TaskCollection {
    /// Adds one finish-to-start dependency at the end of the list.
    /// - Throws: `invalidDependency` (missing endpoint, self-link, summary endpoint),
    ///   `duplicateDependency`, `dependencyCycle`; the collection is then unchanged.
    @discardableResult
    public mutating func link(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollectionChange {
        _ = try TaskCollection.endpointPositions(of: dependency, tasks: tasks, positionByID: positionByID)
        guard !dependencySet.contains(dependency) else {
            throw .duplicateDependency(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        guard !isReachable(dependency.predecessorID, from: dependency.successorID) else {
            throw .dependencyCycle(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        dependencies.append(dependency)
        dependencySet.insert(dependency)
        successorsByID[dependency.predecessorID, default: []].append(dependency.successorID)
        predecessorsByID[dependency.successorID, default: []].append(dependency.predecessorID)
        var change = TaskCollectionChange()
        change.dependenciesChanged = true
        return change
    }

    /// Removes one dependency.
    /// - Throws: `staleDependency` when it is not there; the collection is then unchanged.
    @discardableResult
    public mutating func unlink(_ dependency: TaskDependency) throws(TaskGanttError) -> TaskCollectionChange {
        guard dependencySet.contains(dependency) else {
            throw .staleDependency(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
        }
        dependencies.remove(at: dependencies.firstIndex(of: dependency)!)
        forgetIndexes(of: dependency)
        var change = TaskCollectionChange()
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
        dependencySet.remove(dependency)
        successorsByID[dependency.predecessorID]?.removeAll { $0 == dependency.successorID }
        if successorsByID[dependency.predecessorID]?.isEmpty == true { successorsByID[dependency.predecessorID] = nil }
        predecessorsByID[dependency.successorID]?.removeAll { $0 == dependency.predecessorID }
        if predecessorsByID[dependency.successorID]?.isEmpty == true { predecessorsByID[dependency.successorID] = nil }
    }

    /// Whether `target` can be reached from `start` by following dependencies forward.
    func isReachable(_ target: String, from start: String) -> Bool {
        var stack = [start]
        var visited: Set<String> = [start]
        while let id = stack.popLast() {
            if id == target { return true }
            for next in successorsByID[id] ?? [] where visited.insert(next).inserted {
                stack.append(next)
            }
        }
        return false
    }
}
