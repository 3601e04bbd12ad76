/// Which task each booking belongs to: an entry's `taskID` (interchange.md §6).
///
/// An imported assignment of a task to a resource becomes a booking; the link lets the MS Project
/// export write it back as an assignment of that task. The link is the server's own business: it
/// is not on the wire, takes no part in an entry's stale-original check, and is kept in the
/// plan's file, the store and its checkpoints. Every link names an existing entry and an existing
/// task; removing either removes the link (a task re-added later, even under the same id, is not
/// linked again, and neither is a removed entry or task that an undo brings back).
public struct EntryTaskLinks: Sendable, Equatable {
    /// The task of each linked entry, by entry id.
    public private(set) var taskByEntry: [String: String]
    /// The linked entries of each task, by task id.
    private var entriesByTask: [String: Set<String>]

    /// No links.
    public init() {
        taskByEntry = [:]
        entriesByTask = [:]
    }

    /// The given links, entry id → task id (checked by `PlanState.validateEntryTasks`).
    public init(_ taskByEntry: [String: String]) {
        self.taskByEntry = taskByEntry
        entriesByTask = [:]
        for (entry, task) in taskByEntry { entriesByTask[task, default: []].insert(entry) }
    }

    /// The task the entry belongs to, if any.
    public subscript(entry id: String) -> String? { taskByEntry[id] }

    /// True when no entry is linked.
    public var isEmpty: Bool { taskByEntry.isEmpty }

    /// The number of linked entries.
    public var count: Int { taskByEntry.count }

    /// Links the entry to the task, replacing a previous link of the entry.
    public mutating func link(entry: String, task: String) {
        unlink(entry: entry)
        taskByEntry[entry] = task
        entriesByTask[task, default: []].insert(entry)
    }

    /// Drops the entry's link, if it has one.
    public mutating func unlink(entry: String) {
        guard let task = taskByEntry.removeValue(forKey: entry) else { return }
        entriesByTask[task]?.remove(entry)
        if entriesByTask[task]?.isEmpty == true { entriesByTask[task] = nil }
    }

    /// Drops the links of the removed tasks, in time proportional to the links they had.
    public mutating func unlink(tasks: some Sequence<String>) {
        for task in tasks {
            guard let entries = entriesByTask.removeValue(forKey: task) else { continue }
            for entry in entries { taskByEntry[entry] = nil }
        }
    }

    /// Two link sets are equal when they link the same entries to the same tasks.
    public static func == (left: EntryTaskLinks, right: EntryTaskLinks) -> Bool {
        left.taskByEntry == right.taskByEntry
    }
}
