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
    /// The tasks an automatic plan's settle pushed, with the values they had before, in input
    /// order (their final values are among `upserted`).
    public var pushedFrom: [GanttTask] = []
    /// Whether the plan's scheduling settings changed.
    public var settingsChanged = false

    /// Creates an empty change.
    public init() {}

    /// The ids of the pushed tasks, in input order (`changes.pushed`).
    public var pushed: [String] { pushedFrom.map(\.id) }

    /// The pushed tasks' final values, in input order: the cascade as data.
    public var pushedTasks: [GanttTask] {
        guard !pushedFrom.isEmpty else { return [] }
        let finals = Dictionary(upserted.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return pushedFrom.map { finals[$0.id]! }
    }

    /// Adds what later steps of the same op changed (restores, pushes), each about other tasks
    /// than this change's: their tasks appended, their summaries added once each.
    mutating func merge(_ later: [TaskCollectionChange]) {
        var summaries = Set(changedSummaryIDs)
        for change in later {
            upserted += change.upserted
            for id in change.changedSummaryIDs where summaries.insert(id).inserted { changedSummaryIDs.append(id) }
        }
    }

    /// True when the change altered nothing: the proposal is a no-op.
    public var isNoop: Bool {
        upserted.isEmpty && removed.isEmpty && !orderChanged && !dependenciesChanged && changedSummaryIDs.isEmpty
            && !settingsChanged
    }
}
