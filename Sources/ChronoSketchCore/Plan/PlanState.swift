/// The confirmed data of one plan: its tasks, its resource timeline and its scheduling settings.
public struct PlanState: Sendable, Equatable {
    /// Tasks in confirmed input order, with dependencies and derived summaries.
    public var tasks: TaskCollection
    /// Resources, entries and assignments.
    public var timeline: TimelineData
    /// The named versions, by name.
    public var baselines: [PlanBaseline]
    /// Manual or automatic scheduling, and the calendar (scheduling.md §1).
    public var settings: PlanSettings {
        didSet { tasks.keepRanks() }
    }
    /// Which task each booking belongs to (not on the wire; see `EntryTaskLinks`).
    public var entryTasks: EntryTaskLinks

    /// Combines already validated parts.
    public init(
        tasks: TaskCollection = TaskCollection(), timeline: TimelineData = TimelineData(),
        baselines: [PlanBaseline] = [], settings: PlanSettings = .default, entryTasks: EntryTaskLinks = EntryTaskLinks()
    ) {
        self.tasks = tasks
        self.timeline = timeline
        self.baselines = baselines.sorted { $0.name < $1.name }
        self.settings = settings
        self.entryTasks = entryTasks
        // Every plan's collection keeps its dependency graph (built here, once per load): a
        // switch to automatic then settles at once, instead of building it first.
        self.tasks.keepRanks()
    }

    /// Applies one operation in place against the current data; in an automatic plan the
    /// cascade it causes is settled and applied with it (scheduling.md §4).
    /// - Parameters:
    ///   - context: the version and time the data is judged at (baselines need it).
    ///   - cascade: the pushed tasks' final values when the cascade was decided already (another
    ///     process's log, a committed op applied again): applied as data, never settled again.
    /// - Returns: what changed; `isNoop` when nothing did.
    /// - Throws: the rejection; the state is then unchanged.
    @discardableResult
    public mutating func apply(
        _ operation: PlanOperation, context: JudgingContext? = nil, cascade: [GanttTask]? = nil
    ) throws(PlanOperationError) -> PlanChange {
        if operation.isTimelineOperation {
            let change = try applyToTimeline(operation)
            for entry in change.removedEntryIDs { entryTasks.unlink(entry: entry) }
            return .timeline(change)
        }
        if operation.isHistoryOperation { return try applyHistoryOperation(operation, context: context) }
        let change = try applyScheduled(operation, cascade: cascade)
        if !change.removed.isEmpty, !entryTasks.isEmpty { entryTasks.unlink(tasks: change.removed) }
        return .tasks(change)
    }

    /// The first entry link that names no entry or no task, said in words; nil when every link
    /// holds (interchange.md §6: validated like a dependency endpoint).
    public var brokenEntryTaskLink: String? {
        for (entry, task) in entryTasks.taskByEntry.sorted(by: { $0.key < $1.key }) {
            guard timeline.entry(entry) != nil else {
                return "a task is named for an entry \"\(entry)\" that does not exist"
            }
            guard tasks[task] != nil else {
                return "the entry \"\(entry)\" belongs to a task \"\(task)\" that does not exist"
            }
        }
        return nil
    }

    /// Applies a task, dependency or settings op alone, without settling.
    mutating func applyUnsettled(_ operation: PlanOperation) throws(PlanOperationError) -> TaskCollectionChange {
        if case .settingsReplace(let previous, let proposed) = operation {
            return try replaceSettings(previous: previous, proposed: proposed)
        }
        do {
            switch operation {
            case .replace(let previous, let proposed):
                return try tasks.replace(previous: previous, proposed: proposed)
            case .add(let task):
                return try tasks.add(task)
            case .reorder(let previous, let target, let position):
                return try tasks.reorder(previous: previous, relativeTo: target, position: position)
            case .remove(let previous):
                return try tasks.remove(previous: previous)
            case .link(let dependency):
                return try tasks.link(dependency)
            case .unlink(let dependency):
                return try tasks.unlink(dependency)
            case .relink(let previous, let proposed):
                return try tasks.relink(previous: previous, proposed: proposed)
            case .restore(let task, let before, let dependencies):
                return try tasks.restore(task, before: before, dependencies: dependencies)
            case .settingsReplace, .timelineApply, .timelineAdd, .timelineRemove, .baselineSet, .baselineRemove, .undo,
                .restoring:
                preconditionFailure("not a task op")
            }
        } catch {
            throw .task(error)
        }
    }

    private mutating func applyToTimeline(_ operation: PlanOperation) throws(PlanOperationError) -> TimelineChange {
        do {
            switch operation {
            case .timelineApply(let original, let proposed):
                return try timeline.apply(original: original, proposed: proposed)
            case .timelineAdd(let entry, let assignments):
                return try timeline.add(entry: entry, assignments: assignments)
            case .timelineRemove(let entry):
                return try timeline.remove(entry: entry)
            default:
                preconditionFailure("not a timeline operation")
            }
        } catch {
            throw .timeline(error)
        }
    }
}
