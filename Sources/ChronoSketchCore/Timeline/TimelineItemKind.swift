/// The three kinds of timeline data, each with its own id space.
public enum TimelineItemKind: String, Sendable, Hashable, CaseIterable {
    /// A `TimelineResource`.
    case resource
    /// A `TimelineEntry`.
    case entry
    /// A `TimelineAssignment`.
    case assignment
}
