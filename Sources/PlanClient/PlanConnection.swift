import ChronoSketchCore
import Glibc
import PlanProtocol
import Synchronization
import SystemSupport

/// One client of a plan server: says hello, keeps a confirmed copy of every subscribed plan
/// (applying `confirmed` in version order and resuming with `since` on a gap or a reconnect),
/// proposes with unique ids and re-sends unanswered proposals with the same ids after a
/// reconnect, so nothing is applied twice. It never applies anything optimistically.
///
/// Everything it hears is also delivered, in order, on `events`.
public final class PlanConnection: Sendable {
    /// What the connection reports.
    public enum Event: Sendable {
        /// Authenticated (again, after a reconnect).
        case welcome(session: String, user: String, limits: ProtocolLimits)
        /// Any server message, after the copies were updated with it.
        case message(ServerMessage)
        /// The connection dropped; `willReconnect` tells whether it tries again.
        case disconnected(code: UInt16?, reason: String, willReconnect: Bool)
    }

    /// Connection settings.
    public struct Options: Sendable {
        /// The server URL, ws://host:port/ws.
        public var url: String
        /// The secret token.
        public var token: String
        /// `hello.client`.
        public var clientName: String
        /// Reconnect with backoff after a drop.
        public var reconnect: Bool
        /// For wss://: accept self-signed certificates and any host name.
        public var trustAnyCertificate = false
        /// Liveness: ping after this many idle seconds, hang up (and reconnect) after
        /// `hangupSeconds` without an answer (a cut link, a frozen server).
        public var pingSeconds: UInt16 = 10
        /// See `pingSeconds`.
        public var hangupSeconds: UInt16 = 25

        /// Creates options.
        public init(url: String, token: String, clientName: String = "PlanClient/1", reconnect: Bool = true) {
            self.url = url
            self.token = token
            self.clientName = clientName
            self.reconnect = reconnect
        }
    }

    struct PendingProposal: Sendable {
        let id: String
        let plan: String
        let bytes: [UInt8]
    }

    struct State: Sendable {
        var connection: UInt64?
        var ready = false
        /// Counts welcomes: paced re-sends stop when a newer connection took over.
        var generation = 0
        var closedByUser = false
        var attempts = 0
        var copies: [String: ClientPlanCopy] = [:]
        var subscriptions: [String] = []
        var watches: [String: (plan: String, query: TimelineQuery)] = [:]
        var pending: [PendingProposal] = []
        var observer: (@Sendable (ServerMessage) -> Void)?
        var observerOnly = false
        /// Requests waiting for their answer, by ref (`PlanConnection+Requests.swift`).
        var requests: [String: PendingRequest] = [:]
    }

    /// The options it runs with.
    public let options: Options
    /// Everything heard, in order.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let transport: ClientTransport
    private let endpoint: ClientTransport.Endpoint
    let state = Locked(State())
    let idPrefix: String
    let counter = Atomic<Int>(0)

