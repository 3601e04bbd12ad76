extension TaskCollection {
    /// What a task contributes to its ancestors: its own values, or a summary's aggregate.
    func contribution(of task: GanttTask) -> SummaryAggregate {
        task.kind.isSummary ? (aggregates[task.id] ?? .empty) : SummaryAggregate(leaf: task.kind)
    }

    /// A summary's aggregate folded from its direct children, which must be up to date.
    func aggregateFromChildren(of summaryID: String) -> SummaryAggregate {
        var aggregate = SummaryAggregate.empty
        for position in childPositions[summaryID] ?? [] {
            aggregate.add(contribution(of: tasks[position]))
        }
        return aggregate
    }

    /// Updates the derived values of `parentID` and its ancestors after one child's contribution
    /// changed from `removed` to `added` (either may be nil), recording changed summaries.
    ///
    /// Progress sums are exact, so they change by difference; bounds are widened directly and
    /// refolded from the children only when the removed contribution held an extreme. The walk
    /// stops at the first ancestor whose values did not change.
    mutating func propagate(
        from parentID: String?, removing removed: SummaryAggregate?, adding added: SummaryAggregate?,
        into change: inout TaskCollectionChange
    ) {
        var summaryID = parentID
        var removed = removed
        var added = added
        while let id = summaryID, let before = aggregates[id] {
            var after = before
            if let removed {
                after.activityCount -= removed.activityCount
                after.progressSum -= removed.progressSum
            }
            if let added {
                after.activityCount += added.activityCount
                after.progressSum += added.progressSum
            }
            if let removed, before.boundsDepend(on: removed) {
                var refolded = SummaryAggregate.empty
                for position in childPositions[id] ?? [] {
                    refolded.mergeBounds(contribution(of: tasks[position]))
                }
                after.start = refolded.start
                after.end = refolded.end
                after.lastDate = refolded.lastDate
            } else if let added {
                after.mergeBounds(added)
            }
            guard after != before else { return }
            aggregates[id] = after
            if after.values != before.values, !change.changedSummaryIDs.contains(id) {
                change.changedSummaryIDs.append(id)
            }
            removed = before
            added = after
            summaryID = tasks[positionByID[id]!].parentID
        }
    }
}
