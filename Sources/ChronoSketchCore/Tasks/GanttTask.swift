/// What a task is: an activity, a milestone or a summary (group).
public enum GanttTaskKind: Sendable, Hashable {
    /// Work with an optional schedule (nil: unscheduled) and a progress in 0…100.
    case activity(schedule: TaskSchedule?, progress: Double)
    /// A point in time on one civil date.
    case milestone(date: CivilDate)
    /// A group whose bounds and progress are derived from its descendants.
    case summary

    /// `"activity"`, `"milestone"` or `"summary"`, as on the wire.
    public var name: String {
        switch self {
        case .activity: "activity"
        case .milestone: "milestone"
        case .summary: "summary"
        }
    }

    /// Whether this is a summary.
    public var isSummary: Bool {
        if case .summary = self { return true }
        return false
    }
}

/// One task of a plan: an id unique in its collection, a title, an optional parent group and a kind.
///
/// Two tasks are equal when every field is equal; this is the equality stale-original checks use.
public struct GanttTask: Sendable, Hashable, Identifiable {
    /// The stable identity, nonblank and unique within a collection.
    public let id: String
    /// The display title; any string within the server's limits.
    public var title: String
    /// The id of the summary this task belongs to, or nil at root level.
    public var parentID: String?
    /// Activity, milestone or summary.
    public var kind: GanttTaskKind

    /// Creates a task, checking the values that do not depend on other tasks.
    /// - Throws: `TaskGanttError.blankID` for an empty or white-space id,
    ///   `.invalidProgress` for progress that is not finite or not within 0…100.
    public init(id: String, title: String, parentID: String? = nil, kind: GanttTaskKind) throws(TaskGanttError) {
        self.init(unchecked: id, title: title, parentID: parentID, kind: kind)
        try validateOwnValues()
    }

    /// Creates a task without checking it; `TaskCollection` validates what it accepts.
    init(unchecked id: String, title: String, parentID: String?, kind: GanttTaskKind) {
        self.id = id
        self.title = title
        self.parentID = parentID
        self.kind = kind
    }

    /// Checks the rules that concern this task alone.
    func validateOwnValues() throws(TaskGanttError) {
        guard !GanttTask.isBlank(id) else { throw .blankID }
        if let parentID, GanttTask.isBlank(parentID) {
            throw .invalidHierarchy(id: id, reason: "the parent id is blank")
        }
        if case .activity(_, let progress) = kind, !(progress.isFinite && progress >= 0 && progress <= 100) {
            throw .invalidProgress(id: id)
        }
    }

    /// The schedule of a scheduled activity, else nil.
    public var schedule: TaskSchedule? {
        if case .activity(let schedule, _) = kind { return schedule }
        return nil
    }

    /// The progress of an activity, else nil.
    public var progress: Double? {
        if case .activity(_, let progress) = kind { return progress }
        return nil
    }

    /// Whether an id is empty or consists only of white space.
    public static func isBlank(_ id: String) -> Bool {
        // Nearly every id starts with a visible ASCII character: no scalar properties needed.
        if let first = id.utf8.first, first > 0x20, first < 0x7F { return false }
        return id.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// This task with a different kind.
    public func with(kind: GanttTaskKind) -> GanttTask {
        GanttTask(unchecked: id, title: title, parentID: parentID, kind: kind)
    }

    /// This task under a different parent (nil: root level).
    public func with(parentID: String?) -> GanttTask {
        GanttTask(unchecked: id, title: title, parentID: parentID, kind: kind)
    }

    /// This task with a different title.
    public func with(title: String) -> GanttTask {
        GanttTask(unchecked: id, title: title, parentID: parentID, kind: kind)
    }
}

/// A finish-to-start dependency: `successorID` starts after `predecessorID` finishes.
///
/// Dependencies are visual relationships: they never shift dates.
public struct TaskDependency: Sendable, Hashable {
    /// The task that finishes first.
    public let predecessorID: String
    /// The task that starts after it.
    public let successorID: String

    /// Creates a dependency; `TaskCollection` validates its endpoints.
    public init(predecessorID: String, successorID: String) {
        self.predecessorID = predecessorID
        self.successorID = successorID
    }
}

/// Where a reordered task goes relative to its sibling.
public enum TaskOrderPosition: String, Sendable, Hashable, CaseIterable {
    /// Directly before the sibling.
    case before
    /// Directly after the sibling.
    case after
}
