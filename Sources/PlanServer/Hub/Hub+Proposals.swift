import ChronoSketchCore
import PlanProtocol
import PlanStore

extension Hub {
    /// `propose` (or a malformed proposal whose id and plan could be read): answers a decided id
    /// again, checks the rate, then queues the proposal; the role and the base version are
    /// judged like the op itself, so their rejections are decisions too.
    func propose(
        _ runtime: PlanRuntime, role: PlanRole, id: String, baseVersion: Int?, verdict: QueuedProposal.Verdict,
        ref: String?, session: Session
    ) {
        guard let user = session.user else { return }
        let origin = ProposalOrigin(connection: session.connection, user: user, proposalID: id, ref: ref)
        let key = PlanRuntime.decisionKey(user: user, proposalID: id)
        if let decision = runtime.recentDecisions[key] {
            return answer(decision, to: origin, plan: runtime.id)
        }
        if runtime.duplicatesWaiting[key] != nil {
            runtime.duplicatesWaiting[key]!.append(origin)
            return
        }
        guard session.rateLimiter.allow(now: .now) else {
            return reject(
                origin, runtime, .rateLimited,
                "more than \(configuration.limits.maxProposalsPerSecond) proposals per second; retry with the same id")
        }
        guard !shuttingDown else {
            return reject(origin, runtime, .unavailable, "the server is shutting down; retry with the same id")
        }
        var verdict = verdict
        if role < .editor {
            verdict = .reject(.forbidden, "your role on \"\(runtime.id)\" is \(role.rawValue); proposing needs editor")
        } else if let baseVersion, baseVersion > runtime.candidateVersion {
            verdict = .reject(
                .badMessage, "baseVersion \(baseVersion) is above the current version \(runtime.candidateVersion)")
        }
        let proposal = QueuedProposal(origin: origin, verdict: verdict)
        runtime.duplicatesWaiting[key] = []
        if runtime.resynchronizing {
            runtime.held.append(proposal)
            return
        }
        judge(proposal, in: runtime)
        startCommitIfIdle(runtime)
    }

    /// Decides one proposal against the candidate; the decision is answered after its batch
    /// commits.
    func judge(_ proposal: QueuedProposal, in runtime: PlanRuntime) {
        func rejected(_ code: RejectionCode, _ message: String) -> JudgedProposal {
            JudgedProposal(
                proposal: proposal, mutation: nil,
                decision: .rejected(version: runtime.candidateVersion, code: code.rawValue, message: message))
        }
        let origin = proposal.origin
        let judged: JudgedProposal
        switch proposal.verdict {
        case .reject(let code, let message):
            judged = rejected(code, message)
        case .judge(let operation):
            if case .add = operation, runtime.candidate.tasks.count >= configuration.limits.maxTasksPerPlan {
                judged = rejected(.tooLarge, "the plan would exceed \(configuration.limits.maxTasksPerPlan) tasks")
                break
            }
            do {
                let change = try runtime.candidate.apply(operation)
                if change.isNoop {
                    judged = JudgedProposal(
                        proposal: proposal, mutation: nil,
                        decision: .acknowledged(version: runtime.candidateVersion, noop: true))
                } else {
                    runtime.candidateVersion += 1
                    let changes = PlanChanges(after: runtime.candidate, change: change)
                    let mutation = CommittedMutation(
                        proposalID: origin.proposalID, user: origin.user, operation: operation, change: change,
                        changesJSON: changes.json)
                    judged = JudgedProposal(
                        proposal: proposal, mutation: mutation,
                        decision: .acknowledged(version: runtime.candidateVersion, noop: false))
                }
            } catch {
                judged = rejected(error.code, error.message)
            }
        }
        runtime.nextBatch.append(judged)
    }

    /// Starts the next group commit when none is in flight.
    func startCommitIfIdle(_ runtime: PlanRuntime) {
        guard runtime.inFlight == nil, !runtime.resynchronizing, !runtime.nextBatch.isEmpty else { return }
        let batch: [JudgedProposal]
        if runtime.committingAlone > 0 {
            runtime.committingAlone -= 1
            batch = [runtime.nextBatch.removeFirst()]
        } else {
            batch = runtime.nextBatch
            runtime.nextBatch = []
        }
        runtime.inFlight = batch
        let mutations = batch.compactMap(\.mutation)
        let decisions = batch.filter { $0.mutation == nil }.map {
            RecordedDecision(proposalID: $0.origin.proposalID, user: $0.origin.user, decision: $0.decision)
        }
        let store = self.store
        let events = self.events
        let plan = runtime.id
        let base = runtime.version
        let logStart = mutations.isEmpty ? nil : nextLogStart(runtime, newVersion: base + mutations.count)
        let started = ContinuousClock.now
        workers.submit(lane: plan) {
            let result = Result { () throws(StoreError) in
                try store.commit(
                    plan: plan, baseVersion: base, mutations: mutations, decisions: decisions, logStart: logStart)
            }
            events.yield(.committed(plan: plan, started: started, logStart: logStart, result))
        }
    }

