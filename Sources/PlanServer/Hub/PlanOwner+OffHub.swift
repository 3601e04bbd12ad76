import ChronoSketchCore
import PlanProtocol

/// A whole-plan settle of a big plan (switching it to automatic, changing its calendar, undoing
/// either) is judged on a worker, so that it holds up no other plan's sessions (scheduling.md
/// §4; the hub thread serves every plan). The plan's later proposals wait behind it, in order;
/// when the step comes back it is taken if the candidate is still the one it started from, else
/// the proposal is judged again the usual way.
extension PlanOwner {
    /// A step being taken on a worker, and the proposals that came meanwhile.
    struct OffHubJudging {
        let proposal: QueuedProposal
        let operation: PlanOperation
        let undoing: Int?
        let at: String
        /// The candidate the step started from (`candidateEpoch`, `candidateVersion`).
        let epoch: Int
        let version: Int
        var held: [QueuedProposal] = []
    }

    /// Plans with at least this many tasks settle as a whole on a worker.
    static let workerSettleTasks = 20_000

    /// Starts judging `proposal` on a worker when it settles the whole of a big plan; false
    /// (nothing done) for any other proposal.
    mutating func startOffHub(_ proposal: QueuedProposal) -> Bool {
        guard candidate.tasks.count >= PlanOwner.workerSettleTasks, proposal.origin.role >= .owner else { return false }
        let operation: PlanOperation
        let undoing: Int?
        switch proposal.verdict {
        case .judge(let op) where settlesWholePlan(op): (operation, undoing) = (op, nil)
        // Only an undo of settings is built here (the judge builds any other undo once).
        case .undo(let target, let inverse) where changesSettings(inverse):
            (operation, undoing) = (candidate.undoOperation(from: inverse), target)
            guard settlesWholePlan(operation) else { return false }
        default: return false
        }
        let at = wallClock.timestamp(at: eventTime)
        offHub = OffHubJudging(
            proposal: proposal, operation: operation, undoing: undoing, at: at, epoch: candidateEpoch,
            version: candidateVersion)
        emit(
            .run(
                .judgeOffHub(
                    plan: id, epoch: candidateEpoch, version: candidateVersion, candidate, operation,
                    JudgingContext(version: candidateVersion, logStart: logStart, at: at))))
        return true
    }

    /// Whether `operation` replaces the settings (with pushes to restore or not).
    func changesSettings(_ operation: PlanOperation) -> Bool {
        switch operation {
        case .settingsReplace, .restoring(.settingsReplace, _): true
        default: false
        }
    }

    /// Whether `operation` makes the candidate settle every task: new settings of an automatic plan.
    func settlesWholePlan(_ operation: PlanOperation) -> Bool {
        switch operation {
        case .settingsReplace(_, let proposed), .restoring(.settingsReplace(_, let proposed), _):
            proposed.isAutomatic && proposed != candidate.settings
        default:
            false
        }
    }

    /// The step came back: taken when the candidate is still the one it started from and the
    /// pipeline judges, else the proposal is judged again; then the proposals held behind it.
    mutating func judgedOffHub(epoch: Int, version: Int, state: PlanState, _ step: CandidateStep) {
        guard let pending = offHub, pending.epoch == epoch, pending.version == version else { return }
        offHub = nil
        var taken = false
        switch phase {
        case .idle, .committing:
            if candidateEpoch == epoch, candidateVersion == version {
                if case .applied = step.outcome { candidate = state }
                let judged = judgement(
                    of: step, pending.operation, undoing: pending.undoing, at: pending.at, pending.proposal)
                // Judged from the confirmed data itself: its commit can take the result as it is.
                if judged.mutation != nil, version == self.version {
                    settledOffHub = (candidateVersion, pending.proposal.origin.key, state)
                }
                commitOrQueue(judged)
                taken = true
            }
        default:
            break
        }
        if !taken { enqueue(pending.proposal) }
        for proposal in pending.held { enqueue(proposal) }
    }
}
