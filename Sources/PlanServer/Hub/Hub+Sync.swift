import ChronoSketchCore
import PlanProtocol
import PlanStore

extension Hub {
    /// Another process committed to `plan` (nil: notifications may have been missed for all).
    func noteExternalCommit(plan planID: String?, version: Int) {
        guard let planID else {
            for runtime in plans.values { requestCatchUp(runtime, announced: .max) }
            return
        }
        guard let runtime = plans[planID], version > runtime.version else { return }
        requestCatchUp(runtime, announced: version)
    }

    private func requestCatchUp(_ runtime: PlanRuntime, announced version: Int) {
        if runtime.inFlight != nil {
            runtime.announcedVersion = max(runtime.announcedVersion, version)
        } else if !runtime.resynchronizing {
            catchUp(runtime)
        }
    }

    /// Reads the log since the confirmed version and follows it. Proposals judged but not yet
    /// committed, and new ones, wait and are judged again against the caught-up data.
    func catchUp(_ runtime: PlanRuntime, failedBatch: [QueuedProposal] = []) {
        precondition(runtime.inFlight == nil, "catch up only between commits")
        runtime.held =
            failedBatch
            + runtime.nextBatch.map(\.proposal)
            + runtime.held
        runtime.nextBatch = []
        runtime.announcedVersion = 0
        runtime.resynchronizing = true
        let store = self.store
        let events = self.events
        let plan = runtime.id
        let since = runtime.version
        workers.submit(lane: plan) {
            events.yield(
                .catchUpLogRead(
                    plan: plan, Result { () throws(StoreError) in try store.mutations(of: plan, since: since) }))
        }
    }

    func finishCatchUp(_ planID: String, _ result: Result<LogRead?, StoreError>) {
        guard let runtime = plans[planID] else { return }
        guard case .success(.mutations(let logged, _)?) = result else {
            if case .failure(let error) = result {
                log.warning("plan \(planID): cannot read the log (\(error)); judging held proposals as they are")
                finishResynchronizing(runtime)
            } else {
                reload(runtime)
            }
            return
        }
        for entry in logged where entry.version > runtime.version {
            guard entry.version == runtime.version + 1,
                let operation = try? PlanOperation(json: try JSONValue(parsing: entry.opJSON)),
                let change = try? runtime.confirmed.apply(operation)
            else {
                reload(runtime)
                return
            }
            runtime.version = entry.version
            fanOutConfirmed(
                runtime, proposalID: entry.proposalID, user: entry.user, changesJSON: entry.changesJSON, change: change)
            runtime.remember(
                .acknowledged(version: entry.version, noop: false), user: entry.user, proposalID: entry.proposalID)
        }
        runtime.snapshotCache = nil
        finishResynchronizing(runtime)
    }

    /// Judges the held proposals against the now current data.
    private func finishResynchronizing(_ runtime: PlanRuntime) {
        runtime.resynchronizing = false
        let held = runtime.held
        runtime.held = []
        rejudge(held, in: runtime)
    }

    /// Loads the plan again from the database and gives every subscriber a fresh snapshot.
    func reload(_ runtime: PlanRuntime) {
        runtime.resynchronizing = true
        let store = self.store
        let plan = runtime.id
        let events = self.events
        workers.submit(lane: plan) {
            let result = Result { () throws(StoreError) in try store.loadPlan(plan) }
            events.yield(.planReloaded(plan, result))
        }
    }

    func finishReload(_ planID: String, _ result: Result<StoredPlan?, StoreError>) {
        guard let runtime = plans[planID] else { return }
        let unanswered = runtime.answerAfterReload
        runtime.answerAfterReload = []
        guard case .success(let stored?) = result else {
            log.warning("plan \(planID): reload failed; keeping the data held")
            answerCommitted(unanswered, in: runtime)
            finishResynchronizing(runtime)
            return
        }
        runtime.confirmed = stored.document.state
        runtime.title = stored.document.title
        runtime.version = stored.version
        runtime.logStart = max(runtime.logStart, stored.logStart)
        runtime.recentConfirmed = []
        runtime.recentConfirmedStart = stored.version + 1
        runtime.snapshotCache = nil
        let snapshot = PlanSnapshot(plan: planID, version: stored.version, document: stored.document)
        broadcast(.snapshot(snapshot), to: runtime.subscriberList)
        // Watchers cannot tell what changed in a reload: every watch gets a fresh page.
        for (key, query) in runtime.watches.all {
            broadcast(
                .page(
                    plan: planID, watch: key.watch, version: runtime.version, query: query,
                    page: runtime.confirmed.timeline.page(for: query)), to: [key.connection])
        }
        answerCommitted(unanswered, in: runtime)
        finishResynchronizing(runtime)
    }

    // MARK: Shutdown

    func beginShutdown() {
        guard !shuttingDown else { return }
        shuttingDown = true
        log.info("shutting down: finishing in-flight commits")
        finishShutdownIfDone()
    }

    /// Once no commit is in flight or queued, closes every connection with 1001.
    func finishShutdownIfDone() {
        guard shuttingDown, let finished = shutdownFinished else { return }
        let busy = plans.values.contains { $0.inFlight != nil || !$0.nextBatch.isEmpty }
        guard !busy else { return }
        shutdownFinished = nil
        let transport = self.transport
        let log = self.log
        workers.submit {
            transport.shutdown(code: .goingAway, reason: "server shutting down")
            log.info("all connections closed")
            finished()
        }
    }
}
