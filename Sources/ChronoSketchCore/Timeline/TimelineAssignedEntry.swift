/// An entry as seen through one of its assignments: what one bar of the Timeline shows, and the
/// `original` / `proposed` halves of a `timeline.apply` proposal (`{"entry":…,"assignment":…}`).
public struct TimelineAssignedEntry: Sendable, Hashable {
    /// The entry.
    public var entry: TimelineEntry
    /// One assignment of that entry.
    public var assignment: TimelineAssignment

    /// Pairs an entry with one of its assignments; `TimelineData` checks that they belong together.
    public init(entry: TimelineEntry, assignment: TimelineAssignment) {
        self.entry = entry
        self.assignment = assignment
    }
}
