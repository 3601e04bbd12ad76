import PlanStore

/// Keeping each plan's mutation log to `ServerConfiguration.logKeep` versions: a commit moves the
/// log's start (in its own transaction, so resuming from before it gives a snapshot from the
/// moment it is acknowledged), and a worker then deletes the rows left behind, a slice at a
/// time. A plan does not leave memory while a slice is being deleted; a failed slice is tried
/// again on the next tick, and a plan loaded with rows left behind (after a crash, or after it
/// left memory) deletes them.
extension Hub {
    /// Where a commit reaching `newVersion` moves the log's start: `logKeep` versions back, once
    /// the log has grown a step (a tenth of `logKeep`, at most 1,000 versions) beyond that; nil
    /// when it stays.
    func nextLogStart(_ runtime: PlanRuntime, newVersion: Int) -> Int? {
        let keep = configuration.logKeep
        guard keep > 0 else { return nil }
        let step = max(1, min(1_000, keep / 10))
        // Subtracted, not added: any keep up to Int.max is fine.
        return newVersion - runtime.logStart - keep >= step ? newVersion - keep : nil
    }

    /// Deletes the log rows at or below the plan's log start on a worker, unless a deletion is
    /// under way.
    func deleteTrimmedLog(_ runtime: PlanRuntime) {
        guard runtime.trimmedLogDeletion != .running else { return }
        runtime.trimmedLogDeletion = .running
        let store = self.store
        let events = self.events
        let plan = runtime.id
        workers.submit {
            let result = Result { () throws(StoreError) in try store.deleteTrimmedLog(of: plan) }
            events.yield(.trimmedLogDeleted(plan: plan, result))
        }
    }

    /// A slice was deleted (the next one follows when it was a whole slice) or could not be (tried
    /// again on the next tick). The plan is still in memory: it does not leave while deleting.
    func finishTrimmedLogDeletion(_ planID: String, _ result: Result<Int, StoreError>) {
        guard let runtime = plans[planID] else { return }
        switch result {
        case .success(let deleted):
            runtime.trimmedLogDeletion = .idle
            metrics.trimmedLogRows.wrappingAdd(deleted, ordering: .relaxed)
            // A whole slice: more rows may wait (a log trimmed for the first time, say).
            if deleted == PlanStore.trimmedLogSlice { deleteTrimmedLog(runtime) }
        case .failure(let error):
            runtime.trimmedLogDeletion = .failed
            log.warning("plan \(planID): cannot delete trimmed log rows (\(error)); trying again in a second")
        }
    }
}
