import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// The plan's audiences: subscribers (snapshots, resuming, presence) and watches (pages).
extension PlanOwner {
    /// Plans with at least this many tasks have their snapshots encoded on a worker thread, so
    /// that encoding megabytes never holds up the other plans.
    static let workerSnapshotTasks = 20_000

    /// `subscribe`: a snapshot, or (with `since`) the missed `confirmed` and `resumed`; then the
    /// live stream. When a worker job (a log read, a snapshot encoding) must finish first, the
    /// subscriber joins with its result (`isSubscribed` tells which).
    mutating func subscribe(_ member: PresenceRoster.Member, since: Int?, ref: String?) {
        let connection = member.connection
        // From before both memory and the log's start, the log would only answer "trimmed": a snapshot.
        if let since, since <= version, since >= recentConfirmedStart - 1 || since >= logStart {
            guard since >= recentConfirmedStart - 1 else {
                // Older than this process's memory: read the log, then continue from memory.
                let limit = recentConfirmedStart - 1 - since
                emit(.run(.readLog(plan: id, since: since, limit: limit, .resume(connection, ref: ref))))
                return
            }
            for buffer in recentConfirmed.dropFirst(since - recentConfirmedStart + 1) {
                emit(.send(buffer, to: connection))
            }
            send(.resumed(plan: id, version: version, role: member.role, ref: ref), to: connection)
        } else if ref == nil, snapshotCache?.version != version, confirmed.tasks.count >= PlanOwner.workerSnapshotTasks
        {
            encodeSnapshotOnWorker(for: member)
            return
        } else {
            sendSnapshot(ref: ref, to: member)
        }
        addSubscriber(member)
    }

    /// A log read for a resuming subscriber finished: what it missed and `resumed`, or a snapshot
    /// when the log does not reach back (or join up); then it is subscribed.
    mutating func resumeRead(
        _ member: PresenceRoster.Member, since: Int, ref: String?, _ result: Result<LogRead?, StoreError>
    ) {
        let connection = member.connection
        switch result {
        case .success(.mutations(let logged, _)?)
        where logged.first?.version == since + 1 && (logged.last?.version ?? since) >= recentConfirmedStart - 1:
            let older = logged.filter { $0.version < recentConfirmedStart }.map { entry in
                confirmedBuffer(
                    version: entry.version,
                    MutationStamp(id: entry.proposalID, user: entry.user, at: entry.at, undoes: entry.undoes),
                    changesJSON: entry.changesJSON)
            }
            for buffer in older { emit(.send(buffer, to: connection)) }
            // Memory may reach back before this read by now (another resume's read was kept):
            // from the version after `since` on.
            for buffer in recentConfirmed.dropFirst(max(0, since + 1 - recentConfirmedStart)) {
                emit(.send(buffer, to: connection))
            }
            send(.resumed(plan: id, version: version, role: member.role, ref: ref), to: connection)
            remember(older)
        case .success:
            sendSnapshot(ref: ref, to: member)
        case .failure(let error):
            warn("resume of \(id) for \(connection) fell back to a snapshot: \(error)")
            sendSnapshot(ref: ref, to: member)
        }
        addSubscriber(member)
    }

    /// Versions just read from the log for a resume, right before what memory holds: kept in
    /// memory too (within `recentConfirmedLimit`), so that the many subscribers that resume from
    /// about the same version after a restart or a cut share one buffer per version (each read
    /// encoded its own before: a thousand resumes held a thousand copies of every version).
    private mutating func remember(_ older: [OutgoingBuffer]) {
        guard !older.isEmpty, older.count + recentConfirmed.count <= PlanOwner.recentConfirmedLimit else { return }
        recentConfirmed.insert(contentsOf: older, at: 0)
        recentConfirmedStart -= older.count
    }

    /// Encodes the current snapshot off the hub; everyone asking for the same version waits for
    /// the same bytes.
    private mutating func encodeSnapshotOnWorker(for member: PresenceRoster.Member) {
        if snapshotEncodings[version] != nil {
            snapshotEncodings[version]!.append(member)
            return
        }
        snapshotEncodings[version] = [member]
        emit(
            .run(
                .encodeSnapshot(
                    PlanSnapshot(
                        plan: id, version: version, document: PlanDocument(title: title, state: confirmed)))))
    }

