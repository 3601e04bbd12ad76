import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer

extension Hub {
    /// What handling a request needs before it can go on.
    enum Readiness {
        /// The role is known and the plan in memory.
        case ready(PlanRole)
        case waiting
        case answered
    }

    /// Handles a session's waiting messages in order until one has to wait for the database, or
    /// until the session's turn is used up (`TurnBudget`): then the rest waits for a
    /// `continuePending` event, queued behind everything that arrived meanwhile, so that one
    /// connection's flood cannot hold the hub while other sessions wait.
    func processPending(_ session: Session) {
        session.blocked = false
        var budget = TurnBudget()
        let turnStart = bytesQueued
        while let message = session.pending.first {
            guard session.user != nil else { return }
            if case .closing = session.state { return }
            guard budget.take(answeredBytes: bytesQueued - turnStart) else {
                yieldTurn(session)
                return
            }
            if !handleRequest(message, session: session) {
                session.blocked = true
                return
            }
            session.pending.removeFirst()
        }
    }

    /// Queues the event that lets `session` go on with its requests in a later turn.
    private func yieldTurn(_ session: Session) {
        guard !session.awaitingTurn else { return }
        session.awaitingTurn = true
        emit(.measure(.yieldedTurn))
        emit(.continueLater(session.connection))
    }

    /// A session's next turn: its waiting requests go on, unless the connection is gone (its
    /// requests went with it) or one of them waits for the database.
    func continuePending(_ connection: ConnectionID) {
        guard let session = sessions[connection] else { return }
        session.awaitingTurn = false
        if !session.blocked { processPending(session) }
    }

