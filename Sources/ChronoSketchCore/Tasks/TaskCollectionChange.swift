/// What one applied change did to a `TaskCollection`: exactly what a client needs to follow it.
public struct TaskCollectionChange: Sendable, Hashable {
    /// Tasks added or changed, with their final values, in the order they were touched.
    public var upserted: [GanttTask] = []
    /// Ids of removed tasks.
    public var removed: [String] = []
    /// Whether the relative input order of the remaining tasks changed (a reorder).
    public var orderChanged = false
    /// The ids whose input slots changed in a reorder, in their new input order; they occupy the
    /// same set of slots as before, so a store can give them their own former slot keys, sorted.
    public var movedIDs: [String] = []
    /// Whether the dependency list changed.
    public var dependenciesChanged = false
    /// Ids of summaries whose derived values changed or that are new, in no particular order.
    public var changedSummaryIDs: [String] = []

    /// Creates an empty change.
    public init() {}

    /// True when the change altered nothing: the proposal is a no-op.
    public var isNoop: Bool {
        upserted.isEmpty && removed.isEmpty && !orderChanged && !dependenciesChanged && changedSummaryIDs.isEmpty
    }
}
