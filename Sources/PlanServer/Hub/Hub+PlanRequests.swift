import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketWire

/// The requests on a plan, once the user's role is known and the plan is in memory: the session
/// side here (rate limits, the session's subscriptions and watches), the plan side in `PlanOwner`.
extension Hub {
    /// `propose` (or a malformed proposal whose id and plan could be read): a decided id is
    /// answered again, the rate checked, then the owner queues it.
    func propose(
        _ owner: PlanOwner, role: PlanRole, id: String, baseVersion: Int?, verdict: QueuedProposal.Verdict,
        ref: String?, session: Session
    ) {
        guard let user = session.user else { return }
        let origin = ProposalOrigin(connection: session.connection, user: user, proposalID: id, ref: ref)
        if let answered = owner.answerIfKnown(origin) { return emit(answered) }
        guard session.rateLimiter.allow(now: now) else {
            let limit = configuration.limits.maxProposalsPerSecond
            return emit(
                owner.refuse(
                    origin, .rateLimited, "more than \(limit) proposals per second; retry with the same id"))
        }
        guard case .serving = lifecycle else {
            return emit(owner.refuse(origin, .unavailable, "the server is shutting down; retry with the same id"))
        }
        emit(owner.propose(origin, role: role, baseVersion: baseVersion, verdict: verdict, now: now))
    }

    /// `subscribe`; false when a worker job must finish first (the request stays first in the
    /// session's queue until then).
    func subscribe(_ owner: PlanOwner, since: Int?, ref: String?, session: Session) -> Bool {
        let (actions, subscribing) = owner.subscribe(member(session, of: owner.id), since: since, ref: ref)
        emit(actions)
        guard case .joined = subscribing else { return false }
        session.subscriptions.insert(owner.id)
        return true
    }

    /// How `session` is listed in the presence of `plan`.
    func member(_ session: Session, of plan: String) -> PresenceRoster.Member {
        PresenceRoster.Member(
            connection: session.connection, rank: (session.roles[plan] ?? .viewer) >= .editor ? 0 : 1,
            entry: PresenceSession(session: session.sessionID, user: session.user ?? "", client: session.client))
    }

    /// A resuming subscriber's log read finished: it is subscribed, and its next requests go on.
    func finishResume(
        _ connection: ConnectionID, plan: String, since: Int, ref: String?, _ result: Result<LogRead?, StoreError>
    ) {
        guard let session = sessions[connection] else { return }
        defer { processPending(session) }
        // This request is done either way: take it off the queue before going on.
        if !session.pending.isEmpty { session.pending.removeFirst() }
        guard let owner = owner(plan) else { return }
        emit(owner.resumeRead(member(session, of: plan), since: since, ref: ref, result))
        session.subscriptions.insert(plan)
        // The role was lost while the log was read.
        if session.denied.contains(plan) { endAccess(to: owner, for: session) }
    }

    /// A snapshot encoded on a worker went out: those waiting for it are subscribed and go on.
    func finishSnapshotEncoding(_ plan: String, version: Int, _ buffer: OutgoingBuffer) {
        guard let owner = owner(plan) else { return }
        let (actions, joined) = owner.snapshotEncoded(version: version, buffer)
        emit(actions)
        for connection in joined {
            guard let session = sessions[connection] else { continue }
            session.subscriptions.insert(plan)
            // The role was lost while the snapshot was encoded.
            if session.denied.contains(plan) { endAccess(to: owner, for: session) }
            if !session.pending.isEmpty { session.pending.removeFirst() }
            processPending(session)
        }
    }

    func unsubscribe(_ plan: String, ref: String?, session: Session) {
        guard session.subscriptions.remove(plan) != nil else {
            send(
                .error(code: .notSubscribed, message: "not subscribed to \"\(plan)\"", ref: ref), to: session.connection
            )
            return
        }
        emit(owner(plan)?.unsubscribe(session.connection))
    }

    /// `query` (watch nil) or `watch`: one page now; a watch also registers for fresh pages, up
    /// to `maxWatchesPerConnection` per connection.
    func answerQuery(_ owner: PlanOwner, query: TimelineQuery, watch: String?, ref: String?, session: Session) {
        if let problem = owner.problem(with: query) {
            send(.error(code: .badQuery, message: problem, ref: ref), to: session.connection)
            return
        }
        if let watch {
            if let previous = session.watches[watch] {
                // Re-sending a watch id replaces that watch (and does not count as another).
                self.owner(previous.plan)?.removeWatches([watch], of: session.connection)
            } else if session.watches.count >= configuration.limits.maxWatchesPerConnection {
                let limit = configuration.limits.maxWatchesPerConnection
                send(
                    .error(
                        code: .tooLarge,
                        message: "this connection holds \(limit) watches, the most it may (maxWatchesPerConnection); "
                            + "unwatch one first", ref: ref), to: session.connection)
                return
            }
            session.watches[watch] = (owner.id, query)
        }
        emit(owner.page(query, watch: watch, ref: ref, for: session.connection, now: now))
    }

    func unwatch(_ watch: String, ref: String?, session: Session) {
        guard let registered = session.watches.removeValue(forKey: watch) else {
            send(.error(code: .notSubscribed, message: "no watch \"\(watch)\"", ref: ref), to: session.connection)
            return
        }
        owner(registered.plan)?.removeWatches([watch], of: session.connection)
    }
}
