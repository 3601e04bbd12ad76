extension TimelineData {
    /// Checks whole candidate timeline data against every timeline rule of semantics.md.
    ///
    /// Order of checks: resources (nonblank, unique ids), entries (nonblank, unique ids, end after
    /// start), then assignments (nonblank, unique ids, an existing entry, an existing resource).
    /// - Throws: `TimelineError` for the first rule broken: `blankID`, `duplicateID`,
    ///   `invalidInterval`, `unknownEntry` (code `staleEntry`) or `unknownResource`.
    public static func validate(
        resources: [TimelineResource], entries: [TimelineEntry], assignments: [TimelineAssignment]
    ) throws(TimelineError) {
        var resourceIDs = Set<String>(minimumCapacity: resources.count)
        for resource in resources {
            try resource.validateOwnValues()
            guard resourceIDs.insert(resource.id).inserted else {
                throw .duplicateID(kind: .resource, id: resource.id)
            }
        }
        var entryIDs = Set<String>(minimumCapacity: entries.count)
        for entry in entries {
            try entry.validateOwnValues()
            guard entryIDs.insert(entry.id).inserted else { throw .duplicateID(kind: .entry, id: entry.id) }
        }
        var assignmentIDs = Set<String>(minimumCapacity: assignments.count)
        for assignment in assignments {
            try assignment.validateOwnValues()
            guard assignmentIDs.insert(assignment.id).inserted else {
                throw .duplicateID(kind: .assignment, id: assignment.id)
            }
            guard entryIDs.contains(assignment.entryID) else {
                throw .unknownEntry(assignmentID: assignment.id, entryID: assignment.entryID)
            }
            guard resourceIDs.contains(assignment.resourceID) else {
                throw .unknownResource(assignmentID: assignment.id, resourceID: assignment.resourceID)
            }
        }
    }
}
