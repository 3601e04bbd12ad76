/// Books one entry onto one resource; an entry may have several assignments.
///
/// Two assignments are equal when every field is equal; this is the equality stale-original checks
/// use.
public struct TimelineAssignment: Sendable, Hashable, Identifiable {
    /// The stable identity, nonblank and unique among the plan's assignments.
    public let id: String
    /// The entry this assignment books; it never changes.
    public let entryID: String
    /// The resource the entry is booked onto.
    public var resourceID: String

    /// Creates an assignment; `TimelineData` checks that the entry and resource exist.
    /// - Throws: `TimelineError.blankID` for an empty or white-space id.
    public init(id: String, entryID: String, resourceID: String) throws(TimelineError) {
        self.init(unchecked: id, entryID: entryID, resourceID: resourceID)
        try validateOwnValues()
    }

    /// Creates an assignment without checking it; `TimelineData` validates what it accepts.
    init(unchecked id: String, entryID: String, resourceID: String) {
        self.id = id
        self.entryID = entryID
        self.resourceID = resourceID
    }

    /// Checks the rules that concern this assignment alone.
    func validateOwnValues() throws(TimelineError) {
        guard !GanttTask.isBlank(id) else { throw .blankID(kind: .assignment) }
    }

    /// This assignment moved to another resource.
    public func with(resourceID: String) -> TimelineAssignment {
        TimelineAssignment(unchecked: id, entryID: entryID, resourceID: resourceID)
    }
}
