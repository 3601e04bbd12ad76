/// One proposed change to a plan: the ops of protocol.md §5.
public enum PlanOperation: Sendable, Hashable {
    /// Replace a task (`replacing(previous:proposed:)`); also a group change.
    case replace(previous: GanttTask, proposed: GanttTask)
    /// Append a new task (`adding(_:)`).
    case add(GanttTask)
    /// Move a task before or after a sibling (`reordering(previous:relativeTo:position:)`).
    case reorder(previous: GanttTask, relativeTo: GanttTask, position: TaskOrderPosition)
    /// Remove a task without children, with the dependencies touching it.
    case remove(previous: GanttTask)
    /// Add a dependency (typed, with a lag).
    case link(TaskDependency)
    /// Remove a dependency, named by value.
    case unlink(TaskDependency)
    /// Change a dependency's type or lag (scheduling.md §2): `previous` must be current.
    case relink(previous: TaskDependency, proposed: TaskDependency)
    /// Replace the plan's scheduling settings (scheduling.md §1; owners only).
    case settingsReplace(previous: PlanSettings, proposed: PlanSettings)
    /// Move, resize or retitle an entry, or move one assignment (`TimelineData.applying`).
    case timelineApply(original: TimelineAssignedEntry, proposed: TimelineAssignedEntry)
    /// Add an entry with its assignments.
    case timelineAdd(entry: TimelineEntry, assignments: [TimelineAssignment])
    /// Remove an entry and all its assignments.
    case timelineRemove(entry: TimelineEntry)
    /// Put a removed task back (the undo of `remove`, built by the server): before the task
    /// `before` in the input order when that still exists, else last, with those of
    /// `dependencies` whose other endpoint still exists. On the wire an `add` with `before` and
    /// `dependencies`.
    case restore(task: GanttTask, before: String?, dependencies: [TaskDependency])
    /// Name a version (nil: the version judged against); an existing name moves.
    case baselineSet(name: String, version: Int?)
    /// Drop a baseline.
    case baselineRemove(name: String)
    /// Revert what a version changed (protocol.md §10): the server builds the inverse op from its
    /// log and judges that instead; the op itself cannot be applied to data.
    case undo(version: Int)
    /// An op built by the server to revert a version that pushed tasks (scheduling.md §5): `base`
    /// and each pushed task put back, every one of them an own task. On the wire the base op
    /// with a `restores` member.
    indirect case restoring(PlanOperation, restores: [TaskRestore])

    /// The op's `type` on the wire.
    public var typeName: String {
        switch self {
        case .replace: "replace"
        case .add: "add"
        case .reorder: "reorder"
        case .remove: "remove"
        case .link: "link"
        case .unlink: "unlink"
        case .relink: "relink"
        case .settingsReplace: "settings.replace"
        case .restoring(let base, _): base.typeName
        case .timelineApply: "timeline.apply"
        case .timelineAdd: "timeline.add"
        case .timelineRemove: "timeline.remove"
        case .restore: "add"
        case .baselineSet: "baseline.set"
        case .baselineRemove: "baseline.remove"
        case .undo: "undo"
        }
    }

    /// Whether the op concerns the resource timeline rather than the tasks.
    public var isTimelineOperation: Bool {
        switch self {
        case .timelineApply, .timelineAdd, .timelineRemove: true
        default: false
        }
    }

    /// The op without the restores a built undo carries.
    public var base: PlanOperation {
        if case .restoring(let base, _) = self { return base }
        return self
    }

    /// Whether the op concerns baselines or undo rather than the plan's data.
    public var isHistoryOperation: Bool {
        switch self {
        case .baselineSet, .baselineRemove, .undo: true
        default: false
        }
    }
}

/// What one applied operation changed.
public enum PlanChange: Sendable, Hashable {
    /// A task operation's change.
    case tasks(TaskCollectionChange)
    /// A timeline operation's change.
    case timeline(TimelineChange)
    /// The baseline list changed.
    case baselines

    /// The cascade a task op decided, as data to apply again (empty when nothing was pushed);
    /// nil for other ops.
    public var cascade: [GanttTask]? {
        if case .tasks(let change) = self { return change.pushedTasks }
        return nil
    }

    /// True when the operation altered nothing (it is acknowledged as a no-op).
    public var isNoop: Bool {
        switch self {
        case .tasks(let change): change.isNoop
        case .timeline(let change): change.isNoop
        case .baselines: false
        }
    }
}

/// Why an operation was rejected: a task rule or a timeline rule.
public enum PlanOperationError: PlanRejection, Hashable {
    /// A task rule.
    case task(TaskGanttError)
    /// A timeline rule.
    case timeline(TimelineError)
    /// A history rule (baselines, undo): its code and explanation.
    case history(RejectionCode, String)
    /// A scheduling rule (`staleSettings`, `invalidSchedule` of a cascade): its code and explanation.
    case scheduling(RejectionCode, String)
    /// An own task of an automatic plan breaks a constraint (`scheduleConflict`).
    case scheduleConflict(ScheduleConflict)

    /// The contract's rejection code.
    public var code: RejectionCode {
        switch self {
        case .task(let error): error.code
        case .timeline(let error): error.code
        case .history(let code, _), .scheduling(let code, _): code
        case .scheduleConflict: .scheduleConflict
        }
    }

    /// An English explanation.
    public var message: String {
        switch self {
        case .task(let error): error.message
        case .timeline(let error): error.message
        case .history(_, let message), .scheduling(_, let message): message
        case .scheduleConflict(let conflict): conflict.message
        }
    }
}

/// One task an undo puts back (scheduling.md §5): from the value the undone version gave it
/// (`previous`, which must still be current) to the value it had before (`proposed`).
public struct TaskRestore: Sendable, Hashable {
    /// The value the undone version left.
    public let previous: GanttTask
    /// The value to put back.
    public let proposed: GanttTask

    /// Creates a restore of one task.
    public init(previous: GanttTask, proposed: GanttTask) {
        self.previous = previous
        self.proposed = proposed
    }

    /// The restore that reverts this one.
    public var reversed: TaskRestore { TaskRestore(previous: proposed, proposed: previous) }
}
