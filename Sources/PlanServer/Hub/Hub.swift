import ChronoSketchCore
import PlanProtocol
import PlanStore

/// The server's single owner of sessions and plans: it consumes one ordered stream of events
/// (messages, database results, notifications, ticks) and never blocks. Per plan, proposals are
/// judged one at a time against the candidate data and committed in groups on a worker thread;
/// after COMMIT each `confirmed` is encoded once and the same bytes are queued to every subscriber.
///
/// All state lives on the task that runs `run()`; other threads only post events.
final class Hub {
    let configuration: ServerConfiguration
    let store: PlanStore
    let transport: WebSocketTransport
    let workers: BlockingWorkers
    let metrics: Metrics
    let log: ServerLog
    let events: AsyncStream<HubEvent>.Continuation
    let serverName: String

    var sessions: [ConnectionID: Session] = [:]
    var plans: [String: PlanRuntime] = [:]
    /// Plans being loaded, with the sessions waiting for them.
    var loading: [String: Set<ConnectionID>] = [:]
    var shuttingDown = false
    var shutdownFinished: (@Sendable () -> Void)?
    var nextSessionNumber = 0
    /// Connections in the order they opened, with when, until they said `hello`: the ones still
    /// silent after `helloTimeout` are closed by `closeSilentConnections`.
    var awaitingHello: [(connection: ConnectionID, opened: ContinuousClock.Instant)] = []

    init(
        configuration: ServerConfiguration, store: PlanStore, transport: WebSocketTransport, workers: BlockingWorkers,
        metrics: Metrics, log: ServerLog, events: AsyncStream<HubEvent>.Continuation
    ) {
        self.configuration = configuration
        self.store = store
        self.transport = transport
        self.workers = workers
        self.metrics = metrics
        self.log = log
        self.events = events
        serverName = "plan-server/1 (\(configuration.instanceName))"
    }

    /// Processes events until the stream ends.
    func run(_ stream: AsyncStream<HubEvent>) async {
        for await event in stream {
            handle(event)
        }
    }

    func handle(_ event: HubEvent) {
        switch event {
        case .transport(let transportEvent): handleTransport(transportEvent)
        case .authenticated(let connection, let result): finishAuthentication(connection, result)
        case .roleLoaded(let connection, let plan, let result): finishRoleLookup(connection, plan: plan, result)
        case .planLoaded(let plan, let result): finishPlanLoad(plan, result)
        case .planReloaded(let plan, let result): finishReload(plan, result)
        case .snapshotEncoded(let plan, let version, let buffer):
            finishSnapshotEncoding(plan, version: version, buffer)
        case .committed(let plan, let started, let logStart, let result):
            finishCommit(plan, started: started, logStart: logStart, result)
        case .decisionsLoaded(let plan, let result): finishDecisionLookup(plan, result)
        case .resumeLogRead(let connection, let plan, let since, let ref, let result):
            finishResume(connection, plan: plan, since: since, ref: ref, result)
        case .catchUpLogRead(let plan, let result): finishCatchUp(plan, result)
        case .trimmedLogDeleted(let plan, let result): finishTrimmedLogDeletion(plan, result)
        case .externalCommit(let plan, let version): noteExternalCommit(plan: plan, version: version)
        case .continuePending(let connection): continuePending(connection)
        case .tick: tick()
        case .shutdown: beginShutdown()
        }
    }

    // MARK: Connections

    private func handleTransport(_ event: TransportEvent) {
        switch event {
        case .opened(let connection, let address):
            nextSessionNumber += 1
            let sessionID = "\(configuration.instanceName)-\(nextSessionNumber)"
            sessions[connection] = Session(
                connection: connection, sessionID: sessionID, address: address, limits: configuration.limits)
            metrics.connections.wrappingAdd(1, ordering: .relaxed)
            awaitingHello.append((connection, .now))
            log.info("connection \(connection) opened from \(address) session \(sessionID)")
            if shuttingDown { transport.close(connection, code: .goingAway, reason: "server shutting down") }
        case .message(let connection, let bytes):
            transport.messageTaken()
            receive(bytes, from: connection)
        case .binaryMessage(let connection):
            transport.messageTaken()
            guard let session = sessions[connection] else { return }
            if case .awaitingHello = session.state {
                refuseUnauthenticated(session, "send hello first")
                return
            }
            send(.error(code: .badMessage, message: "binary frames are not supported; send JSON text"), to: connection)
        case .closed(let connection, let code, let reason):
            guard let session = sessions.removeValue(forKey: connection) else { return }
            metrics.connections.wrappingAdd(-1, ordering: .relaxed)
            for plan in session.subscriptions {
                plans[plan]?.subscribers.remove(connection)
                plans[plan]?.presence.remove(connection)
                plans[plan]?.presenceChanged()
                metrics.subscriptions.wrappingAdd(-1, ordering: .relaxed)
            }
            for (id, watch) in session.watches {
                plans[watch.plan]?.watches.remove(WatchKey(connection: connection, watch: id))
            }
            let how = code.map { " with \($0.rawValue) (\(reason ?? ""))" } ?? ""
            log.info(
                "connection \(connection) closed\(how) (user \(session.user ?? "-"), session \(session.sessionID))")
        }
    }

