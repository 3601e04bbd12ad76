/// The rejection codes of the wire contract (protocol.md §5), as stable machine-readable values.
///
/// Domain errors (`TaskGanttError`, `TimelineError`) each map to exactly one code; the server adds
/// the session-level ones (`forbidden`, `rateLimited`, `badMessage`, `unknownPlan`, `tooLarge`,
/// `unavailable`), the history ones (`notUndoable`, `historyUnavailable`, `staleBaseline`) and
/// the scheduling ones (`scheduleConflict`, `staleSettings`, `invalidCalendar`: scheduling.md §8).
public enum RejectionCode: String, Sendable, Hashable, CaseIterable {
    case staleTask, duplicateID, blankID, identityChanged, invalidProgress, invalidSchedule
    case invalidHierarchy, invalidDependency, duplicateDependency, dependencyCycle, staleDependency
    case staleEntry, staleAssignment, unknownResource, invalidInterval
    case forbidden, rateLimited, badMessage, unknownPlan, tooLarge, unavailable
    case notUndoable, historyUnavailable, staleBaseline
    case scheduleConflict, staleSettings, invalidCalendar
}

/// An error that rejects a proposal with one of the contract's codes and a message for people.
public protocol PlanRejection: Error, Sendable {
    /// The contract's rejection code.
    var code: RejectionCode { get }
    /// An English explanation naming the ids involved.
    var message: String { get }
}
