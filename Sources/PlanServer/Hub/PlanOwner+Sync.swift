import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketWire

/// Following other processes (NOTIFY, catching up from the log), reloading, and keeping the log
/// to `ServerConfiguration.logKeep` versions.
extension PlanOwner {
    /// Another process committed up to `announced` (`Int.max`: notifications may have been missed).
    mutating func notified(_ announced: Int) {
        guard announced > version else { return }
        switch phase {
        case .committing(var inFlight, let next):
            // Caught up once the commit is published (the announcement may be of that very commit).
            inFlight.announced = max(inFlight.announced ?? 0, announced)
            phase = .committing(inFlight, next: next)
        case .idle:
            catchUp()
        case .lookingUpDecisions, .catchingUp, .reloading:
            // Already bringing the plan up to date: judging waits for it.
            break
        }
    }

    /// Reads the log since the confirmed version and follows it. `held` (proposals judged but
    /// not committed), and new ones, wait and are judged again against the caught-up data.
    mutating func catchUp(holding held: [QueuedProposal] = []) {
        // Candidate versions were never committed: the log's versions take their numbers.
        inverses.forget(above: version)
        phase = .catchingUp(held: held)
        emit(.run(.readLog(plan: id, since: version, limit: nil, .catchUp)))
    }

    /// The log read for catching up finished: follow it (or reload when it does not join up),
    /// then judge the held proposals.
    mutating func caughtUp(_ result: Result<LogRead?, StoreError>) {
        guard case .catchingUp(let held) = phase else { return }
        switch result {
        case .failure(let error):
            warn("plan \(id): cannot read the log (\(error)); judging held proposals as they are")
            rejudge(held)
        case .success(.mutations(let logged, _)?):
            guard follow(logged) else {
                reload(held: held, committed: [])
                break
            }
            snapshotCache = nil
            rejudge(held)
        case .success:
            reload(held: held, committed: [])
        }
    }

    /// Applies logged mutations after `version`, in order, and fans them out; false when one does
    /// not follow (a gap, an op that does not read or apply).
    private mutating func follow(_ logged: [LoggedMutation]) -> Bool {
        var timelineChanges: [TimelineChange] = []
        // The watches they affect get one fresh page, once what could be followed is.
        defer { refreshWatches(timelineChanges) }
        if logged.contains(where: { $0.version > version }) { scheduleCache = nil }  // as in `publish`
        for entry in logged where entry.version > version {
            guard entry.version == version + 1,
                let operation = try? PlanOperation(json: try JSONValue(parsing: entry.opJSON)),
                let cascade = try? LoggedCascade.pushedTasks(inChangesJSON: entry.changesJSON),
                let change = try? confirmed.apply(
                    operation, context: JudgingContext(version: version, logStart: logStart, at: entry.at),
                    cascade: cascade)
            else { return false }
            version = entry.version
            if entry.inverseFromOp {
                inverses.remember(entry.version, operation.inverseOfItself)
            } else if let text = entry.inverseJSON, let inverse = try? PlanOperation(json: JSONValue(parsing: text)) {
                inverses.remember(entry.version, inverse)
            } else if case .baselineSet = operation {
                inverses.remember(entry.version, nil)
            } else if case .baselineRemove = operation {
                inverses.remember(entry.version, nil)
            }
            fanOutConfirmed(
                version: version,
                MutationStamp(id: entry.proposalID, user: entry.user, at: entry.at, undoes: entry.undoes),
                changesJSON: entry.changesJSON)
            if case .timeline(let change) = change { timelineChanges.append(change) }
            checkpointIfDue()
            recentDecisions.remember(
                .acknowledged(version: entry.version, noop: false),
                for: ProposalKey(user: entry.user, proposalID: entry.proposalID))
        }
        return true
    }

    /// Loads the plan again from the database; every subscriber gets a fresh snapshot.
    mutating func reload(held: [QueuedProposal], committed: [JudgedProposal]) {
        // What the reload brings is not known here: undos from above read the log.
        inverses.forget(above: version)
        phase = .reloading(held: held, committed: committed)
        emit(.run(.reloadPlan(id)))
    }

    /// The plan was loaded again: a snapshot to every subscriber and a page to every watch, then
    /// the answers that waited for it, then the held proposals are judged.
    mutating func reloaded(_ result: Result<StoredPlan?, StoreError>) {
        guard case .reloading(let held, let committed) = phase else { return }
        guard case .success(let stored?) = result else {
            warn("plan \(id): reload failed; keeping the data held")
            answerCommitted(committed)
            rejudge(held)
            return
        }
        confirmed = stored.document.state
        title = stored.document.title
        version = stored.version
        logStart = max(logStart, stored.logStart)
        recentConfirmed = []
        scheduleCache = nil
        recentConfirmedStart = stored.version + 1
        let snapshot = PlanSnapshot(plan: id, version: stored.version, document: stored.document)
        var buffers = SnapshotBuffers(
            version: stored.version, plain: OutgoingBuffer(ServerMessage.snapshot(snapshot).bytes))
        for (role, connections) in audience.subscribersByRole() {
            broadcast(buffers.buffer(for: role), to: connections)
        }
        snapshotCache = buffers
        // Watchers cannot tell what changed in a reload: every watch gets a fresh page.
        for (key, query) in audience.watches.all { sendPage(query, watch: key.watch, ref: nil, to: key.connection) }
        answerCommitted(committed)
        rejudge(held)
    }

    // MARK: Log retention

    /// Deletes the log rows below the log start on a worker, unless a deletion is under
    /// way. The plan does not leave memory while a slice is being deleted.
    mutating func deleteTrimmedLog() {
        guard trimmedLogDeletion != .running else { return }
        trimmedLogDeletion = .running
        emit(.run(.deleteTrimmedLog(plan: id)))
    }

    /// A slice was deleted (the next one follows when it was a whole slice) or could not be (tried
    /// again on the next tick).
    mutating func trimmedLogDeleted(_ result: Result<Int, StoreError>) {
        switch result {
        case .success(let deleted):
            trimmedLogDeletion = .idle
            emit(.measure(.trimmedLogRows(deleted)))
            // A whole slice: more rows may wait (a log trimmed for the first time, say).
            if deleted == PlanStore.trimmedLogSlice { deleteTrimmedLog() }
        case .failure(let error):
            trimmedLogDeletion = .failed
            warn("plan \(id): cannot delete trimmed log rows (\(error)); trying again in a second")
        }
    }
}