    /// Creates a connection on a shared transport; call `start()`.
    /// - Throws: `ClientError.badURL` for a URL that is not ws:// or wss://.
    public init(options: Options, transport: ClientTransport) throws(ClientError) {
        guard var endpoint = ClientTransport.Endpoint(url: options.url) else { throw .badURL(options.url) }
        endpoint.trustAnyCertificate = options.trustAnyCertificate
        endpoint.pingSeconds = options.pingSeconds
        endpoint.hangupSeconds = options.hangupSeconds
        self.options = options
        self.endpoint = endpoint
        self.transport = transport
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        var generator = SystemRandomNumberGenerator()
        idPrefix = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36)
    }

    /// Connects (and keeps reconnecting when the options say so).
    public func start() {
        connect()
    }

    /// Closes for good.
    public func close() {
        let connection = state.withLock { state -> UInt64? in
            state.closedByUser = true
            return state.connection
        }
        if let connection { transport.close(connection) }
    }

    /// The confirmed copy of a subscribed plan, once its snapshot arrived.
    public func copy(of plan: String) -> ClientPlanCopy? {
        state.withLock { $0.copies[plan] }
    }

    /// Whether hello was answered on the current connection.
    public var isReady: Bool { state.withLock { $0.ready } }

    /// Proposals sent and not yet answered.
    public var pendingProposalIDs: [String] { state.withLock { $0.pending.map(\.id) } }

    /// Calls `observer` with every server message as it arrives, on the transport's service
    /// thread (after the copies were updated, before the message is put on `events`): for
    /// measuring arrival times without the hop to a task. It must not block.
    ///
    /// With `exclusively`, messages go to the observer only and `events` carries just the
    /// `welcome` and `disconnected` events: a busy connection then wakes no task per message.
    public func observeMessages(exclusively: Bool = false, _ observer: @escaping @Sendable (ServerMessage) -> Void) {
        state.withLock { state in
            state.observer = observer
            state.observerOnly = exclusively
        }
    }

    /// Subscribes (kept across reconnects, resuming from the copy's version).
    public func subscribe(_ plan: String) {
        let bytes = state.withLock { state -> [UInt8]? in
            if !state.subscriptions.contains(plan) { state.subscriptions.append(plan) }
            guard state.ready else { return nil }
            return ClientMessage.subscribe(plan: plan, since: state.copies[plan]?.version).bytes
        }
        if let bytes { sendNow(bytes) }
    }

    /// Stops following a plan.
    public func unsubscribe(_ plan: String) {
        state.withLock { state in
            state.subscriptions.removeAll { $0 == plan }
            state.copies[plan] = nil
        }
        sendNow(ClientMessage.unsubscribe(plan: plan).bytes)
    }

    /// Watches a timeline query (kept across reconnects).
    public func watch(_ plan: String, query: TimelineQuery, id: String) {
        state.withLock { $0.watches[id] = (plan, query) }
        sendNow(ClientMessage.watch(plan: plan, query: query, watch: id).bytes)
    }

    /// Ends a watch.
    public func unwatch(_ id: String) {
        state.withLock { $0.watches[id] = nil }
        sendNow(ClientMessage.unwatch(watch: id).bytes)
    }

    /// A proposal id unique for this connection object.
    public func nextProposalID() -> String {
        "\(idPrefix)-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
    }

    /// Proposes an op against the copy's version (0 without a copy).
    /// - Returns: the proposal id; the answer arrives as `ack` or `rejected` on `events`.
    @discardableResult
    public func propose(_ operation: PlanOperation, plan: String, id: String? = nil, baseVersion: Int? = nil) -> String
    {
        let proposalID = id ?? nextProposalID()
        let bytes = state.withLock { state -> [UInt8]? in
            let base = baseVersion ?? state.copies[plan]?.version ?? 0
            let bytes = ClientMessage.propose(id: proposalID, plan: plan, baseVersion: base, operation: operation).bytes
            state.pending.append(PendingProposal(id: proposalID, plan: plan, bytes: bytes))
            return state.ready ? bytes : nil
        }
        if let bytes { sendNow(bytes) }
        return proposalID
    }

    /// Sends any request as it is (for tests of bad input, and one-off queries).
    public func sendRaw(_ bytes: [UInt8]) {
        sendNow(bytes)
    }

    func sendNow(_ bytes: [UInt8]) {
        guard let connection = state.withLock({ $0.connection }) else { return }
        transport.send(bytes, on: connection)
    }

    // MARK: Events from the transport (service thread)

    private func connect() {
        let id = transport.reserveConnectionID()
        state.withLock { $0.connection = id }
        transport.connect(id, to: endpoint) { [weak self] event in self?.handle(event) }
    }

    private func handle(_ event: ClientTransport.Event) {
        switch event {
        case .opened:
            sendNow(ClientMessage.hello(token: options.token, client: options.clientName).bytes)
        case .message(let bytes):
            guard let messages = try? ServerMessage.decodeFrame(bytes) else { return }
            for message in messages { receive(message) }
        case .closed(let code, let reason):
            let reconnect = state.withLock { state -> Bool in
                state.ready = false
                state.connection = nil
                state.attempts += 1
                // A refusal by policy (1008: an unknown or revoked token, a limit) is not retried
                // blindly: the same token gets the same answer (protocol.md §6).
                return options.reconnect && !state.closedByUser && code != 1008
            }
            continuation.yield(.disconnected(code: code, reason: reason, willReconnect: reconnect))
            if reconnect {
                scheduleReconnect()
            } else {
                failRequests(.closed(code: code, reason: reason))
                continuation.finish()
            }
        }
    }

    private func scheduleReconnect() {
        let attempts = state.withLock { $0.attempts }
        let delay = min(5_000, 100 * (1 << min(attempts, 6))) + Int.random(in: 0...100)
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(delay))
            guard let self, !self.state.withLock({ $0.closedByUser }) else { return }
            self.connect()
        }
    }

    /// Sends re-sent proposals `perSecond` at a time, one batch a second, while still connected.
    private func resendPaced(_ proposals: [[UInt8]], perSecond: Int, generation: Int) {
        Task { [weak self] in
            var rest = proposals[...]
            while !rest.isEmpty {
                try? await Task.sleep(for: .seconds(1))  // the pace itself, not a wait for an event
                guard let self,
                    self.state.withLock({ $0.ready && !$0.closedByUser && $0.generation == generation })
                else { return }
                for bytes in rest.prefix(perSecond) { self.sendNow(bytes) }
                rest = rest.dropFirst(perSecond)
            }
        }
    }

    private func receive(_ message: ServerMessage) {
        var resend: [[UInt8]] = []
        switch message {
        case .welcome(let session, let user, _, _, let limits, _):
            // Resume every subscription from its copy, restore watches, re-send unanswered proposals
            // at the pace the server accepts (a backlog sent at once after a long cut would be
            // answered with rateLimited beyond the limit).
            let pace = max(1, limits.maxProposalsPerSecond / 2)
            var later: [[UInt8]] = []
            var generation = 0
            resend = state.withLock { state in
                state.generation += 1
                generation = state.generation
                state.ready = true
                state.attempts = 0
                var bytes = state.subscriptions.map {
                    ClientMessage.subscribe(plan: $0, since: state.copies[$0]?.version).bytes
                }
                bytes += state.watches.map {
                    ClientMessage.watch(plan: $0.value.plan, query: $0.value.query, watch: $0.key).bytes
                }
                // Requests still unanswered go again (their answers do not change the plan).
                bytes += state.requests.values.map(\.bytes)
                let proposals = state.pending.map(\.bytes)
                bytes += proposals.prefix(pace)
                later = Array(proposals.dropFirst(pace))
                return bytes
            }
            if !later.isEmpty { resendPaced(later, perSecond: pace, generation: generation) }
            continuation.yield(.welcome(session: session, user: user, limits: limits))
        case .snapshot, .confirmed, .resumed, .role:
            guard let plan = message.plan else { break }
            let outcome = state.withLock { state -> CopyUpdate in
                if case .snapshot(let snapshot, _) = message {
                    // A fetched past version (§9.2) is an answer, not the subscription's copy.
                    if !snapshot.historical { state.copies[plan] = ClientPlanCopy(snapshot) }
                    return .applied
                }
                // Taken out of the dictionary while it changes, so it is not copied.
                guard var copy = state.copies.removeValue(forKey: plan) else { return .applied }
                defer { state.copies[plan] = copy }
                do throws(ClientPlanCopyError) {
                    try copy.apply(message)
                    return .applied
                } catch {
                    if error.isDuplicate { return .applied }
                    if case .inconsistent = error { return .startOver }
                    return .gap(resumeFrom: copy.version)
                }
            }
            switch outcome {
            case .applied: break
            // A gap: resume from what we hold (or start over after an inconsistency).
            case .gap(let version): resend.append(ClientMessage.subscribe(plan: plan, since: version).bytes)
            case .startOver: resend.append(ClientMessage.subscribe(plan: plan, since: nil).bytes)
            }
        case .ack(let id, _, _, _, _), .rejected(let id, _, _, _, _, _, _):
            state.withLock { $0.pending.removeAll { $0.id == id } }
        case .planError(_, _, let plan):
            // The role on the plan is gone: its subscription and watches ended and are not resumed.
            state.withLock { state in
                state.subscriptions.removeAll { $0 == plan }
                state.copies[plan] = nil
                state.watches = state.watches.filter { $0.value.plan != plan }
            }
        default:
            break
        }
        for bytes in resend { sendNow(bytes) }
        answerRequest(message)
        let (observer, only) = state.withLock { ($0.observer, $0.observerOnly) }
        observer?(message)
        if !only { continuation.yield(.message(message)) }
    }
}

/// What applying one `snapshot`, `confirmed` or `resumed` to a plan's copy came to.
enum CopyUpdate {
    /// Applied (or nothing to apply: a duplicate, a plan not held).
    case applied
    /// Versions are missing: subscribe again with `since` the version held.
    case gap(resumeFrom: Int)
    /// The copy cannot follow the stream: subscribe again from scratch, for a snapshot.
    case startOver
}
