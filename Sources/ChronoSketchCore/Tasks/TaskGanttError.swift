/// Why a task collection or a change to it was rejected; one case per task rejection code.
public enum TaskGanttError: PlanRejection, Hashable {
    /// The `previous` (or `relativeTo`) value no longer equals the confirmed task, or it was removed.
    case staleTask(id: String)
    /// Two tasks share an id.
    case duplicateID(id: String)
    /// An id is empty or only white space.
    case blankID
    /// A replacement tried to change the task's id.
    case identityChanged(previous: String, proposed: String)
    /// An activity's progress is not a finite number in 0…100.
    case invalidProgress(id: String)
    /// A date is not a real date in years 1…9999, or an end is not after its start.
    case invalidSchedule(id: String, reason: String)
    /// A missing or non-summary parent, a cycle, a self or cross-parent reorder target, or removing
    /// a task that has children.
    case invalidHierarchy(id: String, reason: String)
    /// A dependency with a missing endpoint, a self-link or a summary endpoint.
    case invalidDependency(predecessorID: String, successorID: String, reason: String)
    /// The same (predecessor, successor) pair twice.
    case duplicateDependency(predecessorID: String, successorID: String)
    /// The dependencies would form a directed cycle.
    case dependencyCycle(predecessorID: String, successorID: String)
    /// Unlinking a dependency that is not there.
    case staleDependency(predecessorID: String, successorID: String)

    /// The contract's rejection code of this error.
    public var code: RejectionCode {
        switch self {
        case .staleTask: .staleTask
        case .duplicateID: .duplicateID
        case .blankID: .blankID
        case .identityChanged: .identityChanged
        case .invalidProgress: .invalidProgress
        case .invalidSchedule: .invalidSchedule
        case .invalidHierarchy: .invalidHierarchy
        case .invalidDependency: .invalidDependency
        case .duplicateDependency: .duplicateDependency
        case .dependencyCycle: .dependencyCycle
        case .staleDependency: .staleDependency
        }
    }

    /// An English explanation naming the tasks involved.
    public var message: String {
        switch self {
        case .staleTask(let id):
            "task \"\(id)\" has changed or was removed since the proposal was formed"
        case .duplicateID(let id): "a task with id \"\(id)\" already exists"
        case .blankID: "a task id must not be empty or only white space"
        case .identityChanged(let previous, let proposed):
            "a replacement must keep the id \"\(previous)\" (proposed \"\(proposed)\")"
        case .invalidProgress(let id): "progress of task \"\(id)\" must be a number in 0…100"
        case .invalidSchedule(let id, let reason): "invalid dates for task \"\(id)\": \(reason)"
        case .invalidHierarchy(let id, let reason): "invalid hierarchy for task \"\(id)\": \(reason)"
        case .invalidDependency(let predecessor, let successor, let reason):
            "invalid dependency \"\(predecessor)\" → \"\(successor)\": \(reason)"
        case .duplicateDependency(let predecessor, let successor):
            "the dependency \"\(predecessor)\" → \"\(successor)\" already exists"
        case .dependencyCycle(let predecessor, let successor):
            "the dependency \"\(predecessor)\" → \"\(successor)\" would form a cycle"
        case .staleDependency(let predecessor, let successor):
            "there is no dependency \"\(predecessor)\" → \"\(successor)\""
        }
    }
}

extension TaskGanttError: CustomStringConvertible {
    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
