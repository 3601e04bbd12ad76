import ChronoSketchCore
import PlanProtocol
import PlanStore
import SystemSupport
import WebSocketWire

/// A commit's outcome: publish and answer, or judge again, look up decisions, catch up.
extension PlanOwner {
    /// The message every proposal of a batch gets when the database could not commit it.
    static let commitFailedMessage = "the database could not commit; nothing was applied; retry with the same id"

    /// A group commit finished.
    mutating func committed(_ result: Result<Int, StoreError>) {
        guard case .committing(let inFlight, let next) = phase else { return }
        phase = .idle
        let batch = inFlight.batch
        switch result {
        case .success:
            emit(.measure(.commitLatency(eventTime - inFlight.started)))
            if let moved = inFlight.logStart {
                logStart = max(logStart, moved)
                deleteTrimmedLog()
            }
            publish(batch, announced: inFlight.announced, next: next)
        case .failure(.versionConflict):
            log("plan \(id): another process committed first; catching up and judging again")
            catchUp(holding: batch.map(\.proposal) + next.waiting)
        case .failure(.duplicate):
            // A proposal in the batch was decided before (by another process, or before a
            // restart): answer from the stored decisions, judge the rest again.
            let held = batch.map(\.proposal) + next.waiting
            phase = .lookingUpDecisions(held: held)
            emit(.run(.lookUpDecisions(plan: id, held.map(\.origin.key))))
        case .failure(let error) where error.isRefusedValue:
            isolateRefusedValue(batch, error, next: next)
        case .failure(let error):
            warn("plan \(id): commit failed, nothing applied: \(error)")
            for judged in batch {
                answerAll(
                    .rejected(version: version, code: .unavailable, message: PlanOwner.commitFailedMessage),
                    origin: judged.origin, remember: false)
            }
            // A commit whose outcome is unknown (its connection lost, or a cancelled wait for a
            // synchronous standby) may have been announced meanwhile: then it did commit, and
            // the log says so. Otherwise the rest is judged again on the data as it was.
            if let announced = inFlight.announced, announced > version {
                catchUp(holding: next.waiting)
            } else {
                rejudge(next.waiting, alone: next.alone)
            }
        }
    }

    /// The database refused a value in the batch (nothing was applied): its proposals are judged
    /// again and committed one per transaction, so that their batch-mates do not fail with the
    /// one that holds the value. That one, alone, is rejected with `badMessage` as a decision
    /// (the same value would be refused again, so `unavailable` would have its client retry forever).
    private mutating func isolateRefusedValue(_ batch: [JudgedProposal], _ error: StoreError, next: JudgedQueue) {
        var again = batch.map(\.proposal)
        if again.count == 1 {
            let origin = again[0].origin
            warn("plan \(id): the database refused a value of \(origin.proposalID): \(error)")
            again = [
                QueuedProposal(
                    origin: origin,
                    verdict: .reject(.badMessage, "the database refused a value of this proposal; nothing was applied"))
            ]
        } else {
            warn("plan \(id): the database refused a value in a batch; committing it one by one")
        }
        // The batch's proposals one per transaction (the one refused is a decision now and goes
        // alone too), then those that still went alone before.
        rejudge(again + next.waiting, alone: again.count + next.alone)
    }

