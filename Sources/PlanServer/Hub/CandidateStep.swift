import ChronoSketchCore
import PlanProtocol

/// Applying one op to the candidate data, as a value: what judging decides, with everything a
/// confirmed change needs (the op that reverts it, its `changes` encoded once). The plan owner
/// takes the step in place for most ops; the whole-plan settle of a big plan is taken on a worker
/// (`PlanOwner+OffHub`), so that it holds up no other plan.
struct CandidateStep: Sendable {
    /// What the step decided.
    enum Outcome: Sendable {
        /// The op applies: what changed, the op that reverts it (the cascade goes back with the
        /// op, scheduling.md §5), the `changes` as JSON.
        case applied(PlanChange, inverse: PlanOperation?, changesJSON: String)
        /// The op changes nothing.
        case noop
        /// The op is rejected; the data is unchanged.
        case rejected(PlanOperationError)
    }

    let outcome: Outcome

    /// Applies `operation` to `state` in place (unchanged when it is rejected or changes nothing).
    static func apply(_ operation: PlanOperation, to state: inout PlanState, context: JudgingContext) -> CandidateStep {
        let before = state.inverse(of: operation)
        do {
            let change = try state.apply(operation, context: context)
            guard !change.isNoop else { return CandidateStep(outcome: .noop) }
            let inverse = PlanOperation.inverse(before, restoringPushesOf: change)
            let changes = PlanChanges(after: state, change: change)
            return CandidateStep(outcome: .applied(change, inverse: inverse, changesJSON: changes.json))
        } catch {
            return CandidateStep(outcome: .rejected(error))
        }
    }
}