    private func receive(_ bytes: [UInt8], from connection: ConnectionID) {
        guard let session = sessions[connection] else { return }
        if case .closing = session.state { return }
        let request: Request
        do {
            request = .message(try ClientMessage.decode(bytes, limits: configuration.limits))
        } catch {
            if case .awaitingHello = session.state {
                // Not a readable hello (or a hello with a token that cannot be one): say why.
                refuseUnauthenticated(session, "send hello first (\(error.message))")
                return
            }
            if let close = error.closeCode {
                session.state = .closing
                log.info("connection \(connection) closed with \(close.rawValue): \(error.message)")
                transport.close(connection, code: close, reason: error.message)
                return
            }
            request = .invalid(error)
        }
        switch session.state {
        case .awaitingHello:
            guard case .message(.hello(let token, let client, let ref)) = request else {
                refuseUnauthenticated(session, "send hello first")
                return
            }
            session.client = String(client.unicodeScalars.prefix(128))
            session.helloRef = ref
            session.state = .authenticating
            let store = self.store
            let events = self.events
            workers.submit {
                events.yield(
                    .authenticated(connection, Result { () throws(StoreError) in try store.authenticate(token: token) })
                )
            }
        case .authenticating, .ready:
            session.pending.append(request)
            if !session.blocked && !session.awaitingTurn { processPending(session) }
        case .closing:
            return
        }
    }

    /// Closes with 1008 every connection that opened more than `helloTimeout` ago and has not
    /// sent `hello` (a slow or idle peer must not hold a connection without authenticating).
    /// Costs what expired: connections are kept in the order they opened.
    func closeSilentConnections(now: ContinuousClock.Instant) {
        var expired = 0
        for (connection, opened) in awaitingHello {
            guard now - opened >= configuration.helloTimeout else { break }
            expired += 1
            guard let session = sessions[connection], case .awaitingHello = session.state else { continue }
            let seconds = configuration.helloTimeout.components.seconds
            refuseUnauthenticated(session, "no hello within \(seconds) s")
        }
        awaitingHello.removeFirst(expired)
    }

    private func refuseUnauthenticated(_ session: Session, _ reason: String) {
        session.state = .closing
        send(.error(code: .unauthenticated, message: reason, ref: session.helloRef), to: session.connection)
        transport.close(session.connection, code: .policyViolation, reason: reason)
        log.info("connection \(session.connection) refused: \(reason)")
    }

    private func finishAuthentication(_ connection: ConnectionID, _ result: Result<String?, StoreError>) {
        guard let session = sessions[connection] else { return }
        switch result {
        case .success(let user?):
            session.state = .ready(user: user)
            send(
                .welcome(
                    session: session.sessionID, user: user, server: serverName, limits: configuration.limits,
                    ref: session.helloRef),
                to: connection)
            log.info("connection \(connection) authenticated as \(user) (client \(session.client))")
            processPending(session)
        case .success(nil):
            refuseUnauthenticated(session, "unknown token")
        case .failure(let error):
            session.state = .closing
            log.warning("connection \(connection): cannot check the token: \(error)")
            transport.close(connection, code: .tryAgainLater, reason: "database unavailable, try again")
        }
    }

    // MARK: Sending

    /// Encodes once and queues to one connection.
    func send(_ message: ServerMessage, to connection: ConnectionID) {
        transport.send(OutgoingBuffer(message.bytes), to: connection)
    }

    /// Encodes once and queues the same bytes to many connections, as a broadcast.
    func broadcast(_ message: ServerMessage, to connections: some Sequence<ConnectionID>) {
        broadcast(OutgoingBuffer(message.bytes), to: Array(connections))
    }

    /// Queues the same bytes to many connections; large audiences share frames (see
    /// `ServerConfiguration.coalescingAudience`).
    func broadcast(_ buffer: OutgoingBuffer, to recipients: [ConnectionID]) {
        guard !recipients.isEmpty else { return }
        transport.broadcast(buffer, to: recipients, coalesce: recipients.count > configuration.coalescingAudience)
    }
}