    /// After COMMIT: apply to the confirmed data, start the next transaction (it runs on a
    /// worker while this one is published), broadcast each `confirmed` (encoded once) in version
    /// order, refresh the affected watches once, then answer the proposers: no answer leaves
    /// before the version it was judged against is confirmed to everyone.
    private mutating func publish(_ batch: [JudgedProposal], announced: Int?, next: JudgedQueue) {
        let base = version
        var applied: [(mutation: CommittedMutation, change: PlanChange)] = []
        // The figures kept are of this version only: let them go before the data changes (they
        // share its id → position map, which an add or remove would otherwise copy).
        if !batch.allSatisfy({ $0.mutation == nil }) { scheduleCache = nil }
        for mutation in batch.compactMap(\.mutation) {
            if let settled = settledOffHub, settled.version == base + applied.count + 1,
                settled.key == ProposalKey(user: mutation.user, proposalID: mutation.proposalID)
            {
                // A whole-plan settle judged on a worker from this very data (`PlanOwner+OffHub`).
                confirmed = settled.state
                settledOffHub = nil
                applied.append((mutation, mutation.change))
                continue
            }
            do {
                let context = JudgingContext(version: base + applied.count, logStart: logStart, at: mutation.at)
                // The cascade decided when it was judged, as data (scheduling.md §7).
                let change = try confirmed.apply(mutation.operation, context: context, cascade: mutation.change.cascade)
                applied.append((mutation, change))
            } catch {
                warn("plan \(id): committed op no longer applies (\(error)); reloading")
                // What did apply goes out (should the reload fail, nobody misses a version); the
                // batch, committed all the same, is answered once the reload's snapshot went out.
                version = base + applied.count
                fanOut(applied, after: base)
                reload(held: next.waiting, committed: batch)
                return
            }
        }
        version = base + applied.count
        // Another process committed meanwhile (announcements of our own commits are not newer).
        let otherCommitted = (announced ?? 0) > version
        if !otherCommitted { startCommit(next) }
        fanOut(applied, after: base)
        checkpointIfDue()
        answerCommitted(batch)
        if otherCommitted { catchUp(holding: next.waiting) }
    }

    /// Confirms applied mutations, the first of them at `base + 1` (`version` is the last): each
    /// `confirmed` to every subscriber in version order, then one fresh page for each watch they
    /// affect.
    private mutating func fanOut(_ applied: [(mutation: CommittedMutation, change: PlanChange)], after base: Int) {
        snapshotCache = nil
        var timelineChanges: [TimelineChange] = []
        for (offset, entry) in applied.enumerated() {
            let mutation = entry.mutation
            fanOutConfirmed(
                version: base + 1 + offset,
                MutationStamp(id: mutation.proposalID, user: mutation.user, at: mutation.at, undoes: mutation.undoes),
                changesJSON: mutation.changesJSON)
            if case .timeline(let change) = entry.change { timelineChanges.append(change) }
        }
        refreshWatches(timelineChanges)
    }

    /// Answers every proposal of a committed batch with its decision.
    mutating func answerCommitted(_ batch: [JudgedProposal]) {
        for judged in batch { answerAll(judged.decision, origin: judged.origin, remember: true) }
    }

    /// Encodes the `confirmed` of `version` once, queues it to every subscriber and keeps it for
    /// resuming.
    mutating func fanOutConfirmed(version: Int, _ stamp: MutationStamp, changesJSON: String) {
        let buffer = confirmedBuffer(version: version, stamp, changesJSON: changesJSON)
        broadcast(buffer, to: audience.subscriberList())
        appendConfirmed(buffer)
    }

    /// A `confirmed` message, encoded once with the `changes` as logged.
    func confirmedBuffer(version: Int, _ stamp: MutationStamp, changesJSON: String) -> OutgoingBuffer {
        OutgoingBuffer(
            ServerMessage.confirmedBytes(plan: id, version: version, mutation: stamp, changesJSON: changesJSON.utf8))
    }

    /// The stored decisions of held proposals are known: those decided are answered with them,
    /// the rest judged again.
    mutating func decisionsLoaded(_ result: Result<[ProposalKey: Decision], StoreError>) {
        guard case .lookingUpDecisions(let held) = phase else { return }
        phase = .idle
        switch result {
        case .success(let found):
            var undecidedProposals: [QueuedProposal] = []
            for proposal in held {
                if let decision = found[proposal.origin.key] {
                    answerAll(decision, origin: proposal.origin, remember: true)
                } else {
                    undecidedProposals.append(proposal)
                }
            }
            rejudge(undecidedProposals)
        case .failure:
            for proposal in held {
                answerAll(
                    .rejected(version: version, code: .unavailable, message: PlanOwner.commitFailedMessage),
                    origin: proposal.origin, remember: false)
            }
        }
    }
}
