import ChronoSketchCore
import PlanStore

/// Everything the hub reacts to, delivered in order through one stream.
enum HubEvent: Sendable {
    /// From the transport.
    case transport(TransportEvent)
    /// A token check finished.
    case authenticated(ConnectionID, Result<String?, StoreError>)
    /// A role lookup for a session finished.
    case roleLoaded(ConnectionID, plan: String, Result<PlanRole?, StoreError>)
    /// A plan load finished.
    case planLoaded(String, Result<StoredPlan?, StoreError>)
    /// A group commit finished: the new version, or why nothing was written.
    /// `logStart`: where the commit moved the log's start, if it did.
    case committed(plan: String, started: ContinuousClock.Instant, logStart: Int?, Result<Int, StoreError>)
    /// Decisions looked up after a commit hit an already decided proposal.
    case decisionsLoaded(plan: String, Result<[String: Decision], StoreError>)
    /// A plan was loaded again after its data could not be followed.
    case planReloaded(String, Result<StoredPlan?, StoreError>)
    /// A snapshot encoded on a worker is ready.
    case snapshotEncoded(plan: String, version: Int, OutgoingBuffer)
    /// A log read for a resuming subscriber finished.
    case resumeLogRead(ConnectionID, plan: String, since: Int, ref: String?, Result<LogRead?, StoreError>)
    /// A log read to catch up with other processes finished.
    case catchUpLogRead(plan: String, Result<LogRead?, StoreError>)
    /// Log rows below a moved log start were deleted (how many), or could not be.
    case trimmedLogDeleted(plan: String, Result<Int, StoreError>)
    /// Another process committed (or notifications may have been missed: plan nil).
    case externalCommit(plan: String?, version: Int)
    /// A session used up its turn with requests still waiting: it goes on with them now.
    case continuePending(ConnectionID)
    /// Once per second: presence, idle plans.
    case tick
    /// SIGTERM: finish in-flight commits, close everyone with 1001.
    case shutdown
}
