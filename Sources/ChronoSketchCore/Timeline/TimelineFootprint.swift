/// Where a change was visible on one side (before or after): an entry interval and the resources
/// on which that interval showed the changed entry or assignment.
///
/// A query's page can differ only if it requests one of `resourceIDs` and overlaps `[start, end)`.
public struct TimelineFootprint: Sendable, Hashable {
    /// The entry's start on this side of the change.
    public var start: LocalDateTime
    /// The entry's exclusive end on this side of the change.
    public var end: LocalDateTime
    /// The resources involved, each once, in the order met (possibly empty: an entry without
    /// assignments shows nowhere).
    public var resourceIDs: [String]

    /// Creates a footprint.
    public init(start: LocalDateTime, end: LocalDateTime, resourceIDs: [String]) {
        self.start = start
        self.end = end
        self.resourceIDs = resourceIDs
    }
}
