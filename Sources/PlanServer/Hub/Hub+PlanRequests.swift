import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// The requests on a plan, once the user's role is known and the plan is in memory: the session
/// side here (rate limits, the session's subscriptions and watches), the plan side in `PlanOwner`.
extension Hub {
    /// `propose` (or a malformed proposal whose id and plan could be read): a decided id is
    /// answered again, the rate checked, then the owner queues it.
    func propose(
        _ plan: String, role: PlanRole, id: String, baseVersion: Int?, verdict: QueuedProposal.Verdict,
        ref: String?, session: Session
    ) {
        // No copy of the owner is bound here: a copy alive while `handle` changes the owner would
        // make every array it holds be copied (the undo ring, the recent messages) once per event.
        guard let user = session.user, owners.index(forKey: plan) != nil else { return }
        let origin = ProposalOrigin(connection: session.connection, user: user, proposalID: id, ref: ref, role: role)
        let proposal = PlanOwner.Event.proposal(origin, role: role, baseVersion: baseVersion, verdict: verdict)
        // A re-send is answered from memory, whatever the rate.
        if owners[plan]?.knows(origin.key) == true {
            handle(plan, proposal)
            return
        }
        guard session.rateLimiter.allow(now: now) else {
            let limit = configuration.limits.maxProposalsPerSecond
            handle(
                plan, .refusal(origin, .rateLimited, "more than \(limit) proposals per second; retry with the same id"))
            return
        }
        guard case .serving = lifecycle else {
            handle(plan, .refusal(origin, .unavailable, "the server is shutting down; retry with the same id"))
            return
        }
        handle(plan, proposal)
    }

    /// `subscribe`; false when a worker job must finish first (the request stays first in the
    /// session's queue until then).
    func subscribe(_ plan: String, since: Int?, ref: String?, session: Session) -> Bool {
        let member = member(session, of: plan)
        // The role the snapshot or `resumed` will name, whenever it goes out.
        session.announcedRoles[plan] = member.role
        handle(plan, .subscribe(member, since: since, ref: ref))
        guard owners[plan]?.isSubscribed(session.connection) == true else { return false }
        session.subscriptions.insert(plan)
        return true
    }

    /// How `session` is listed in the presence of `plan`.
    func member(_ session: Session, of plan: String) -> PresenceRoster.Member {
        PresenceRoster.Member(
            connection: session.connection, role: session.roles[plan] ?? .viewer,
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
        guard handle(plan, .resumeRead(member(session, of: plan), since: since, ref: ref, result)) else { return }
        session.subscriptions.insert(plan)
        // The role was lost, or changed, while the log was read.
        if session.denied.contains(plan) {
            endAccess(to: plan, for: session)
        } else {
            announceRole(on: plan, to: session)
        }
    }

    /// A snapshot encoded on a worker went out: those waiting for it are subscribed and go on.
    func finishSnapshotEncoding(_ plan: String, version: Int, _ buffer: OutgoingBuffer) {
        let waiting = owners[plan]?.waitingForSnapshot(version) ?? []
        guard handle(plan, .snapshotEncoded(version: version, buffer)) else { return }
        for connection in waiting where owners[plan]?.isSubscribed(connection) == true {
            guard let session = sessions[connection] else { continue }
            session.subscriptions.insert(plan)
            // The role was lost, or changed, while the snapshot was encoded.
            if session.denied.contains(plan) {
                endAccess(to: plan, for: session)
            } else {
                announceRole(on: plan, to: session)
            }
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
        handle(plan, .unsubscribe(session.connection))
    }

    /// `query` (watch nil) or `watch`: one page now; a watch also registers for fresh pages, up
    /// to `maxWatchesPerConnection` per connection.
    func answerQuery(_ plan: String, query: TimelineQuery, watch: String?, ref: String?, session: Session) {
        guard owners.index(forKey: plan) != nil else { return }
        if let problem = owners[plan]?.problem(with: query) {
            send(.error(code: .badQuery, message: problem, ref: ref), to: session.connection)
            return
        }
        if let watch {
            if let previous = session.watches[watch] {
                // Re-sending a watch id replaces that watch (and does not count as another).
                handle(previous.plan, .unwatch([watch], of: session.connection))
            } else if session.watches.count >= configuration.limits.maxWatchesPerConnection {
                let limit = configuration.limits.maxWatchesPerConnection
                send(
                    .error(
                        code: .tooLarge,
                        message: "this connection holds \(limit) watches, the most it may (maxWatchesPerConnection); "
                            + "unwatch one first", ref: ref), to: session.connection)
                return
            }
            session.watches[watch] = (plan, query)
        }
        handle(plan, .query(query, watch: watch, ref: ref, for: session.connection))
    }

    func unwatch(_ watch: String, ref: String?, session: Session) {
        guard let registered = session.watches.removeValue(forKey: watch) else {
            send(.error(code: .notSubscribed, message: "no watch \"\(watch)\"", ref: ref), to: session.connection)
            return
        }
        handle(registered.plan, .unwatch([watch], of: session.connection))
    }
}
