extension TimelinePage {
    /// Checks the page against the query it answers, as a client must before publishing it
    /// (seed 003): no duplicate entry or assignment ids, every entry overlaps the query interval,
    /// every assignment references a returned entry and a requested resource.
    ///
    /// An entry that no assignment names is not an error (a client prunes such orphans); pages
    /// from `TimelineData.page(for:)` never contain one.
    /// - Throws: `TimelinePageError` for the first problem found (entries first, then assignments).
    public func validate(against query: TimelineQuery) throws(TimelinePageError) {
        var entryIDs = Set<String>(minimumCapacity: entries.count)
        for entry in entries {
            guard entryIDs.insert(entry.id).inserted else { throw .duplicateID(kind: .entry, id: entry.id) }
            guard query.overlaps(entry) else { throw .entryOutsideQuery(entryID: entry.id) }
        }
        var assignmentIDs = Set<String>(minimumCapacity: assignments.count)
        for assignment in assignments {
            guard assignmentIDs.insert(assignment.id).inserted else {
                throw .duplicateID(kind: .assignment, id: assignment.id)
            }
            guard entryIDs.contains(assignment.entryID) else {
                throw .unknownEntry(assignmentID: assignment.id, entryID: assignment.entryID)
            }
            guard query.requests(resourceID: assignment.resourceID) else {
                throw .unrequestedResource(assignmentID: assignment.id, resourceID: assignment.resourceID)
            }
        }
    }
}
