import Testing

@testable import ChronoSketchCore

/// Shared builders for the Timeline tests.
enum TimelineFixtures {
    /// A date-time from `YYYY-MM-DDTHH:mm` text.
    static func at(_ text: String) -> LocalDateTime {
        try! LocalDateTime(text)
    }

    /// A valid entry.
    static func entry(_ id: String, _ start: String, _ end: String, title: String? = nil) -> TimelineEntry {
        try! TimelineEntry(id: id, title: title ?? id.uppercased(), start: at(start), end: at(end))
    }

    /// A valid resource.
    static func resource(_ id: String) -> TimelineResource {
        try! TimelineResource(id: id, label: "Label " + id)
    }

    /// A valid assignment.
    static func assignment(_ id: String, _ entryID: String, _ resourceID: String) -> TimelineAssignment {
        try! TimelineAssignment(id: id, entryID: entryID, resourceID: resourceID)
    }

    /// A valid query.
    static func query(_ start: String, _ end: String, _ resourceIDs: [String]) -> TimelineQuery {
        try! TimelineQuery(start: at(start), end: at(end), resourceIDs: resourceIDs)
    }

    static let resources = ["room-1", "room-2", "room-3"].map(resource)
    /// e1 on room-1 and room-2; e2 on room-1; e3, a long entry, on room-3.
    static let entries = [
        entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop"),
        entry("e2", "2026-09-10T14:00", "2026-09-10T15:00", title: "Review"),
        entry("e3", "2026-09-07T08:00", "2026-09-11T18:00", title: "Offsite"),
    ]
    static let assignments = [
        assignment("a1", "e1", "room-1"),
        assignment("a2", "e1", "room-2"),
        assignment("a3", "e2", "room-1"),
        assignment("a4", "e3", "room-3"),
    ]

    /// The sample data above.
    static func sample() -> TimelineData {
        try! TimelineData(resources: resources, entries: entries, assignments: assignments)
    }

    /// An entry of the sample by id.
    static func sampleEntry(_ id: String) -> TimelineEntry {
        entries.first { $0.id == id }!
    }

    /// An assignment of the sample by id.
    static func sampleAssignment(_ id: String) -> TimelineAssignment {
        assignments.first { $0.id == id }!
    }

    /// The sample's entry and assignment for the assignment with this id.
    static func sampleBar(_ assignmentID: String) -> TimelineAssignedEntry {
        let assignment = sampleAssignment(assignmentID)
        return TimelineAssignedEntry(entry: sampleEntry(assignment.entryID), assignment: assignment)
    }
}

extension TimelineFixtures {
    /// Checks that the data re-validates as a whole and that its indexes equal freshly built ones.
    static func expectConsistent(_ data: TimelineData, sourceLocation: SourceLocation = #_sourceLocation) {
        let rebuilt: TimelineData
        do {
            rebuilt = try TimelineData(resources: data.resources, entries: data.entries, assignments: data.assignments)
        } catch {
            Issue.record("data no longer validates: \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(rebuilt == data, sourceLocation: sourceLocation)
        #expect(rebuilt.resourcePositionByID == data.resourcePositionByID, sourceLocation: sourceLocation)
        #expect(rebuilt.slotsByResourceID == data.slotsByResourceID, sourceLocation: sourceLocation)
        #expect(
            rebuilt.longestMinutesByResourceID == data.longestMinutesByResourceID, sourceLocation: sourceLocation)
        #expect(
            rebuilt.assignmentIDsByEntryID.mapValues(Set.init) == data.assignmentIDsByEntryID.mapValues(Set.init),
            sourceLocation: sourceLocation)
    }

    /// Runs `operation` on a copy; returns its error (checking that the copy is still equal to
    /// `data`), or nil when it succeeded.
    static func rejection(
        of data: TimelineData, _ operation: (inout TimelineData) throws -> TimelineChange,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TimelineError? {
        var copy = data
        do {
            _ = try operation(&copy)
            return nil
        } catch {
            #expect(copy == data, "a rejected operation changed the data", sourceLocation: sourceLocation)
            #expect(copy.slotsByResourceID == data.slotsByResourceID, sourceLocation: sourceLocation)
            guard let error = error as? TimelineError else {
                Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return error
        }
    }
}
