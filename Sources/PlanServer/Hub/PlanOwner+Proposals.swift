import ChronoSketchCore
import PlanProtocol
import PlanStore

/// Proposals in: exactly-once answers for re-sends, judging against the candidate, group commits.
extension PlanOwner {
    /// A re-sent proposal whose first copy was decided is answered again with that decision; one
    /// being decided is answered with it once it is. False for a proposal not seen before.
    private mutating func answeredIfKnown(_ origin: ProposalOrigin) -> Bool {
        if let decision = recentDecisions[origin.key] {
            answer(decision, to: origin)
            return true
        }
        if undecided[origin.key] != nil {
            undecided[origin.key]!.append(origin)
            return true
        }
        return false
    }

    /// A rejection that is not a decision (nothing stored): rate limits, a server shutting down.
    mutating func refuse(_ origin: ProposalOrigin, _ code: RejectionCode, _ message: String) {
        emit(.measure(.decided(.rejected(code))))
        log("rejected \(origin.proposalID) on \(id) from \(origin.user): \(code.rawValue): \(message)")
        send(
            .rejected(
                id: origin.proposalID, plan: id, code: code, message: message, version: candidateVersion,
                ref: origin.ref), to: origin.connection)
    }

    /// A re-send is answered from memory; a proposal not seen before is queued, the role and the
    /// base version judged like the op itself, so that their rejections are decisions too.
    /// Answered once its batch commits.
    mutating func propose(
        _ origin: ProposalOrigin, role: PlanRole, baseVersion: Int?, verdict: QueuedProposal.Verdict
    ) {
        if answeredIfKnown(origin) { return }
        var verdict = verdict
        if role < .editor {
            verdict = .reject(.forbidden, "your role on \"\(id)\" is \(role.rawValue); proposing needs editor")
        } else if let baseVersion, baseVersion > candidateVersion {
            verdict = .reject(
                .badMessage, "baseVersion \(baseVersion) is above the current version \(candidateVersion)")
        }
        undecided[origin.key] = []
        enqueue(QueuedProposal(origin: origin, verdict: verdict))
    }

    /// Judges a proposal now, or holds it while the pipeline reads or reloads.
    mutating func enqueue(_ proposal: QueuedProposal) {
        // Behind a step on a worker, proposals wait their turn (`PlanOwner+OffHub`).
        if offHub != nil { return offHub!.held.append(proposal) }
        switch phase {
        case .idle, .committing:
            if startOffHub(proposal) { return }
            if let judged = judge(proposal) { commitOrQueue(judged) }
        case .lookingUpDecisions(var held):
            phase = .idle
            held.append(proposal)
            phase = .lookingUpDecisions(held: held)
        case .catchingUp(var held):
            phase = .idle
            held.append(proposal)
            phase = .catchingUp(held: held)
        case .reloading(var held, let committed):
            phase = .idle
            held.append(proposal)
            phase = .reloading(held: held, committed: committed)
        }
    }

    /// Decides one proposal against the candidate; the decision is answered after its batch
    /// commits. Nil: an undo of a version whose inverse is not in memory, judged once it has been
    /// read from the log (`undoSourceRead`).
    mutating func judge(_ proposal: QueuedProposal) -> JudgedProposal? {
        switch proposal.verdict {
        case .reject(let code, let message):
            rejection(of: proposal, code, message)
        case .judge(.undo(let target)):
            judgeUndo(proposal, of: target)
        case .judge(let operation):
            judge(operation, undoing: nil, proposal)
        case .undo(let target, let inverse):
            judge(candidate.undoOperation(from: inverse), undoing: target, proposal)
        }
    }

    /// `proposal` rejected against the candidate version: a decision without a version of its own.
    func rejection(of proposal: QueuedProposal, _ code: RejectionCode, _ message: String) -> JudgedProposal {
        JudgedProposal(
            proposal: proposal, mutation: nil,
            decision: .rejected(version: candidateVersion, code: code, message: message))
    }

    /// Applies an op to the candidate: a new candidate version with the op that reverts it, a
    /// no-op acknowledgement, or a rejection.
    private mutating func judge(_ proposed: PlanOperation, undoing: Int?, _ proposal: QueuedProposal)
        -> JudgedProposal
    {
        let origin = proposal.origin
        func decided(_ decision: Decision, _ mutation: CommittedMutation? = nil) -> JudgedProposal {
            JudgedProposal(proposal: proposal, mutation: mutation, decision: decision)
        }
        var operation = proposed
        switch operation {
        case .add, .restore, .restoring(.add, _), .restoring(.restore, _):
            guard candidate.tasks.tasks.count < configuration.limits.maxTasksPerPlan else {
                let limit = configuration.limits.maxTasksPerPlan
                return decided(
                    .rejected(
                        version: candidateVersion, code: .tooLarge, message: "the plan would exceed \(limit) tasks"))
            }
        case .baselineSet(let name, nil):
            operation = .baselineSet(name: name, version: candidateVersion)
        case .settingsReplace where origin.role < .owner, .restoring(.settingsReplace, _) where origin.role < .owner:
            // It can move every task of the plan (scheduling.md §1); an undo of it too.
            return decided(
                .rejected(
                    version: candidateVersion, code: .forbidden,
                    message: "only an owner of \"\(id)\" may change its scheduling settings"))
        default:
            break
        }
        let at = wallClock.timestamp(at: eventTime)
        let step = CandidateStep.apply(
            operation, to: &candidate, context: JudgingContext(version: candidateVersion, logStart: logStart, at: at))
        return judgement(of: step, operation, undoing: undoing, at: at, proposal)
    }

