import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// The server's decisions about sessions and plans, as a state machine. It takes one ordered
/// stream of events (messages, database results, notifications, ticks), each with the time it
/// is handled at, and returns the actions it decides (`HubAction`); it performs none of them
/// and never blocks. `HubExecutor` runs the actions and feeds results back as events.
///
/// Sessions (authentication, a connection's request queue, roles) live here; each loaded plan
/// is a `PlanOwner` value, which judges, commits and fans out: the hub hands it events
/// (`handle(_:_:)`) and passes on the actions it returns.
final class Hub {
    /// Serving, or finishing in-flight commits before closing everyone.
    enum Lifecycle {
        case serving
        /// SIGTERM: no new proposals; once no commit is in flight, everyone is closed.
        case draining
        /// Everyone has been told to close.
        case stopped
    }

    let configuration: ServerConfiguration
    let serverName: String

    var sessions: [ConnectionID: Session] = [:]
    /// The plans in memory, each a value changed only through its events.
    var owners: [String: PlanOwner] = [:]
    /// Plans being loaded, with the sessions waiting for them.
    var loading: [String: Set<ConnectionID>] = [:]
    var lifecycle = Lifecycle.serving
    var nextSessionNumber = 0
    /// Authenticated sessions by user: for revocations, role changes and the per-user limit.
    var sessionsByUser: [String: Set<ConnectionID>] = [:]
    /// Revocations seen so far, and the count at which each user's tokens were last revoked: a
    /// token check that started before that is refused (`Session.authenticationEpoch`).
    var revocations = 0
    var revokedAt: [String: Int] = [:]
    /// Sessions whose token is being checked (`revokedAt` is forgotten when there are none).
    var authenticating = 0
    /// Connections in the order they opened, with when, until they said `hello`: the ones still
    /// silent after `helloTimeout` are closed by `closeSilentConnections`.
    var awaitingHello: [(connection: ConnectionID, opened: ContinuousClock.Instant)] = []
    /// The time of the event being handled.
    var now: ContinuousClock.Instant
    /// The latest reading of the system clock (`HubEvent.wallClock`); plans confirm with it.
    var wallClock: WallClock
    /// The actions decided by the event being handled.
    private var actions: [HubAction] = []

    /// A hub that starts at `now` (the time of its creation, given like every event's).
    init(configuration: ServerConfiguration, now: ContinuousClock.Instant) {
        self.configuration = configuration
        self.now = now
        wallClock = WallClock(anchor: now, unixSeconds: 0)
        serverName = "plan-server/1 (\(configuration.instanceName))"
    }

