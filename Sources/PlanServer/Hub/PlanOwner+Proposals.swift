import ChronoSketchCore
import PlanProtocol
import PlanStore

/// Proposals in: exactly-once answers for re-sends, judging against the candidate, group commits.
extension PlanOwner {
    /// A re-sent proposal whose first copy was decided (answered again with that decision) or is
    /// being decided (answered with it once it is); nil for a proposal not seen before.
    func answerIfKnown(_ origin: ProposalOrigin) -> [HubAction]? {
        if let decision = recentDecisions[origin.key] {
            answer(decision, to: origin)
            return take()
        }
        if undecided[origin.key] != nil {
            undecided[origin.key]!.append(origin)
            return []
        }
        return nil
    }

    /// A rejection that is not a decision (nothing stored): rate limits, a server shutting down.
    func refuse(_ origin: ProposalOrigin, _ code: RejectionCode, _ message: String) -> [HubAction] {
        metrics.countProposal(outcome: "rejected", code: code.rawValue)
        log("rejected \(origin.proposalID) on \(id) from \(origin.user): \(code.rawValue): \(message)")
        send(
            .rejected(
                id: origin.proposalID, plan: id, code: code, message: message, version: candidateVersion,
                ref: origin.ref), to: origin.connection)
        return take()
    }

    /// Queues a proposal not seen before; the role and the base version are judged like the op
    /// itself, so their rejections are decisions too. Answered once its batch commits.
    func propose(
        _ origin: ProposalOrigin, role: PlanRole, baseVersion: Int?, verdict: QueuedProposal.Verdict,
        now: ContinuousClock.Instant
    ) -> [HubAction] {
        eventTime = now
        lastUsed = now
        var verdict = verdict
        if role < .editor {
            verdict = .reject(.forbidden, "your role on \"\(id)\" is \(role.rawValue); proposing needs editor")
        } else if let baseVersion, baseVersion > candidateVersion {
            verdict = .reject(
                .badMessage, "baseVersion \(baseVersion) is above the current version \(candidateVersion)")
        }
        let proposal = QueuedProposal(origin: origin, verdict: verdict)
        undecided[origin.key] = []
        switch phase {
        case .idle, .committing:
            judge(proposal)
            startCommitIfIdle()
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
        return take()
    }

    /// Decides one proposal against the candidate; the decision is answered after its batch commits.
    func judge(_ proposal: QueuedProposal) {
        let origin = proposal.origin
        func decided(_ decision: Decision, _ mutation: CommittedMutation? = nil) {
            nextBatch.append(JudgedProposal(proposal: proposal, mutation: mutation, decision: decision))
        }
        func rejected(_ code: RejectionCode, _ message: String) {
            decided(.rejected(version: candidateVersion, code: code, message: message))
        }
        switch proposal.verdict {
        case .reject(let code, let message):
            rejected(code, message)
        case .judge(let operation):
            if case .add = operation, candidate.tasks.count >= configuration.limits.maxTasksPerPlan {
                return rejected(.tooLarge, "the plan would exceed \(configuration.limits.maxTasksPerPlan) tasks")
            }
            do {
                let change = try candidate.apply(operation)
                guard !change.isNoop else { return decided(.acknowledged(version: candidateVersion, noop: true)) }
                candidateVersion += 1
                let changes = PlanChanges(after: candidate, change: change)
                let mutation = CommittedMutation(
                    proposalID: origin.proposalID, user: origin.user, operation: operation, change: change,
                    changesJSON: changes.json)
                decided(.acknowledged(version: candidateVersion, noop: false), mutation)
            } catch {
                rejected(error.code, error.message)
            }
        }
    }

    /// Starts the next group commit when the pipeline is idle and something waits.
    func startCommitIfIdle() {
        guard case .idle = phase, !nextBatch.isEmpty else { return }
        let batch: [JudgedProposal]
        if committingAlone > 0 {
            committingAlone -= 1
            batch = [nextBatch.removeFirst()]
        } else {
            batch = nextBatch
            nextBatch = []
        }
        let mutations = batch.compactMap(\.mutation)
        let decisions = batch.filter { $0.mutation == nil }.map {
            RecordedDecision(proposalID: $0.origin.proposalID, user: $0.origin.user, decision: $0.decision)
        }
        let movedLogStart = mutations.isEmpty ? nil : nextLogStart(newVersion: version + mutations.count)
        phase = .committing(InFlight(batch: batch, started: eventTime, logStart: movedLogStart, announced: nil))
        emit(
            .run(
                .commit(
                    CommitRequest(
                        plan: id, baseVersion: version, mutations: mutations, decisions: decisions,
                        logStart: movedLogStart))))
    }

    /// Judges proposals again from the confirmed data (after a failed or conflicting commit, or
    /// once the plan is consistent again), and commits them.
    func rejudge(_ proposals: [QueuedProposal]) {
        phase = .idle
        candidate = confirmed
        candidateVersion = version
        for proposal in proposals { judge(proposal) }
        startCommitIfIdle()
    }

    /// Answers a proposal and every re-send of it that arrived meanwhile; `remember`: the decision
    /// is final (a rejection `unavailable` is not: the same id may be decided later).
    func answerAll(_ decision: Decision, origin: ProposalOrigin, remember: Bool) {
        let duplicates = undecided.removeValue(forKey: origin.key) ?? []
        if remember { recentDecisions.remember(decision, for: origin.key) }
        switch decision {
        case .acknowledged(_, let noop): metrics.countProposal(outcome: noop ? "noop" : "confirmed")
        case .rejected(_, let code, let message):
            metrics.countProposal(outcome: "rejected", code: code.rawValue)
            log("rejected \(origin.proposalID) on \(id) from \(origin.user): \(code.rawValue): \(message)")
        }
        answer(decision, to: origin)
        for duplicate in duplicates { answer(decision, to: duplicate) }
    }

    /// Sends one decision to one proposer.
    func answer(_ decision: Decision, to origin: ProposalOrigin) {
        switch decision {
        case .acknowledged(let version, let noop):
            send(
                .ack(id: origin.proposalID, plan: id, version: version, noop: noop, ref: origin.ref),
                to: origin.connection)
        case .rejected(let version, let code, let message):
            send(
                .rejected(
                    id: origin.proposalID, plan: id, code: code, message: message, version: version, ref: origin.ref),
                to: origin.connection)
        }
    }
}
