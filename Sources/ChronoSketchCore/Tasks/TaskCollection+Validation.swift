extension TaskCollection {
    /// Checks a whole candidate collection against every rule of semantics.md.
    ///
    /// Order of checks: each task's own values, unique ids, parents (existing summaries, no cycles),
    /// then dependencies (endpoints, self-links, duplicates, cycles).
    /// - Throws: `TaskGanttError` for the first rule broken.
    /// - Returns: each task's position by id (for the collection's index, built once).
    @discardableResult
    public static func validate(_ tasks: [GanttTask], dependencies: [TaskDependency]) throws(TaskGanttError)
        -> [String: Int]
    {
        var positionByID = [String: Int](minimumCapacity: tasks.count)
        for (position, task) in tasks.enumerated() {
            try task.validateOwnValues()
            guard positionByID.updateValue(position, forKey: task.id) == nil else {
                throw .duplicateID(id: task.id)
            }
        }
        var parentPositions = [Int](repeating: -1, count: tasks.count)
        for (position, task) in tasks.enumerated() {
            guard let parentID = task.parentID else { continue }
            guard let parentPosition = positionByID[parentID] else {
                throw .invalidHierarchy(id: task.id, reason: "parent \"\(parentID)\" does not exist")
            }
            guard tasks[parentPosition].kind.isSummary else {
                throw .invalidHierarchy(id: task.id, reason: "parent \"\(parentID)\" is not a summary")
            }
            parentPositions[position] = parentPosition
        }
        try checkHierarchyIsAcyclic(tasks, parentPositions: parentPositions)
        try checkDependencies(dependencies, tasks: tasks, positionByID: positionByID)
        return positionByID
    }

    /// Follows parents from every task; a walk that meets itself is a cycle.
    private static func checkHierarchyIsAcyclic(_ tasks: [GanttTask], parentPositions: [Int]) throws(TaskGanttError) {
        // 0: not visited, 1: on the current walk, 2: known to reach a root.
        var state = [UInt8](repeating: 0, count: tasks.count)
        var walk: [Int] = []
        for start in tasks.indices where state[start] == 0 {
            var position = start
            while position >= 0, state[position] == 0 {
                state[position] = 1
                walk.append(position)
                position = parentPositions[position]
            }
            if position >= 0, state[position] == 1 {
                throw .invalidHierarchy(id: tasks[position].id, reason: "the parent chain forms a cycle")
            }
            for visited in walk { state[visited] = 2 }
            walk.removeAll(keepingCapacity: true)
        }
    }

    private static func checkDependencies(
        _ dependencies: [TaskDependency], tasks: [GanttTask], positionByID: [String: Int]
    ) throws(TaskGanttError) {
        var seen = Set<DependencyPair>(minimumCapacity: dependencies.count)
        var successors = [[Int]](repeating: [], count: tasks.count)
        var inDegree = [Int](repeating: 0, count: tasks.count)
        for dependency in dependencies {
            let (from, to) = try endpointPositions(of: dependency, tasks: tasks, positionByID: positionByID)
            guard seen.insert(dependency.pair).inserted else {
                throw .duplicateDependency(
                    predecessorID: dependency.predecessorID, successorID: dependency.successorID)
            }
            successors[from].append(to)
            inDegree[to] += 1
        }
        // Kahn's algorithm: whatever cannot be ordered lies on or behind a cycle.
        var ready = inDegree.indices.filter { inDegree[$0] == 0 }
        var ordered = 0
        while let position = ready.popLast() {
            ordered += 1
            for next in successors[position] {
                inDegree[next] -= 1
                if inDegree[next] == 0 { ready.append(next) }
            }
        }
        guard ordered < tasks.count else { return }
        let blocked = dependencies.first { dependency in
            inDegree[positionByID[dependency.predecessorID]!] > 0 && inDegree[positionByID[dependency.successorID]!] > 0
        }!
        throw .dependencyCycle(predecessorID: blocked.predecessorID, successorID: blocked.successorID)
    }

    /// Checks that a dependency's lag lies within `TaskDependency.lagRange`.
    static func checkLag(of dependency: TaskDependency) throws(TaskGanttError) {
        guard TaskDependency.lagRange.contains(dependency.lag) else {
            throw .invalidDependency(
                predecessorID: dependency.predecessorID, successorID: dependency.successorID,
                reason: "a lag must be a whole number of working days in −1000…1000")
        }
    }

    /// The input positions of a dependency's endpoints, checking its lag and that they may be linked.
    static func endpointPositions(
        of dependency: TaskDependency, tasks: [GanttTask], positionByID: [String: Int]
    ) throws(TaskGanttError) -> (Int, Int) {
        try checkLag(of: dependency)
        let predecessorID = dependency.predecessorID
        let successorID = dependency.successorID
        guard let from = positionByID[predecessorID] else {
            throw .invalidDependency(
                predecessorID: predecessorID, successorID: successorID,
                reason: "task \"\(predecessorID)\" does not exist")
        }
        guard let to = positionByID[successorID] else {
            throw .invalidDependency(
                predecessorID: predecessorID, successorID: successorID,
                reason: "task \"\(successorID)\" does not exist")
        }
        guard from != to else {
            throw .invalidDependency(
                predecessorID: predecessorID, successorID: successorID, reason: "a task cannot depend on itself")
        }
        for position in [from, to] where tasks[position].kind.isSummary {
            throw .invalidDependency(
                predecessorID: predecessorID, successorID: successorID,
                reason: "summary \"\(tasks[position].id)\" cannot be a dependency endpoint")
        }
        return (from, to)
    }
}
