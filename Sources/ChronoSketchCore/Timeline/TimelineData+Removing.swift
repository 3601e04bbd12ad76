extension TimelineData {
    /// Removes an entry and all its assignments (the `timeline.remove` op).
    ///
    /// `entry` is the original the proposal was formed from; it must still equal the confirmed entry.
    /// - Returns: what changed: the entry id as removed.
    /// - Throws: `staleEntry` when `entry` is not current (changed or already removed); the data is
    ///   then unchanged.
    @discardableResult
    public mutating func remove(entry: TimelineEntry) throws(TimelineError) -> TimelineChange {
        guard entriesByID[entry.id] == entry else { throw .staleEntry(id: entry.id) }

        let removed = assignments(ofEntry: entry.id)
        for assignment in removed {
            removeSlot(TimelineSlot(entry: entry, assignment: assignment), resourceID: assignment.resourceID)
            assignmentsByID[assignment.id] = nil
        }
        assignmentIDsByEntryID[entry.id] = nil
        entriesByID[entry.id] = nil
        var change = TimelineChange()
        change.removedEntryIDs = [entry.id]
        change.before = TimelineFootprint(
            start: entry.start, end: entry.end, resourceIDs: TimelineData.distinctResourceIDs(of: removed))
        return change
    }

    /// A copy without `entry` and its assignments; see `remove(entry:)`.
    public func removing(entry: TimelineEntry) throws(TimelineError) -> TimelineData {
        var copy = self
        try copy.remove(entry: entry)
        return copy
    }
}
