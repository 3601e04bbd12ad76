import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer

/// Access while sessions are open: `plans`, an owner's `grant`, and the announcements of every
/// change of access (`PlanListener`), which every process applies to its open sessions at once:
/// a role lost ends the plan's subscriptions and watches, a role changed is used from the next
/// request on, revoked tokens end the user's sessions.
extension Hub {
    /// `plans`, `grant` and `feed`: each waits for the database (false: the request stays first in the
    /// session's queue until its answer is sent).
    func requestAccess(_ message: ClientMessage, session: Session) -> Bool {
        guard let user = session.user else { return true }
        switch message {
        case .plans(let ref):
            emit(.run(.listPlans(session.connection, user: user, ref: ref)))
        case .grant(let plan, let grantee, let role, let ref):
            let request = GrantRequest(plan: plan, user: grantee, role: role, ref: ref)
            emit(.run(.grant(session.connection, granter: user, request)))
        case .feed(let plan, let revoke, let ref):
            emit(.run(.feedKey(session.connection, user: user, FeedRequest(plan: plan, revoke: revoke, ref: ref))))
        default:
            return true
        }
        return false
    }

    /// The plans were read: the answer goes out and the session's next requests go on.
    func finishListing(_ connection: ConnectionID, ref: String?, _ result: Result<[PlanListing], StoreError>) {
        guard let session = sessions[connection] else { return }
        switch result {
        case .success(let listings):
            send(.plans(listings, ref: ref), to: connection)
        case .failure(let error):
            return answerUnavailable(session, error)
        }
        finishWaitingRequest(session)
    }

    /// A grant was judged: `granted`, or the `error` the contract names (`lastOwner` is
    /// `forbidden`: the contract names no code of its own for it).
    func finishGrant(_ connection: ConnectionID, _ request: GrantRequest, _ result: Result<GrantOutcome, StoreError>) {
        guard let session = sessions[connection] else { return }
        let plan = request.plan
        let answer: ServerMessage
        switch result {
        case .success(.granted):
            answer = .granted(plan: plan, user: request.user, role: request.role, ref: request.ref)
            let role = request.role?.rawValue ?? "none"
            log("\(session.user ?? "-") set the role of \(request.user) on \(plan) to \(role)")
        case .success(.unknownPlan):
            answer = .error(code: .unknownPlan, message: "no plan \"\(plan)\" is visible to you", ref: request.ref)
        case .success(.forbidden):
            answer = .error(
                code: .forbidden, message: "only an owner of \"\(plan)\" may grant roles", ref: request.ref)
        case .success(.unknownUser):
            answer = .error(code: .unknownUser, message: "there is no user \"\(request.user)\"", ref: request.ref)
        case .success(.lastOwner):
            answer = .error(
                code: .forbidden,
                message: "\"\(request.user)\" is the last owner of \"\(plan)\"; make someone else owner first",
                ref: request.ref)
        case .failure(let error):
            return answerUnavailable(session, error)
        }
        send(answer, to: connection)
        finishWaitingRequest(session)
    }

    /// A feed key was made, read again or revoked: its path (or `revoked`), or `unknownPlan`
    /// for a plan the user has no role on (plan names do not leak).
    func finishFeed(_ connection: ConnectionID, _ request: FeedRequest, _ result: Result<String?, StoreError>) {
        guard let session = sessions[connection] else { return }
        switch result {
        case .success(let key?):
            let path = PlanPaths.feed(plan: request.plan, key: key)
            send(.feed(plan: request.plan, path: path, ref: request.ref), to: connection)
        case .success(nil) where request.revoke:
            log("\(session.user ?? "-") revoked the feed key of \(request.plan)")
            send(.feed(plan: request.plan, path: nil, ref: request.ref), to: connection)
        case .success(nil):
            send(
                .error(code: .unknownPlan, message: "no plan \"\(request.plan)\" is visible to you", ref: request.ref),
                to: connection)
        case .failure(let error):
            return answerUnavailable(session, error)
        }
        finishWaitingRequest(session)
    }

    /// The request a session waited on is answered: it leaves the queue, the next ones go on.
    private func finishWaitingRequest(_ session: Session) {
        if !session.pending.isEmpty { session.pending.removeFirst() }
        processPending(session)
    }

    // MARK: Announcements