    func finishCommit(
        _ planID: String, started: ContinuousClock.Instant, logStart movedLogStart: Int?,
        _ result: Result<Int, StoreError>
    ) {
        guard let runtime = plans[planID], let batch = runtime.inFlight else { return }
        runtime.inFlight = nil
        switch result {
        case .success:
            metrics.commitLatency.observe(seconds(since: started))
            if let movedLogStart {
                runtime.logStart = max(runtime.logStart, movedLogStart)
                deleteTrimmedLog(runtime)
            }
            publish(batch, in: runtime)
        case .failure(.versionConflict):
            log.info("plan \(planID): another process committed first; catching up and judging again")
            catchUp(runtime, failedBatch: requeue(batch))
        case .failure(.duplicate):
            // A proposal in the batch was decided before (by another process, or before a
            // restart): answer from the stored decisions, judge the rest again.
            runtime.held = requeue(batch) + requeue(runtime.nextBatch) + runtime.held
            runtime.nextBatch = []
            runtime.resynchronizing = true
            let keys = runtime.held.map { ($0.origin.user, $0.origin.proposalID) }
            let store = self.store
            let events = self.events
            workers.submit(lane: planID) {
                let result = Result { () throws(StoreError) -> [String: Decision] in
                    var found: [String: Decision] = [:]
                    for (user, id) in keys {
                        if let decision = try store.decision(plan: planID, user: user, proposalID: id) {
                            found[PlanRuntime.decisionKey(user: user, proposalID: id)] = decision
                        }
                    }
                    return found
                }
                events.yield(.decisionsLoaded(plan: planID, result))
            }
        case .failure(let error) where error.isRefusedValue:
            isolateRefusedValue(batch, error, in: runtime)
        case .failure(let error):
            log.warning("plan \(planID): commit failed, nothing applied: \(error)")
            for judged in batch {
                let origin = judged.origin
                answerAll(
                    .rejected(
                        version: runtime.version, code: RejectionCode.unavailable.rawValue,
                        message: "the database could not commit; nothing was applied; retry with the same id"),
                    origin: origin, plan: planID, remember: false, runtime: runtime)
            }
            let waiting = requeue(runtime.nextBatch)
            runtime.nextBatch = []
            rejudge(waiting, in: runtime)
        }
        if shuttingDown { finishShutdownIfDone() }
    }

    /// The database refused a value in the batch (nothing was applied): its proposals are judged
    /// again and committed one per transaction, so that their batch-mates do not fail with the
    /// one that holds the value. That one, alone, is rejected with `badMessage` as a decision
    /// (the same value would be refused again, so `unavailable` would have its client retry forever).
    private func isolateRefusedValue(_ batch: [JudgedProposal], _ error: StoreError, in runtime: PlanRuntime) {
        var again = requeue(batch)
        if again.count == 1 {
            let origin = again[0].origin
            log.warning("plan \(runtime.id): the database refused a value of \(origin.proposalID): \(error)")
            again = [
                QueuedProposal(
                    origin: origin,
                    verdict: .reject(
                        .badMessage, "the database refused a value of this proposal; nothing was applied"))
            ]
        } else {
            log.warning("plan \(runtime.id): the database refused a value in a batch; committing it one by one")
            runtime.committingAlone = again.count
        }
        let waiting = requeue(runtime.nextBatch)
        runtime.nextBatch = []
        rejudge(again + waiting, in: runtime)
    }

    /// After COMMIT: apply to the confirmed data, broadcast each `confirmed` (encoded once) in
    /// version order, refresh affected watches, then answer the proposers.
    private func publish(_ batch: [JudgedProposal], in runtime: PlanRuntime) {
        let fanoutStart = ContinuousClock.now
        for judged in batch {
            guard let mutation = judged.mutation else { continue }
            let change: PlanChange
            do {
                change = try runtime.confirmed.apply(mutation.operation)
            } catch {
                log.warning("plan \(runtime.id): committed op no longer applies (\(error)); reloading")
                // Committed all the same: answered once the reload's snapshot went out.
                runtime.answerAfterReload += batch
                reload(runtime)
                return
            }
            runtime.version += 1
            fanOutConfirmed(
                runtime, proposalID: mutation.proposalID, user: mutation.user, changesJSON: mutation.changesJSON,
                change: change)
        }
        metrics.fanoutLatency.observe(seconds(since: fanoutStart))
        runtime.snapshotCache = nil
        answerCommitted(batch, in: runtime)
        if runtime.announcedVersion > runtime.version {
            // Another process committed meanwhile (announcements of our own commits are not newer).
            catchUp(runtime)
        } else {
            runtime.announcedVersion = 0
            startCommitIfIdle(runtime)
        }
    }

