import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer

/// One request of a session: a decoded message, or one that failed to decode (answered in turn).
enum Request {
    case message(ClientMessage)
    case invalid(ClientMessageError)

    /// The plan the request names, if it could be read.
    var plan: String? {
        switch self {
        case .message(let message): message.plan
        case .invalid(.rejected(_, let plan, _, _, _)): plan
        case .invalid: nil
        }
    }

    /// The request's `ref`, if it could be read.
    var ref: String? {
        switch self {
        case .message(let message): message.ref
        case .invalid(let error): error.ref
        }
    }
}

/// One WebSocket connection's protocol state, owned by the hub.
final class Session {
    enum State {
        /// Nothing but `hello` is accepted.
        case awaitingHello
        /// The token is being checked; later messages wait.
        case authenticating
        /// Authenticated as `user`.
        case ready(user: String)
        /// Being closed; nothing more is processed.
        case closing
    }

    let connection: ConnectionID
    let sessionID: String
    let address: String
    var state: State = .awaitingHello
    var client = ""
    /// The `ref` of the `hello`, echoed by the `welcome` (or the `error` refusing it).
    var helloRef: String?
    /// Roles known for plans. Kept up to date by the announcements of every change of access
    /// (`Hub+Access`), so a grant or revocation takes effect at once.
    var roles: [String: PlanRole] = [:]
    /// Plans checked and found without a role (kept up to date like `roles`; forgotten as a
    /// whole past `deniedLimit`, so naming many plans costs no memory).
    var denied: Set<String> = []
    /// The role last named to the session for each plan it subscribes to (by its `snapshot` or
    /// `resumed`, or a `role` event): a change is announced only when it differs.
    var announcedRoles: [String: PlanRole] = [:]
    /// The number of revocations the hub had seen when this session's token check started: a
    /// revocation announced after it refuses the token even if the check read it before.
    var authenticationEpoch = 0
    /// Whether the token check is under way (counted in `Hub.authenticating`).
    var checkingToken = false
    /// Requests waiting, in order, while an earlier one waits for the database (or the token
    /// check): answers always leave in the order the requests came.
    var pending = RequestQueue<Request>()
    /// Whether the first pending message is waiting for a lookup.
    var blocked = false
    /// Whether the session used up its turn (`TurnBudget`) and a `continuePending` event is
    /// queued to go on with `pending`; until it comes, new requests only join the queue.
    var awaitingTurn = false
    var subscriptions: Set<String> = []
    /// Watches by id: the plan and the query.
    var watches: [String: (plan: String, query: TimelineQuery)] = [:]
    var rateLimiter: RateLimiter

    init(
        connection: ConnectionID, sessionID: String, address: String, limits: ProtocolLimits,
        now: ContinuousClock.Instant
    ) {
        self.connection = connection
        self.sessionID = sessionID
        self.address = address
        rateLimiter = RateLimiter(perSecond: limits.maxProposalsPerSecond, now: now)
    }

    /// The plans this session touches: subscribed, watched, or named by the request it waits on.
    var plansInvolved: Set<String> {
        var plans = subscriptions
        for watch in watches.values { plans.insert(watch.plan) }
        if let plan = pending.first?.plan { plans.insert(plan) }
        return plans
    }

    static let deniedLimit = 1000

    /// Records what is now known of the user's role on `plan` (nil: none).
    func record(_ role: PlanRole?, on plan: String) {
        if let role {
            roles[plan] = role
            denied.remove(plan)
        } else {
            roles[plan] = nil
            if denied.count >= Session.deniedLimit { denied.removeAll() }
            denied.insert(plan)
        }
    }

    /// Whether the user's role on `plan` (or that it has none) is known.
    func knowsRole(on plan: String) -> Bool {
        roles[plan] != nil || denied.contains(plan)
    }

    /// The authenticated user, if any.
    var user: String? {
        if case .ready(let user) = state { return user }
        return nil
    }
}