    /// An encoded snapshot is ready: it goes to those waiting for it, then what was confirmed
    /// since, and they are subscribed.
    mutating func snapshotEncoded(version encoded: Int, _ buffer: OutgoingBuffer) {
        let waiting = snapshotEncodings.removeValue(forKey: encoded) ?? []
        guard encoded >= recentConfirmedStart - 1 else {
            // The plan was reloaded meanwhile: what followed this version is not in memory.
            for member in waiting { encodeSnapshotOnWorker(for: member) }
            return
        }
        var buffers = SnapshotBuffers(version: encoded, plain: buffer)
        let later = recentConfirmed.dropFirst(max(0, encoded - recentConfirmedStart + 1))
        for member in waiting {
            emit(.send(buffers.buffer(for: member.role), to: member.connection))
            for confirmed in later { emit(.send(confirmed, to: member.connection)) }
            addSubscriber(member)
        }
        if encoded == version { snapshotCache = buffers }
    }

    /// The current snapshot naming the member's role: from the cache when the request had no
    /// `ref` (the bytes are then the same for everyone of that role).
    private mutating func sendSnapshot(ref: String?, to member: PresenceRoster.Member) {
        var snapshot = PlanSnapshot(plan: id, version: version, document: PlanDocument(title: title, state: confirmed))
        guard ref == nil else {
            snapshot.role = member.role
            return send(.snapshot(snapshot, ref: ref), to: member.connection)
        }
        if snapshotCache?.version != version {
            snapshotCache = SnapshotBuffers(
                version: version, plain: OutgoingBuffer(ServerMessage.snapshot(snapshot).bytes))
        }
        emit(.send(snapshotCache!.buffer(for: member.role), to: member.connection))
    }

    /// The newcomer hears who is here at once; the others with the next coalesced update.
    private mutating func addSubscriber(_ member: PresenceRoster.Member) {
        if audience.join(member) { emit(.measure(.subscriptions(delta: 1))) }
        send(presenceMessage, to: member.connection)
    }

    /// A subscriber leaves the audience.
    mutating func unsubscribe(_ connection: ConnectionID) {
        guard audience.leave(connection) else { return }
        emit(.measure(.subscriptions(delta: -1)))
    }

    /// A connection closed: its subscription, its watches (`watchIDs`) and any snapshot it
    /// waited for go.
    mutating func disconnected(_ connection: ConnectionID, watches watchIDs: [String]) {
        unsubscribe(connection)
        audience.unwatch(watchIDs, of: connection)
        for (version, waiting) in snapshotEncodings where waiting.contains(where: { $0.connection == connection }) {
            snapshotEncodings[version] = waiting.filter { $0.connection != connection }
        }
    }

    // MARK: Pages

    /// `query` (watch nil) or `watch`: one page now; a watch also registers for fresh pages.
    mutating func page(_ query: TimelineQuery, watch: String?, ref: String?, for connection: ConnectionID) {
        if let watch { audience.watch(query, as: WatchKey(connection: connection, watch: watch)) }
        sendPage(query, watch: watch, ref: ref, to: connection)
    }

    mutating func sendPage(_ query: TimelineQuery, watch: String?, ref: String?, to connection: ConnectionID) {
        send(
            .page(
                plan: id, watch: watch, version: version, query: query, page: confirmed.timeline.page(for: query),
                ref: ref), to: connection)
    }

    /// One fresh page, at the current version, for each watch that confirmed timeline changes
    /// affect (a batch's changes refresh a watch once); only the watches on the resources they
    /// touched are looked at (`TimelineWatchIndex`).
    mutating func refreshWatches(_ changes: [TimelineChange]) {
        var refreshed = Set<WatchKey>()
        for change in changes {
            for (key, query) in audience.watches.affected(by: change) where refreshed.insert(key).inserted {
                sendPage(query, watch: key.watch, ref: nil, to: key.connection)
            }
        }
    }

    // MARK: Presence and ticks

    /// Who is here: the count, and the first 50 (editors first), kept incrementally (`PresenceRoster`).
    var presenceMessage: ServerMessage {
        .presence(plan: id, count: audience.presence.count, sessions: audience.presence.sessions)
    }

    /// Once per second: the coalesced presence update; a failed log deletion tried again.
    mutating func tick() {
        if let recipients = audience.takePresenceUpdate() {
            broadcast(OutgoingBuffer(presenceMessage.bytes), to: recipients)
        }
        if trimmedLogDeletion == .failed { deleteTrimmedLog() }
    }
}
