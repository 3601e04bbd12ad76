extension TimelineData {
    /// Moves, resizes or retitles an entry, or moves one of its assignments to another resource
    /// (seed 004 `TimelineData.applying`, the `timeline.apply` op).
    ///
    /// `original` must still equal the confirmed entry and assignment (and the assignment must
    /// belong to the entry); `proposed` keeps both ids and keeps the assignment naming its entry.
    /// The entry's new title and interval hold for all its assignments.
    /// - Returns: what changed; `isNoop` when `proposed` equals `original`.
    /// - Throws: in this order, `staleEntry`, `staleAssignment`, `identityChanged`,
    ///   `unknownResource`, `invalidInterval`; the data is then unchanged.
    @discardableResult
    public mutating func apply(
        original: TimelineAssignedEntry, proposed: TimelineAssignedEntry
    ) throws(TimelineError) -> TimelineChange {
        let entryID = original.entry.id
        let assignmentID = original.assignment.id
        guard entriesByID[entryID] == original.entry else { throw .staleEntry(id: entryID) }
        guard assignmentsByID[assignmentID] == original.assignment, original.assignment.entryID == entryID else {
            throw .staleAssignment(id: assignmentID)
        }
        guard proposed.entry.id == entryID else {
            throw .identityChanged(id: entryID, reason: "the entry's id cannot become \"\(proposed.entry.id)\"")
        }
        guard proposed.assignment.id == assignmentID else {
            throw .identityChanged(
                id: assignmentID, reason: "the assignment's id cannot become \"\(proposed.assignment.id)\"")
        }
        guard proposed.assignment.entryID == entryID else {
            throw .identityChanged(
                id: assignmentID,
                reason: "it must keep naming entry \"\(entryID)\", not \"\(proposed.assignment.entryID)\"")
        }
        guard resourcePositionByID[proposed.assignment.resourceID] != nil else {
            throw .unknownResource(assignmentID: assignmentID, resourceID: proposed.assignment.resourceID)
        }
        try proposed.entry.validateOwnValues()

        var change = TimelineChange()
        guard proposed != original else { return change }
        let entryChanged = proposed.entry != original.entry
        // A changed entry shows differently wherever it is booked; a moved assignment only where it was and is.
        let oldAssignments = entryChanged ? assignments(ofEntry: entryID) : [original.assignment]
        let newAssignments = oldAssignments.map { $0.id == assignmentID ? proposed.assignment : $0 }
        let intervalChanged = proposed.entry.start != original.entry.start || proposed.entry.end != original.entry.end
        if intervalChanged || proposed.assignment.resourceID != original.assignment.resourceID {
            for (old, new) in zip(oldAssignments, newAssignments) where intervalChanged || old.id == assignmentID {
                removeSlot(TimelineSlot(entry: original.entry, assignment: old), resourceID: old.resourceID)
                insertSlot(TimelineSlot(entry: proposed.entry, assignment: new), resourceID: new.resourceID)
            }
        }
        entriesByID[entryID] = proposed.entry
        assignmentsByID[assignmentID] = proposed.assignment

        change.changedEntryIDs = [entryID]
        change.before = TimelineFootprint(
            start: original.entry.start, end: original.entry.end,
            resourceIDs: TimelineData.distinctResourceIDs(of: oldAssignments))
        change.after = TimelineFootprint(
            start: proposed.entry.start, end: proposed.entry.end,
            resourceIDs: TimelineData.distinctResourceIDs(of: newAssignments))
        return change
    }

    /// A copy with `original` replaced by `proposed`; see `apply(original:proposed:)`.
    public func applying(
        original: TimelineAssignedEntry, proposed: TimelineAssignedEntry
    ) throws(TimelineError) -> TimelineData {
        var copy = self
        try copy.apply(original: original, proposed: proposed)
        return copy
    }
}
