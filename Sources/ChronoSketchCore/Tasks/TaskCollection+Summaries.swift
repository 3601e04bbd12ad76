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
    /// changed from `removed` to `added` (either may be nil), noting the summaries it touches.
    ///
    /// Progress sums are exact, so they change by difference; bounds are widened directly and
    /// refolded from the children only when the removed contribution held an extreme. The walk
    /// stops at the first ancestor whose values did not change.
    mutating func propagate(
        from parentID: String?, removing removed: SummaryAggregate?, adding added: SummaryAggregate?,
        touching touches: inout SummaryTouches
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
            touches.note(id, before: before.values)
            aggregates[id] = after
            removed = before
            added = after
            summaryID = tasks[positionByID[id]!].parentID
        }
    }
}

/// The summaries one change touched, with their values before it, so that the change reports
/// exactly those whose final values differ (a move may change an ancestor twice and restore it).
struct SummaryTouches {
    private var original: [String: SummaryValues?] = [:]
    private var order: [String] = []

    /// Notes a summary's values before its first update in this change (nil: it is new).
    mutating func note(_ id: String, before: SummaryValues?) {
        guard original.index(forKey: id) == nil else { return }
        original[id] = .some(before)
        order.append(id)
    }

    /// The noted summaries that still exist and whose values differ from before, in touch order.
    func changedIDs(in collection: TaskCollection) -> [String] {
        order.filter { id in
            guard let now = collection.aggregates[id]?.values else { return false }
            return original[id]! != now
        }
    }
}
