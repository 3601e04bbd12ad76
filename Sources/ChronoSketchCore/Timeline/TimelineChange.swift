/// What one applied change did to `TimelineData`: the entry ids for the `confirmed` message and
/// what a watcher needs to decide whether its query's page may have changed
/// (`TimelineQuery.isAffected(by:)`).
public struct TimelineChange: Sendable, Hashable {
    /// Ids of entries added.
    public var addedEntryIDs: [String] = []
    /// Ids of entries whose value or assignments changed.
    public var changedEntryIDs: [String] = []
    /// Ids of entries removed (with all their assignments).
    public var removedEntryIDs: [String] = []
    /// Where the change was visible before it (nil when nothing was: an added entry, a no-op).
    public var before: TimelineFootprint?
    /// Where the change is visible after it (nil when nothing is: a removed entry, a no-op).
    public var after: TimelineFootprint?

    /// Creates an empty change.
    public init() {}

    /// The ids of all entries added, changed or removed, in that order: the `entries` member of
    /// `confirmed.changes`.
    public var entryIDs: [String] { addedEntryIDs + changedEntryIDs + removedEntryIDs }

    /// True when the change altered nothing: the proposal is a no-op.
    public var isNoop: Bool {
        addedEntryIDs.isEmpty && changedEntryIDs.isEmpty && removedEntryIDs.isEmpty
    }
}
