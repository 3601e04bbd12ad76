/// The confirmed data of one plan: its tasks and its resource timeline.
public struct PlanState: Sendable, Equatable {
    /// Tasks in confirmed input order, with dependencies and derived summaries.
    public var tasks: TaskCollection
    /// Resources, entries and assignments.
    public var timeline: TimelineData
    /// The named versions, by name.
    public var baselines: [PlanBaseline]

    /// Combines already validated parts.
    public init(
        tasks: TaskCollection = TaskCollection(), timeline: TimelineData = TimelineData(),
        baselines: [PlanBaseline] = []
    ) {
        self.tasks = tasks
        self.timeline = timeline
        self.baselines = baselines.sorted { $0.name < $1.name }
    }

    /// Applies one operation in place against the current data.
    /// - Parameter context: the version and time the data is judged at (baselines need it).
    /// - Returns: what changed; `isNoop` when nothing did.
    /// - Throws: the rejection; the state is then unchanged.
    @discardableResult
    public mutating func apply(
        _ operation: PlanOperation, context: JudgingContext? = nil
    ) throws(PlanOperationError) -> PlanChange {
        if operation.isTimelineOperation { return .timeline(try applyToTimeline(operation)) }
        if operation.isHistoryOperation { return try applyHistoryOperation(operation, context: context) }
        do {
            switch operation {
            case .replace(let previous, let proposed):
                return .tasks(try tasks.replace(previous: previous, proposed: proposed))
            case .add(let task):
                return .tasks(try tasks.add(task))
            case .reorder(let previous, let target, let position):
                return .tasks(try tasks.reorder(previous: previous, relativeTo: target, position: position))
            case .remove(let previous):
                return .tasks(try tasks.remove(previous: previous))
            case .link(let dependency):
                return .tasks(try tasks.link(dependency))
            case .unlink(let dependency):
                return .tasks(try tasks.unlink(dependency))
            case .restore(let task, let before, let dependencies):
                return .tasks(try tasks.restore(task, before: before, dependencies: dependencies))
            case .timelineApply, .timelineAdd, .timelineRemove, .baselineSet, .baselineRemove, .undo:
                preconditionFailure("handled above")
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