    /// Answers every proposal of a committed batch with its decision.
    func answerCommitted(_ batch: [JudgedProposal], in runtime: PlanRuntime) {
        for judged in batch {
            answerAll(judged.decision, origin: judged.origin, plan: runtime.id, remember: true, runtime: runtime)
        }
    }

    /// Encodes the `confirmed` of `runtime.version` once, queues it to every subscriber, keeps it
    /// for resuming, and refreshes the watches a timeline change touches.
    func fanOutConfirmed(
        _ runtime: PlanRuntime, proposalID: String, user: String, changesJSON: String, change: PlanChange
    ) {
        let buffer = confirmedBuffer(
            plan: runtime.id, version: runtime.version, proposalID: proposalID, user: user, changesJSON: changesJSON)
        broadcast(buffer, to: runtime.subscriberList)
        runtime.appendConfirmed(buffer)
        if case .timeline(let timelineChange) = change { refreshWatches(runtime, change: timelineChange) }
    }

    /// A `confirmed` message, encoded once with the `changes` as logged.
    func confirmedBuffer(plan: String, version: Int, proposalID: String, user: String, changesJSON: String)
        -> OutgoingBuffer
    {
        OutgoingBuffer(
            ServerMessage.confirmedBytes(
                plan: plan, version: version, mutationID: proposalID, user: user, changesJSON: changesJSON.utf8))
    }

    func finishDecisionLookup(_ planID: String, _ result: Result<[String: Decision], StoreError>) {
        guard let runtime = plans[planID] else { return }
        let held = runtime.held
        runtime.held = []
        runtime.resynchronizing = false
        switch result {
        case .success(let found):
            var undecided: [QueuedProposal] = []
            for proposal in held {
                let key = PlanRuntime.decisionKey(user: proposal.origin.user, proposalID: proposal.origin.proposalID)
                if let decision = found[key] {
                    answerAll(decision, origin: proposal.origin, plan: planID, remember: true, runtime: runtime)
                } else {
                    undecided.append(proposal)
                }
            }
            rejudge(undecided, in: runtime)
        case .failure:
            for proposal in held {
                answerAll(
                    .rejected(
                        version: runtime.version, code: RejectionCode.unavailable.rawValue,
                        message: "the database could not commit; nothing was applied; retry with the same id"),
                    origin: proposal.origin, plan: planID, remember: false, runtime: runtime)
            }
        }
    }

    /// Judges proposals again from the confirmed data (after a failed or conflicting commit).
    func rejudge(_ proposals: [QueuedProposal], in runtime: PlanRuntime) {
        runtime.candidate = runtime.confirmed
        runtime.candidateVersion = runtime.version
        for proposal in proposals { judge(proposal, in: runtime) }
        startCommitIfIdle(runtime)
    }

    private func requeue(_ batch: [JudgedProposal]) -> [QueuedProposal] {
        batch.map(\.proposal)
    }

    /// Answers a proposal and every re-send of it that arrived meanwhile.
    func answerAll(_ decision: Decision, origin: ProposalOrigin, plan: String, remember: Bool, runtime: PlanRuntime) {
        let key = PlanRuntime.decisionKey(user: origin.user, proposalID: origin.proposalID)
        let duplicates = runtime.duplicatesWaiting.removeValue(forKey: key) ?? []
        if remember { runtime.remember(decision, user: origin.user, proposalID: origin.proposalID) }
        switch decision {
        case .acknowledged(_, let noop): metrics.countProposal(outcome: noop ? "noop" : "confirmed")
        case .rejected(_, let code, let message):
            metrics.countProposal(outcome: "rejected", code: code)
            log.info("rejected \(origin.proposalID) on \(plan) from \(origin.user): \(code): \(message)")
        }
        for receiver in [origin] + duplicates { answer(decision, to: receiver, plan: plan) }
    }

    func answer(_ decision: Decision, to origin: ProposalOrigin, plan: String) {
        guard sessions[origin.connection] != nil else { return }
        switch decision {
        case .acknowledged(let version, let noop):
            send(
                .ack(id: origin.proposalID, plan: plan, version: version, noop: noop, ref: origin.ref),
                to: origin.connection)
        case .rejected(let version, let code, let message):
            send(
                .rejected(
                    id: origin.proposalID, plan: plan, code: RejectionCode(rawValue: code) ?? .badMessage,
                    message: message, version: version, ref: origin.ref), to: origin.connection)
        }
    }

    /// A rejection that is not a decision (nothing stored): forbidden, rate limits, bad versions.
    private func reject(_ origin: ProposalOrigin, _ runtime: PlanRuntime, _ code: RejectionCode, _ message: String) {
        metrics.countProposal(outcome: "rejected", code: code.rawValue)
        log.info("rejected \(origin.proposalID) on \(runtime.id) from \(origin.user): \(code.rawValue): \(message)")
        send(
            .rejected(
                id: origin.proposalID, plan: runtime.id, code: code, message: message,
                version: runtime.candidateVersion,
                ref: origin.ref), to: origin.connection)
    }

    func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
