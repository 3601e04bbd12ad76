import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer

/// The decisions a plan owner made since the plan was loaded, for answering re-sent proposals
/// from memory; the oldest tenth is forgotten when `limit` is passed (the database keeps them all).
struct RecentDecisions {
    static let limit = 50_000
    private var decisions: [ProposalKey: Decision] = [:]
    private var order: [ProposalKey] = []

    subscript(key: ProposalKey) -> Decision? { decisions[key] }

    mutating func remember(_ decision: Decision, for key: ProposalKey) {
        if decisions.updateValue(decision, forKey: key) == nil { order.append(key) }
        if order.count > RecentDecisions.limit {
            let dropped = order.prefix(RecentDecisions.limit / 10)
            for key in dropped { decisions[key] = nil }
            order.removeFirst(dropped.count)
        }
    }
}

/// Who asked for a proposal and how to answer them.
struct ProposalOrigin {
    let connection: ConnectionID
    let user: String
    let proposalID: String
    let ref: String?
    /// The proposer's role on the plan when it proposed (an op built for an undo is judged by it too).
    var role: PlanRole = .editor

    var key: ProposalKey { ProposalKey(user: user, proposalID: proposalID) }
}

/// A proposal waiting to be judged against the candidate data.
struct QueuedProposal {
    /// What deciding the proposal means.
    enum Verdict {
        /// Apply the op to the candidate.
        case judge(PlanOperation)
        /// Undo `version` with the op that reverts it (read from the log or kept in memory).
        case undo(version: Int, inverse: PlanOperation)
        /// Already known to be rejected (a malformed op, a role too low, a version ahead); the
        /// rejection is still a decision, recorded with the batch for exactly-once answers.
        case reject(RejectionCode, String)
    }

    let origin: ProposalOrigin
    let verdict: Verdict
}

/// A proposal judged against the candidate and waiting for its batch to commit.
struct JudgedProposal {
    let proposal: QueuedProposal
    /// nil for a rejection or a no-op (a decision without a version of its own).
    let mutation: CommittedMutation?
    let decision: Decision

    var origin: ProposalOrigin { proposal.origin }
}

/// Judged proposals waiting for the next transaction, in the order they were judged.
struct JudgedQueue {
    private(set) var proposals: [JudgedProposal] = []
    /// How many of the first proposals are committed one per transaction: after the database
    /// refused a value in a batch, so that only the proposal that holds it fails.
    private(set) var alone = 0

    /// `proposals`, the first `alone` of them to be committed one per transaction.
    init(_ proposals: [JudgedProposal], alone: Int = 0) {
        self.proposals = proposals
        self.alone = min(alone, proposals.count)
    }

    var isEmpty: Bool { proposals.isEmpty }

    /// The proposals waiting, for judging them again.
    var waiting: [QueuedProposal] { proposals.map(\.proposal) }

    mutating func append(_ judged: JudgedProposal) { proposals.append(judged) }

    /// Takes the next transaction's batch: one proposal while some go alone, else all of them.
    mutating func takeBatch() -> [JudgedProposal] {
        guard alone == 0 else {
            alone -= 1
            return [proposals.removeFirst()]
        }
        defer { proposals = [] }
        return proposals
    }
}

/// The deletion of the log rows a moved log start left behind.
enum TrimmedLogDeletion {
    /// Nothing under way.
    case idle
    /// A slice is being deleted on a worker.
    case running
    /// The last slice failed: tried again on the next tick (or when the plan is loaded again).
    case failed
}
