extension TimelineQuery {
    /// Whether the page for this query could differ after `change`: true exactly when a resource of
    /// the change's `before` or `after` footprint is requested and that footprint's interval
    /// overlaps the query. A server sends watchers a fresh page only then.
    public func isAffected(by change: TimelineChange) -> Bool {
        isTouched(by: change.before) || isTouched(by: change.after)
    }

    /// Whether one side of a change shows within this query.
    private func isTouched(by footprint: TimelineFootprint?) -> Bool {
        guard let footprint, overlaps(start: footprint.start, end: footprint.end) else { return false }
        return footprint.resourceIDs.contains { requestedIDs.contains($0) }
    }
}
