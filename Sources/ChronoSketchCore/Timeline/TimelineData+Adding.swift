extension TimelineData {
    /// Adds a new entry with its assignments (the `timeline.add` op).
    ///
    /// The entry and assignment ids must be nonblank and new; every assignment must name this entry
    /// and an existing resource. An entry without assignments is allowed (it shows on no resource).
    /// - Returns: what changed: the entry id as added.
    /// - Throws: `blankID`, `invalidInterval`, `duplicateID`, `identityChanged` (an assignment names
    ///   another entry), `unknownResource`; the data is then unchanged.
    @discardableResult
    public mutating func add(entry: TimelineEntry, assignments: [TimelineAssignment]) throws(TimelineError)
        -> TimelineChange
    {
        try entry.validateOwnValues()
        guard entriesByID[entry.id] == nil else { throw .duplicateID(kind: .entry, id: entry.id) }
        var newIDs = Set<String>(minimumCapacity: assignments.count)
        for assignment in assignments {
            try assignment.validateOwnValues()
            guard assignmentsByID[assignment.id] == nil, newIDs.insert(assignment.id).inserted else {
                throw .duplicateID(kind: .assignment, id: assignment.id)
            }
            guard assignment.entryID == entry.id else {
                throw .identityChanged(
                    id: assignment.id,
                    reason:
                        "an added assignment must name the added entry \"\(entry.id)\", not \"\(assignment.entryID)\"")
            }
            guard resourcePositionByID[assignment.resourceID] != nil else {
                throw .unknownResource(assignmentID: assignment.id, resourceID: assignment.resourceID)
            }
        }

        entriesByID[entry.id] = entry
        if !assignments.isEmpty {
            assignmentIDsByEntryID[entry.id] = assignments.map(\.id)
        }
        for assignment in assignments {
            assignmentsByID[assignment.id] = assignment
            insertSlot(TimelineSlot(entry: entry, assignment: assignment), resourceID: assignment.resourceID)
        }
        var change = TimelineChange()
        change.addedEntryIDs = [entry.id]
        change.after = TimelineFootprint(
            start: entry.start, end: entry.end, resourceIDs: TimelineData.distinctResourceIDs(of: assignments))
        return change
    }

    /// A copy with `entry` and its assignments added; see `add(entry:assignments:)`.
    public func adding(entry: TimelineEntry, assignments: [TimelineAssignment]) throws(TimelineError)
        -> TimelineData
    {
        var copy = self
        try copy.add(entry: entry, assignments: assignments)
        return copy
    }
}
