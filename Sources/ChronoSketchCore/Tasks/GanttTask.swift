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

/// A dependency between two tasks: a type naming the anchors it ties and a lag in working days.
///
/// In a manual plan dependencies are drawings: they never shift dates. In an automatic plan
/// each is the constraint `W(predecessor's anchor, successor's anchor) ≥ lag` (scheduling.md §3).
/// Two dependencies are equal when all four members are; a collection holds at most one per pair.
public struct TaskDependency: Sendable, Hashable {
    /// The task whose date the constraint starts from.
    public let predecessorID: String
    /// The task the constraint holds back.
    public let successorID: String
    /// Which anchors the constraint ties.
    public let type: DependencyType
    /// The working days that must lie between the anchors; negative for a lead.
    public let lag: Int

    /// The lags a dependency may have, in working days.
    public static let lagRange = -1000...1000

    /// Creates a dependency; `TaskCollection` validates its endpoints, type and lag.
    public init(predecessorID: String, successorID: String, type: DependencyType = .finishToStart, lag: Int = 0) {
        self.predecessorID = predecessorID
        self.successorID = successorID
        self.type = type
        self.lag = lag
    }

    /// The (predecessor, successor) pair, unique in a collection.
    public var pair: DependencyPair { DependencyPair(predecessorID: predecessorID, successorID: successorID) }

    /// This dependency with another type and lag.
    public func with(type: DependencyType, lag: Int) -> TaskDependency {
        TaskDependency(predecessorID: predecessorID, successorID: successorID, type: type, lag: lag)
    }
}

/// The endpoints of a dependency, which identify it within a collection.
public struct DependencyPair: Sendable, Hashable {
    /// The predecessor's id.
    public let predecessorID: String
    /// The successor's id.
    public let successorID: String

    /// Creates a pair.
    public init(predecessorID: String, successorID: String) {
        self.predecessorID = predecessorID
        self.successorID = successorID
    }
}

/// Which of the two tasks' dates a dependency ties (scheduling.md §2, MS Project's four link types).
public enum DependencyType: String, Sendable, Hashable, CaseIterable {
    /// The predecessor's end → the successor's start (the default).
    case finishToStart = "finish-to-start"
    /// The predecessor's start → the successor's start.
    case startToStart = "start-to-start"
    /// The predecessor's end → the successor's end.
    case finishToFinish = "finish-to-finish"
    /// The predecessor's start → the successor's end.
    case startToFinish = "start-to-finish"

    /// Whether the constraint starts from the predecessor's end (else its start).
    public var fromPredecessorEnd: Bool { self == .finishToStart || self == .finishToFinish }

    /// Whether the constraint holds back the successor's end (else its start).
    public var toSuccessorEnd: Bool { self == .finishToFinish || self == .startToFinish }
}

/// Where a reordered task goes relative to its sibling.
public enum TaskOrderPosition: String, Sendable, Hashable, CaseIterable {
    /// Directly before the sibling.
    case before
    /// Directly after the sibling.
    case after
}
