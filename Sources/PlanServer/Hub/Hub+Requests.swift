import ChronoSketchCore
import PlanProtocol
import PlanStore

extension Hub {
    /// What handling a request needs before it can go on.
    enum Readiness {
        case ready(PlanRole, PlanRuntime)
        case waiting
        case answered
    }

    /// Handles a session's waiting messages in order until one has to wait for the database.
    func processPending(_ session: Session) {
        session.blocked = false
        while !session.pending.isEmpty {
            guard session.user != nil else { return }
            if case .closing = session.state { return }
            let message = session.pending[0]
            if !handleRequest(message, session: session) {
                session.blocked = true
                return
            }
            session.pending.removeFirst()
        }
    }

    /// Handles one request; false when it must wait (it stays first in the queue).
    private func handleRequest(_ message: ClientMessage, session: Session) -> Bool {
        switch message {
        case .hello(_, _, let ref):
            send(.error(code: .badMessage, message: "already authenticated", ref: ref), to: session.connection)
            return true
        case .unwatch(let watch, let ref):
            unwatch(watch, ref: ref, session: session)
            return true
        case .unsubscribe(let plan, let ref):
            unsubscribe(plan, ref: ref, session: session)
            return true
        default:
            break
        }
        guard let planID = message.plan else { return true }
        switch readiness(of: planID, for: message, session: session) {
        case .waiting: return false
        case .answered: return true
        case .ready(let role, let runtime):
            runtime.lastUsed = .now
            switch message {
            case .subscribe(_, let since, let ref):
                return subscribe(runtime, since: since, ref: ref, session: session)
            case .query(_, let query, let ref):
                answerQuery(runtime, query: query, watch: nil, ref: ref, session: session)
            case .watch(_, let query, let watch, let ref):
                answerQuery(runtime, query: query, watch: watch, ref: ref, session: session)
            case .propose(let id, _, let baseVersion, let operation, let ref):
                propose(
                    runtime, role: role, id: id, baseVersion: baseVersion, operation: operation, ref: ref,
                    session: session)
            case .hello, .unsubscribe, .unwatch:
                break
            }
            return true
        }
    }

    /// Makes sure the user's role on the plan is known and the plan is in memory.
    private func readiness(of planID: String, for message: ClientMessage, session: Session) -> Readiness {
        guard let user = session.user else { return .answered }
        guard let role = session.roles[planID] else {
            if let denied = session.deniedAt[planID], ContinuousClock.now - denied < .seconds(2) {
                answerUnknownPlan(planID, message: message, session: session)
                return .answered
            }
            let store = self.store
            let events = self.events
            let connection = session.connection
            workers.submit {
                events.yield(
                    .roleLoaded(
                        connection, plan: planID,
                        Result { () throws(StoreError) in try store.role(of: user, in: planID) }))
            }
            return .waiting
        }
        if let runtime = plans[planID] { return .ready(role, runtime) }
        if loading[planID] == nil {
            loading[planID] = []
            let store = self.store
            let events = self.events
            workers.submit(lane: planID) {
                events.yield(.planLoaded(planID, Result { () throws(StoreError) in try store.loadPlan(planID) }))
            }
        }
        loading[planID]!.insert(session.connection)
        return .waiting
    }

    func finishRoleLookup(_ connection: ConnectionID, plan: String, _ result: Result<PlanRole?, StoreError>) {
        guard let session = sessions[connection] else { return }
        switch result {
        case .success(let role?):
            session.roles[plan] = role
            session.deniedAt[plan] = nil
        case .success(nil):
            session.deniedAt[plan] = .now
        case .failure(let error):
            answerUnavailable(session, error)
            return
        }
        processPending(session)
    }

    func finishPlanLoad(_ planID: String, _ result: Result<StoredPlan?, StoreError>) {
        let waiting = loading.removeValue(forKey: planID) ?? []
        switch result {
        case .success(let stored?):
            plans[planID] = PlanRuntime(stored: stored)
            metrics.loadedPlans.wrappingAdd(1, ordering: .relaxed)
            log.info("plan \(planID) loaded at version \(stored.version) (\(stored.document.state.tasks.count) tasks)")
        case .success(nil):
            // The role exists but the plan does not (deleted meanwhile): nobody may see it.
            for connection in waiting { sessions[connection]?.roles[planID] = nil }
            for connection in waiting { sessions[connection]?.deniedAt[planID] = .now }
        case .failure(let error):
            log.warning("plan \(planID) could not be loaded: \(error)")
            for connection in waiting {
                if let session = sessions[connection] { answerUnavailable(session, error) }
            }
            return
        }
        for connection in waiting {
            if let session = sessions[connection] { processPending(session) }
        }
    }

    /// The plan is not visible to this user: `unknownPlan`, as for a plan that does not exist.
    private func answerUnknownPlan(_ planID: String, message: ClientMessage, session: Session) {
        let text = "no plan \"\(planID)\" is visible to you"
        if case .propose(let id, _, _, _, let ref) = message {
            metrics.countProposal(outcome: "rejected", code: RejectionCode.unknownPlan.rawValue)
            send(
                .rejected(id: id, plan: planID, code: .unknownPlan, message: text, version: nil, ref: ref),
                to: session.connection)
        } else {
            send(.error(code: .unknownPlan, message: text, ref: message.ref), to: session.connection)
        }
    }

    /// The database cannot answer a lookup: proposals are rejected `unavailable` (retry with the
    /// same id); other requests close the connection with 1013 so the client reconnects and resumes.
    private func answerUnavailable(_ session: Session, _ error: StoreError) {
        guard let message = session.pending.first else { return }
        if case .propose(let id, let plan, _, _, let ref) = message {
            session.pending.removeFirst()
            metrics.countProposal(outcome: "rejected", code: RejectionCode.unavailable.rawValue)
            send(
                .rejected(
                    id: id, plan: plan, code: .unavailable,
                    message: "the database is unavailable; retry with the same id",
                    version: nil, ref: ref), to: session.connection)
            processPending(session)
            return
        }
        session.state = .closing
        log.warning("connection \(session.connection) closed: database unavailable (\(error))")
        transport.close(session.connection, code: .tryAgainLater, reason: "database unavailable, reconnect later")
    }
}