    /// Handles one request; false when it must wait (it stays first in the queue).
    private func handleRequest(_ request: Request, session: Session) -> Bool {
        let message: ClientMessage
        switch request {
        case .message(let decoded):
            message = decoded
        case .invalid(.rejected(let id, let plan?, let code, let text, let ref)):
            // A malformed proposal whose plan could be read is a decision like any other.
            return handlePlanRequest(plan, request, session: session) { role in
                propose(
                    plan, role: role, id: id, baseVersion: nil, verdict: .reject(code, text), ref: ref,
                    session: session)
            }
        case .invalid(let error):
            if case .rejected(let id, _, let code, _, _) = error {
                emit(.measure(.decided(.rejected(code))))
                log("rejected \(id) from \(session.user ?? "-"): \(error.message)")
            }
            if let answer = error.answer(version: nil) { send(answer, to: session.connection) }
            return true
        }
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
        case .subscribe(let plan, let since, let ref):
            var finished = true
            let ready = handlePlanRequest(plan, request, session: session) { _ in
                finished = subscribe(plan, since: since, ref: ref, session: session)
            }
            return ready && finished
        case .query(let plan, let query, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                answerQuery(plan, query: query, watch: nil, ref: ref, session: session)
            }
        case .watch(let plan, let query, let watch, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                answerQuery(plan, query: query, watch: watch, ref: ref, session: session)
            }
        case .plans, .grant, .feed:
            return requestAccess(message, session: session)
        case .history(let plan, let before, let limit, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                handle(plan, .history(before: before, limit: limit, ref: ref, for: session.connection))
            }
        case .fetch(let plan, let version, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                handle(plan, .fetch(version: version, ref: ref, for: session.connection))
            }
        case .schedule(let plan, let version, let ids, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                handle(plan, .schedule(version: version, ids: ids, ref: ref, for: session.connection))
            }
        case .tasks(let plan, let ids, let ref):
            return handlePlanRequest(plan, request, session: session) { _ in
                handle(plan, .tasks(ids: ids, ref: ref, for: session.connection))
            }
        case .propose(let id, let plan, let baseVersion, let operation, let ref):
            // An op too large to judge is refused before it costs anything, as a decision.
            let verdict: QueuedProposal.Verdict =
                operation.sizeProblem(configuration.limits).map { .reject(.tooLarge, $0) } ?? .judge(operation)
            return handlePlanRequest(plan, request, session: session) { role in
                propose(
                    plan, role: role, id: id, baseVersion: baseVersion, verdict: verdict, ref: ref, session: session)
            }
        }
    }

    /// Runs `body` once the user's role on `planID` is known and the plan is in memory; false
    /// while that waits for the database.
    private func handlePlanRequest(
        _ planID: String, _ request: Request, session: Session, _ body: (PlanRole) -> Void
    ) -> Bool {
        switch readiness(of: planID, for: request, session: session) {
        case .waiting: return false
        case .answered: return true
        case .ready(let role):
            body(role)
            return true
        }
    }

    /// Makes sure the user's role on the plan is known and the plan is in memory.
    private func readiness(of planID: String, for request: Request, session: Session) -> Readiness {
        guard let user = session.user else { return .answered }
        guard let role = session.roles[planID] else {
            if session.denied.contains(planID) {
                answerUnknownPlan(planID, request: request, session: session)
                return .answered
            }
            emit(.run(.lookUpRole(session.connection, user: user, plan: planID)))
            return .waiting
        }
        if owners.index(forKey: planID) != nil { return .ready(role) }
        if loading[planID] != nil {
            loading[planID]!.insert(session.connection)
        } else {
            loading[planID] = [session.connection]
            emit(.run(.loadPlan(planID)))
        }
        return .waiting
    }

    func finishRoleLookup(_ connection: ConnectionID, plan: String, _ result: Result<PlanRole?, StoreError>) {
        guard let session = sessions[connection] else { return }
        switch result {
        case .success(let role):
            // An announcement that came meanwhile is newer than what the lookup read.
            if !session.knowsRole(on: plan) { session.record(role, on: plan) }
        case .failure(let error):
            answerUnavailable(session, error)
            return
        }
        processPending(session)
    }

    func finishPlanLoad(_ planID: String, _ result: Result<StoredPlan?, StoreError>) {
        guard let waiting = loading.removeValue(forKey: planID) else { return }
        switch result {
        case .success(let stored?):
            owners[planID] = PlanOwner(stored: stored, configuration: configuration, now: now, wallClock: wallClock)
            emit(.measure(.loadedPlans(delta: 1)))
            log("plan \(planID) loaded at version \(stored.version) (\(stored.document.state.tasks.count) tasks)")
            // Rows a trim left behind when the process that moved the log start stopped first.
            handle(planID, .loaded(trimmedLog: stored.logStart > 0))
        case .success(nil):
            // The role exists but the plan does not (deleted meanwhile): nobody may see it.
            for connection in waiting { sessions[connection]?.record(nil, on: planID) }
        case .failure(let error):
            warn("plan \(planID) could not be loaded: \(error)")
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
    private func answerUnknownPlan(_ planID: String, request: Request, session: Session) {
        let text = "no plan \"\(planID)\" is visible to you"
        if let (id, ref) = request.proposal {
            emit(.measure(.decided(.rejected(.unknownPlan))))
            send(
                .rejected(id: id, plan: planID, code: .unknownPlan, message: text, version: nil, ref: ref),
                to: session.connection)
        } else {
            send(.error(code: .unknownPlan, message: text, ref: request.ref), to: session.connection)
        }
    }

    /// The database cannot answer a lookup: proposals are rejected `unavailable` (retry with the
    /// same id); other requests close the connection with 1013 so the client reconnects and resumes.
    func answerUnavailable(_ session: Session, _ error: StoreError) {
        guard let request = session.pending.first else { return }
        if let (id, ref) = request.proposal, let plan = request.plan {
            session.pending.removeFirst()
            emit(.measure(.decided(.rejected(.unavailable))))
            send(
                .rejected(
                    id: id, plan: plan, code: .unavailable,
                    message: "the database is unavailable; retry with the same id",
                    version: nil, ref: ref), to: session.connection)
            processPending(session)
            return
        }
        session.state = .closing
        warn("connection \(session.connection) closed: database unavailable (\(error))")
        close(session.connection, .tryAgainLater, "database unavailable, reconnect later")
    }
}

extension Request {
    /// The id and ref of a proposal (well-formed or not), else nil.
    var proposal: (id: String, ref: String?)? {
        switch self {
        case .message(.propose(let id, _, _, _, let ref)): (id, ref)
        case .invalid(.rejected(let id, _, _, _, let ref)): (id, ref)
        default: nil
        }
    }
}