    func applyAccessChange(_ change: AccessChange) {
        switch change {
        case .role(let plan, let user, let role):
            for connection in sessionsByUser[user] ?? [] {
                if let session = sessions[connection] { apply(role, on: plan, to: session) }
            }
        case .tokensRevoked(let user):
            revocations += 1
            revokedAt[user] = revocations
            endSessions(of: user)
        case .resynchronize:
            resynchronizeAccess()
        }
    }

    /// The user's role on `plan` is now `role`. With none left, the session's subscription and
    /// watches of the plan end with one `error` `forbidden` carrying `plan`; a changed role moves
    /// the session in the plan's presence (editors first).
    func apply(_ role: PlanRole?, on plan: String, to session: Session) {
        let before = session.roles[plan]
        session.record(role, on: plan)
        guard owners.index(forKey: plan) != nil else { return }
        guard let role else { return endAccess(to: plan, for: session) }
        guard session.subscriptions.contains(plan) else { return }
        if before != role { handle(plan, .roleChanged(member(session, of: plan))) }
        announceRole(on: plan, to: session)
    }

    /// Tells a subscribed session its role on `plan` with a `role` event when it differs from the
    /// one its snapshot, `resumed` or last `role` event named (protocol.md §11); a role that
    /// changed while its snapshot was being made is told right after it.
    func announceRole(on plan: String, to session: Session) {
        guard session.subscriptions.contains(plan), let role = session.roles[plan],
            session.announcedRoles[plan] != role
        else { return }
        session.announcedRoles[plan] = role
        send(.role(plan: plan, role: role), to: session.connection)
    }

    /// Ends a session's subscription and watches of a plan it may no longer see, with one
    /// `error` `forbidden` carrying the plan (nothing when it had neither).
    func endAccess(to plan: String, for session: Session) {
        let watchIDs = session.watches.filter { $0.value.plan == plan }.map(\.key)
        let subscribed = session.subscriptions.remove(plan) != nil
        guard subscribed || !watchIDs.isEmpty else { return }
        for watch in watchIDs { session.watches[watch] = nil }
        handle(plan, .unsubscribe(session.connection))
        handle(plan, .unwatch(watchIDs, of: session.connection))
        send(
            .planError(
                code: .forbidden,
                message: "you no longer have a role on \"\(plan)\": its subscription and watches ended", plan: plan),
            to: session.connection)
        log("connection \(session.connection) lost its role on \(plan)")
    }

    /// Closes every session of `user` with 1008: its tokens were revoked.
    private func endSessions(of user: String) {
        for connection in sessionsByUser[user] ?? [] {
            guard let session = sessions[connection] else { continue }
            if case .closing = session.state { continue }
            session.state = .closing
            send(.error(code: .unauthenticated, message: "the token was revoked"), to: connection)
            close(connection, .policyViolation, "the token was revoked")
        }
        log("tokens of \(user) revoked: its sessions are closed")
    }

    /// Announcements may have been missed: every session forgets the roles it knew and the ones
    /// it relies on now (the plans it subscribes to, watches, or waits on) are read again, with
    /// whether each user still has a token.
    private func resynchronizeAccess() {
        var keys: Set<AccessKey> = []
        var users: Set<String> = []
        for session in sessions.values {
            guard let user = session.user else { continue }
            users.insert(user)
            session.roles = [:]
            session.denied = []
            for plan in session.plansInvolved { keys.insert(AccessKey(user: user, plan: plan)) }
        }
        guard !users.isEmpty else { return }
        let ordered = Array(keys)
        emit(.run(.checkAccess(ordered, users: Array(users))))
    }

    /// Roles and tokens read again: each applies unless an announcement came meanwhile (it is
    /// newer); sessions of users without a token left end.
    func finishAccessCheck(_ keys: [AccessKey], _ result: Result<CheckedAccess, StoreError>) {
        guard case .success(let checked) = result else {
            if case .failure(let error) = result { warn("access could not be checked again: \(error)") }
            return
        }
        for (key, role) in zip(keys, checked.roles) {
            for connection in sessionsByUser[key.user] ?? [] {
                guard let session = sessions[connection], !session.knowsRole(on: key.plan) else { continue }
                apply(role, on: key.plan, to: session)
            }
        }
        for user in checked.users where !checked.usersWithTokens.contains(user) {
            endSessions(of: user)
        }
    }
}