    /// Handles one event at `now`; returns what to do, in order.
    func handle(_ event: HubEvent, now: ContinuousClock.Instant) -> [HubAction] {
        self.now = now
        switch event {
        case .transport(let transportEvent): handleTransport(transportEvent)
        case .authenticated(let connection, let result): finishAuthentication(connection, result)
        case .roleLoaded(let connection, let plan, let result): finishRoleLookup(connection, plan: plan, result)
        case .planLoaded(let plan, let result): finishPlanLoad(plan, result)
        case .continuePending(let connection): continuePending(connection)
        case .plansListed(let connection, let ref, let result): finishListing(connection, ref: ref, result)
        case .grantDecided(let connection, let request, let result): finishGrant(connection, request, result)
        case .feedAnswered(let connection, let request, let result): finishFeed(connection, request, result)
        case .accessChanged(let change): applyAccessChange(change)
        case .accessChecked(let keys, let result): finishAccessCheck(keys, result)
        case .tick: tick()
        case .shutdown: beginShutdown()
        case .answerReady(let connection, let buffer):
            if sessions[connection] != nil { emit(.send(buffer, to: connection)) }
        case .undoSourceRead(let plan, let version, let result):
            handle(plan, .undoSourceRead(version: version, result))
        case .checkpointWritten(let plan, let version, .failure(let error)):
            warn("checkpoint of \(plan) at version \(version) not written (fetch replays from an older one): \(error)")
        case .checkpointWritten: break
        case .wallClock(let reading):
            wallClock = reading
            for plan in Array(owners.keys) { handle(plan, .wallClock(reading)) }
        case .committed(let plan, let result):
            handle(plan, .committed(result))
            finishShutdownIfDone()
        case .decisionsLoaded(let plan, let result): handle(plan, .decisionsLoaded(result))
        case .planReloaded(let plan, let result): handle(plan, .reloaded(result))
        case .trimmedLogDeleted(let plan, let result): handle(plan, .trimmedLogDeleted(result))
        case .logRead(let plan, _, .catchUp, let result): handle(plan, .caughtUp(result))
        case .logRead(let plan, let since, .resume(let connection, let ref), let result):
            finishResume(connection, plan: plan, since: since, ref: ref, result)
        case .snapshotEncoded(let plan, let version, let buffer):
            finishSnapshotEncoding(plan, version: version, buffer)
        case .scheduleComputed(let plan, let version, let figures):
            handle(plan, .scheduleComputed(version: version, figures))
        case .judgedOffHub(let plan, let epoch, let version, let state, let step):
            handle(plan, .judgedOffHub(epoch: epoch, version: version, state: state, step))
        case .externalCommit(let plan?, let version): handle(plan, .notified(version))
        case .externalCommit(nil, _):
            // The keys copied first: iterating `owners` while an owner changes would copy them all.
            for plan in Array(owners.keys) { handle(plan, .notified(.max)) }
        }
        defer {
            actions = []
            bytesQueued = 0
        }
        return actions
    }

    /// Hands an event to the owner of `plan`, if it is loaded, and passes on what it decides;
    /// returns whether the plan is loaded.
    @discardableResult
    func handle(_ plan: String, _ event: PlanOwner.Event) -> Bool {
        // Changed in place: a copy of the owner alive meanwhile would copy every array it holds.
        guard let index = owners.index(forKey: plan) else { return false }
        emit(owners.values[index].handle(event, now: now))
        return true
    }

    // MARK: Emitting actions

    /// The bytes queued to connections by the actions of the event being handled so far.
    private(set) var bytesQueued = 0

    func emit(_ action: HubAction) {
        actions.append(action)
        switch action {
        case .send(let buffer, _), .broadcast(let buffer, _): bytesQueued += buffer.count
        default: break
        }
    }

    func emit(_ more: [HubAction]?) {
        for action in more ?? [] { emit(action) }
    }

    func send(_ message: ServerMessage, to connection: ConnectionID) {
        emit(.send(OutgoingBuffer(message.bytes), to: connection))
    }

    func close(_ connection: ConnectionID, _ code: CloseCode, _ reason: String) {
        emit(.close(connection, code, reason: reason))
    }

    func log(_ text: String) { emit(.log(.info, text)) }

    func warn(_ text: String) { emit(.log(.warning, text)) }

    // MARK: Ticks and shutdown

    /// Once per second: coalesced presence, silent connections closed, idle plans leave memory.
    private func tick() {
        for plan in Array(owners.keys) { handle(plan, .tick) }
        closeSilentConnections()
        if authenticating == 0 { revokedAt = [:] }
        let idle = owners.compactMap { id, owner in
            owner.isIdle && now - owner.lastUsed > configuration.idlePlanLifetime ? id : nil
        }
        for id in idle {
            owners[id] = nil
            emit(.measure(.loadedPlans(delta: -1)))
            log("plan \(id) left memory (idle)")
        }
        finishShutdownIfDone()
    }

    private func beginShutdown() {
        guard case .serving = lifecycle else { return }
        lifecycle = .draining
        log("shutting down: finishing in-flight commits")
        finishShutdownIfDone()
    }

    /// Once no commit is in flight or queued, everyone is closed with 1001.
    private func finishShutdownIfDone() {
        guard case .draining = lifecycle else { return }
        for owner in owners.values where owner.hasUncommittedWork { return }
        lifecycle = .stopped
        emit(.finishShutdown)
    }
}
