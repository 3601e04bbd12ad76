/// The answer to a `TimelineQuery` (seed 003): every assignment to a requested resource whose entry
/// overlaps the query interval, and exactly the entries those assignments name, each once, with
/// their original, unclipped intervals.
///
/// The page has no resource list. `TimelineData.page(for:)` builds one;
/// `validate(against:)` checks one received from elsewhere, atomically.
public struct TimelinePage: Sendable, Hashable {
    /// The entries, each once.
    public var entries: [TimelineEntry]
    /// The assignments.
    public var assignments: [TimelineAssignment]

    /// Creates a page without checking it; see `validate(against:)`.
    public init(entries: [TimelineEntry] = [], assignments: [TimelineAssignment] = []) {
        self.entries = entries
        self.assignments = assignments
    }

    /// Whether the page has no assignments: nothing is booked in that interval on those resources.
    public var isEmpty: Bool { assignments.isEmpty }
}
