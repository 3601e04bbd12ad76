import ChronoSketchCore
import PlanProtocol
import PlanStore

extension Hub {
    /// `subscribe`: a snapshot, or (with `since`) the missed `confirmed` and `resumed`; then the
    /// live stream. False when a log read must finish first.
    func subscribe(_ runtime: PlanRuntime, since: Int?, ref: String?, session: Session) -> Bool {
        let connection = session.connection
        // From before both memory and the log's start, the log would only answer "trimmed": a snapshot.
        if let since, since <= runtime.version,
            since >= runtime.recentConfirmedStart - 1 || since >= runtime.logStart
        {
            if since >= runtime.recentConfirmedStart - 1 {
                // Everything since `since` is in memory.
                for buffer in runtime.recentConfirmed.dropFirst(since - runtime.recentConfirmedStart + 1) {
                    transport.send(buffer, to: connection)
                }
                send(.resumed(plan: runtime.id, version: runtime.version, ref: ref), to: connection)
            } else {
                // Older than this process's memory: read the log, then continue from memory.
                let store = self.store
                let events = self.events
                let plan = runtime.id
                let limit = runtime.recentConfirmedStart - 1 - since
                workers.submit {
                    let result = Result { () throws(StoreError) in
                        try store.mutations(of: plan, since: since, limit: limit)
                    }
                    events.yield(.resumeLogRead(connection, plan: plan, since: since, ref: ref, result))
                }
                return false
            }
        } else if ref == nil, runtime.snapshotCache?.version != runtime.version,
            runtime.confirmed.tasks.count >= Hub.workerSnapshotTasks
        {
            encodeSnapshotOnWorker(runtime, for: connection)
            return false
        } else {
            sendSnapshot(runtime, ref: ref, to: connection)
        }
        addSubscriber(runtime, session: session)
        return true
    }

    /// Plans with at least this many tasks have their snapshots encoded on a worker thread, so
    /// that encoding megabytes never holds up the other plans.
    static let workerSnapshotTasks = 20_000

    /// Encodes the current snapshot off the hub; everyone asking for the same version waits for
    /// the same bytes.
    private func encodeSnapshotOnWorker(_ runtime: PlanRuntime, for connection: ConnectionID) {
        let version = runtime.version
        if runtime.snapshotEncodings[version] != nil {
            runtime.snapshotEncodings[version]!.append(connection)
            return
        }
        runtime.snapshotEncodings[version] = [connection]
        let snapshot = PlanSnapshot(
            plan: runtime.id, version: version, document: PlanDocument(title: runtime.title, state: runtime.confirmed))
        let events = self.events
        workers.submit {
            let buffer = OutgoingBuffer(ServerMessage.snapshot(snapshot).bytes)
            events.yield(.snapshotEncoded(plan: snapshot.plan, version: version, buffer))
        }
    }

    /// Sends an encoded snapshot to those waiting for it, then what was confirmed since, and
    /// subscribes them.
    func finishSnapshotEncoding(_ planID: String, version: Int, _ buffer: OutgoingBuffer) {
        guard let runtime = plans[planID] else { return }
        let waiting = runtime.snapshotEncodings.removeValue(forKey: version) ?? []
        guard version >= runtime.recentConfirmedStart - 1 else {
            // The plan was reloaded meanwhile: what followed this version is not in memory.
            for connection in waiting { encodeSnapshotOnWorker(runtime, for: connection) }
            return
        }
        if version == runtime.version { runtime.snapshotCache = (version, buffer) }
        let later = Array(runtime.recentConfirmed.dropFirst(max(0, version - runtime.recentConfirmedStart + 1)))
        for connection in waiting {
            guard let session = sessions[connection] else { continue }
            transport.send(buffer, to: connection)
            for confirmed in later { transport.send(confirmed, to: connection) }
            addSubscriber(runtime, session: session)
            if !session.pending.isEmpty { session.pending.removeFirst() }
            processPending(session)
        }
    }

    func finishResume(
        _ connection: ConnectionID, plan: String, since: Int, ref: String?, _ result: Result<LogRead?, StoreError>
    ) {
        guard let session = sessions[connection] else { return }
        defer { processPending(session) }
        // This request is done either way: take it off the queue before going on.
        if !session.pending.isEmpty { session.pending.removeFirst() }
        guard let runtime = plans[plan] else { return }
        switch result {
        case .success(.mutations(let logged, _)?)
        where logged.first?.version == since + 1
            && (logged.last?.version ?? since) >= runtime.recentConfirmedStart - 1:
            for entry in logged where entry.version < runtime.recentConfirmedStart {
                transport.send(
                    confirmedBuffer(
                        plan: plan, version: entry.version, proposalID: entry.proposalID, user: entry.user,
                        changesJSON: entry.changesJSON), to: connection)
            }
            for buffer in runtime.recentConfirmed { transport.send(buffer, to: connection) }
            send(.resumed(plan: plan, version: runtime.version, ref: ref), to: connection)
        case .success:
            // The log no longer reaches back (or does not join up): a snapshot instead.
            sendSnapshot(runtime, ref: ref, to: connection)
        case .failure(let error):
            log.warning("resume of \(plan) for \(connection) fell back to a snapshot: \(error)")
            sendSnapshot(runtime, ref: ref, to: connection)
        }
        addSubscriber(runtime, session: session)
    }

