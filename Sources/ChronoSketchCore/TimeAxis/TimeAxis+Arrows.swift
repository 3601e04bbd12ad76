extension TimeAxis {
    /// The arrows of `dependencies` between the given rows (normally `rows(collapsed:)`, so hidden
    /// descendants of collapsed summaries are absent), in dependency order.
    ///
    /// A dependency gets an arrow only when both endpoints are among `rows` and scheduled: none for
    /// unscheduled endpoints or hidden rows. Arrows run from the predecessor's end (its start for
    /// the start-to-… types; a milestone: its diamond) to the successor's start (its end for the
    /// …-to-finish types; a milestone: its diamond), using the original, unclipped positions, also
    /// when a task lies outside the horizon.
    public func dependencyArrows(rows: [TaskRow], dependencies: [TaskDependency]) -> [DependencyArrow] {
        guard !dependencies.isEmpty else { return [] }
        var indexByID: [String: Int] = Dictionary(minimumCapacity: rows.count)
        for (index, row) in rows.enumerated() { indexByID[row.id] = index }
        var arrows: [DependencyArrow] = []
        for dependency in dependencies {
            guard let fromRow = indexByID[dependency.predecessorID], let toRow = indexByID[dependency.successorID],
                let arrow = dependencyArrow(dependency, from: rows[fromRow], at: fromRow, to: rows[toRow], at: toRow)
            else { continue }
            arrows.append(arrow)
        }
        return arrows
    }

    /// The arrow of one dependency between two rows at the given indexes (of whatever row order the
    /// caller keeps), as `dependencyArrows(rows:dependencies:)` would make it; nil when an endpoint
    /// is unscheduled.
    public func dependencyArrow(
        _ dependency: TaskDependency, from predecessor: TaskRow, at fromRow: Int, to successor: TaskRow, at toRow: Int
    ) -> DependencyArrow? {
        guard let from = endpoint(of: predecessor, atEnd: dependency.type.fromPredecessorEnd),
            let to = endpoint(of: successor, atEnd: dependency.type.toSuccessorEnd)
        else { return nil }
        return DependencyArrow(
            dependency: dependency, fromRow: fromRow, toRow: toRow, fromX: from.x, toX: to.x,
            fromMilestone: from.isMilestone, toMilestone: to.isMilestone)
    }

    /// The arrows of a collection's dependencies between its visible rows with `collapsed` summaries.
    public func dependencyArrows(in collection: TaskCollection, collapsed: Set<String> = []) -> [DependencyArrow] {
        dependencyArrows(rows: collection.rows(collapsed: collapsed), dependencies: collection.dependencies)
    }

    /// Where an arrow meets a row: a milestone's diamond, else the start or the exclusive end.
    private func endpoint(of row: TaskRow, atEnd: Bool) -> (x: Double, isMilestone: Bool)? {
        if case .milestone(let date) = row.task.kind { return (centerX(of: date), true) }
        guard let date = atEnd ? row.end : row.start else { return nil }
        return (x(of: date), false)
    }
}