    /// The decision a step on the candidate makes: a new candidate version (the op that reverts
    /// it kept), a no-op acknowledgement, or a rejection.
    mutating func judgement(
        of step: CandidateStep, _ operation: PlanOperation, undoing: Int?, at: String, _ proposal: QueuedProposal
    ) -> JudgedProposal {
        let origin = proposal.origin
        switch step.outcome {
        case .noop:
            return JudgedProposal(
                proposal: proposal, mutation: nil, decision: .acknowledged(version: candidateVersion, noop: true))
        case .applied(let change, let inverse, let changesJSON):
            candidateVersion += 1
            inverses.remember(candidateVersion, inverse)
            let mutation = CommittedMutation(
                proposalID: origin.proposalID, user: origin.user, operation: operation, change: change,
                changesJSON: changesJSON, inverse: inverse, undoes: undoing, at: at)
            return JudgedProposal(
                proposal: proposal, mutation: mutation, decision: .acknowledged(version: candidateVersion, noop: false))
        case .rejected(let error):
            var conflict: ConflictDetail?
            if case .scheduleConflict(let found) = error { conflict = found.detail }
            return JudgedProposal(
                proposal: proposal, mutation: nil,
                decision: .rejected(
                    version: candidateVersion, code: error.code, message: error.message, conflict: conflict))
        }
    }

    /// A judged proposal goes to the next transaction: at once when the pipeline is idle, else
    /// behind the commit in flight.
    mutating func commitOrQueue(_ judged: JudgedProposal) {
        guard case .committing(let inFlight, var next) = phase else { return startCommit(JudgedQueue([judged])) }
        phase = .idle
        next.append(judged)
        phase = .committing(inFlight, next: next)
    }

    /// Starts the next group commit with `queue`'s next batch (the pipeline is idle); the rest of
    /// the queue waits behind it. Nothing happens for an empty queue.
    mutating func startCommit(_ queue: JudgedQueue) {
        var queue = queue
        guard case .idle = phase, !queue.isEmpty else { return }
        let batch = queue.takeBatch()
        let mutations = batch.compactMap(\.mutation)
        let decisions = batch.filter { $0.mutation == nil }.map {
            RecordedDecision(proposalID: $0.origin.proposalID, user: $0.origin.user, decision: $0.decision)
        }
        let movedLogStart = mutations.isEmpty ? nil : nextLogStart(newVersion: version + mutations.count)
        phase = .committing(
            InFlight(batch: batch, started: eventTime, logStart: movedLogStart, announced: nil), next: queue)
        emit(
            .commit(
                CommitRequest(
                    plan: id, baseVersion: version, mutations: mutations, decisions: decisions,
                    logStart: movedLogStart)))
    }

    /// Judges proposals again from the confirmed data (after a failed or conflicting commit, or
    /// once the plan is consistent again), and commits them; the first `alone` one per transaction.
    mutating func rejudge(_ proposals: [QueuedProposal], alone: Int = 0) {
        phase = .idle
        candidateEpoch += 1
        settledOffHub = nil
        candidate = confirmed
        candidateVersion = version
        inverses.forget(above: version)
        var judged: [JudgedProposal?] = []
        for proposal in proposals { judged.append(judge(proposal)) }
        // An undo waiting for its log read is judged later: `alone` counts only those judged now.
        let judgedAlone = judged.prefix(alone).count { $0 != nil }
        startCommit(JudgedQueue(judged.compactMap { $0 }, alone: judgedAlone))
    }

    /// Answers a proposal and every re-send of it that arrived meanwhile; `remember`: the decision
    /// is final (a rejection `unavailable` is not: the same id may be decided later).
    mutating func answerAll(_ decision: Decision, origin: ProposalOrigin, remember: Bool) {
        let duplicates = undecided.removeValue(forKey: origin.key) ?? []
        if remember { recentDecisions.remember(decision, for: origin.key) }
        switch decision {
        case .acknowledged(_, let noop): emit(.measure(.decided(noop ? .noop : .confirmed)))
        case .rejected(_, let code, let message, _):
            emit(.measure(.decided(.rejected(code))))
            log("rejected \(origin.proposalID) on \(id) from \(origin.user): \(code.rawValue): \(message)")
        }
        answer(decision, to: origin)
        for duplicate in duplicates { answer(decision, to: duplicate) }
    }

    /// Sends one decision to one proposer.
    mutating func answer(_ decision: Decision, to origin: ProposalOrigin) {
        switch decision {
        case .acknowledged(let version, let noop):
            send(
                .ack(id: origin.proposalID, plan: id, version: version, noop: noop, ref: origin.ref),
                to: origin.connection)
        case .rejected(let version, let code, let message, let conflict):
            send(
                .rejected(
                    id: origin.proposalID, plan: id, code: code, message: message, version: version, ref: origin.ref,
                    conflict: conflict),
                to: origin.connection)
        }
    }
}