    private func sendSnapshot(_ runtime: PlanRuntime, ref: String?, to connection: ConnectionID) {
        if ref == nil, let cached = runtime.snapshotCache, cached.version == runtime.version {
            transport.send(cached.buffer, to: connection)
            return
        }
        let snapshot = PlanSnapshot(
            plan: runtime.id, version: runtime.version,
            document: PlanDocument(title: runtime.title, state: runtime.confirmed))
        let buffer = OutgoingBuffer(ServerMessage.snapshot(snapshot, ref: ref).bytes)
        if ref == nil { runtime.snapshotCache = (runtime.version, buffer) }
        transport.send(buffer, to: connection)
    }

    private func addSubscriber(_ runtime: PlanRuntime, session: Session) {
        if runtime.subscribers.insert(session.connection).inserted {
            metrics.subscriptions.wrappingAdd(1, ordering: .relaxed)
        }
        session.subscriptions.insert(runtime.id)
        runtime.presence.insert(
            PresenceRoster.Member(
                connection: session.connection, rank: (session.roles[runtime.id] ?? .viewer) >= .editor ? 0 : 1,
                entry: PresenceSession(session: session.sessionID, user: session.user ?? "", client: session.client)))
        // The newcomer hears who is here at once; the others with the next coalesced update.
        send(presenceMessage(runtime), to: session.connection)
        runtime.presenceChanged(knownTo: session.connection)
    }

    func unsubscribe(_ planID: String, ref: String?, session: Session) {
        guard session.subscriptions.remove(planID) != nil else {
            send(
                .error(code: .notSubscribed, message: "not subscribed to \"\(planID)\"", ref: ref),
                to: session.connection)
            return
        }
        if let runtime = plans[planID], runtime.subscribers.remove(session.connection) != nil {
            runtime.presence.remove(session.connection)
            runtime.presenceChanged()
            metrics.subscriptions.wrappingAdd(-1, ordering: .relaxed)
        }
    }

    /// `query` (watch nil) or `watch`: one page now; a watch also registers for fresh pages.
    func answerQuery(_ runtime: PlanRuntime, query: TimelineQuery, watch: String?, ref: String?, session: Session) {
        do {
            try query.validate(against: runtime.confirmed.timeline)
        } catch {
            send(.error(code: .badQuery, message: error.message, ref: ref), to: session.connection)
            return
        }
        if let watch {
            let key = WatchKey(connection: session.connection, watch: watch)
            if let previous = session.watches[watch] {
                // Re-sending a watch id replaces that watch (and does not count as another).
                plans[previous.plan]?.watches.remove(key)
            } else if session.watches.count >= configuration.limits.maxWatchesPerConnection {
                let limit = configuration.limits.maxWatchesPerConnection
                send(
                    .error(
                        code: .tooLarge,
                        message: "this connection holds \(limit) watches, the most it may (maxWatchesPerConnection); "
                            + "unwatch one first", ref: ref), to: session.connection)
                return
            }
            session.watches[watch] = (runtime.id, query)
            runtime.watches.insert(query, for: key)
        }
        send(
            .page(
                plan: runtime.id, watch: watch, version: runtime.version, query: query,
                page: runtime.confirmed.timeline.page(for: query), ref: ref), to: session.connection)
    }

    func unwatch(_ watch: String, ref: String?, session: Session) {
        guard let registered = session.watches.removeValue(forKey: watch) else {
            send(.error(code: .notSubscribed, message: "no watch \"\(watch)\"", ref: ref), to: session.connection)
            return
        }
        plans[registered.plan]?.watches.remove(WatchKey(connection: session.connection, watch: watch))
    }

    /// Fresh pages for the watches a confirmed timeline change affects; only the watches on the
    /// resources it touched are looked at (`TimelineWatchIndex`).
    func refreshWatches(_ runtime: PlanRuntime, change: TimelineChange) {
        for (key, query) in runtime.watches.affected(by: change) {
            broadcast(
                .page(
                    plan: runtime.id, watch: key.watch, version: runtime.version, query: query,
                    page: runtime.confirmed.timeline.page(for: query)), to: [key.connection])
        }
    }

    // MARK: Presence

    /// Who is here: the count, and the first 50 (editors first), kept incrementally (`PresenceRoster`).
    func presenceMessage(_ runtime: PlanRuntime) -> ServerMessage {
        .presence(plan: runtime.id, count: runtime.presence.count, sessions: runtime.presence.sessions)
    }

    /// Once per second: coalesced presence, and plans nobody needs leave memory.
    func tick() {
        for runtime in plans.values {
            if runtime.presenceDirty {
                runtime.presenceDirty = false
                let recipients = runtime.subscribers.filter { $0 != runtime.presenceCurrent }
                runtime.presenceCurrent = nil
                broadcast(presenceMessage(runtime), to: recipients)
            }
            if runtime.trimmedLogDeletion == .failed { deleteTrimmedLog(runtime) }
        }
        let now = ContinuousClock.now
        closeSilentConnections(now: now)
        for (id, runtime) in plans where runtime.isIdle && now - runtime.lastUsed > configuration.idlePlanLifetime {
            plans[id] = nil
            metrics.loadedPlans.wrappingAdd(-1, ordering: .relaxed)
            log.info("plan \(id) left memory (idle)")
        }
        if shuttingDown { finishShutdownIfDone() }
    }
}
