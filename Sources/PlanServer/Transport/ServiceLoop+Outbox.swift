import PlanProtocol

extension ServiceLoop {
    /// At most this many coalesced connections are written per round: thousands of frames in
    /// one round would keep direct answers (acks) waiting behind them.
    static let releasePerRound = 1500

    /// Takes the work other threads queued: sends, closes, shutdown.
    func drainOutbox() {
        let commands = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        let cap = transport.configuration.maxQueueBytes
        let now = ServiceLoop.now()
        // Connections with direct answers (or a small audience's broadcasts), and the last command
        // that gave them one: written at the end of the drain, all they hold in one frame each.
        var writeNow: [UInt64: (connection: Connection, last: Int)] = [:]
        var due: [Connection] = []
        for (commandIndex, command) in commands.enumerated() {
            switch command {
            case .adopt(let fd):
                adopt(fd)
            case .send(let buffer, let ids, let urgent):
                for id in ids {
                    guard let connection = connections.value[id.rawValue], connection.phase == .webSocket,
                        connection.pendingClose == nil
                    else { continue }
                    enqueue(buffer, on: connection, cap: cap)
                    if connection.pendingClose != nil {
                        due.append(connection)
                    } else if urgent {
                        writeNow[id.rawValue] = (connection, commandIndex)
                    } else if frameIntervalNanoseconds == 0 || now >= connection.lastWrite + frameIntervalNanoseconds {
                        due.append(connection)
                    } else if !connection.awaitingFlush {
                        // Broadcasts gather until the interval since the last frame is over.
                        connection.awaitingFlush = true
                        coalescing.append(connection)
                    }
                }
            case .close(let id, let code, let reason):
                guard let connection = connections.value[id.rawValue], connection.phase == .webSocket else { continue }
                closeSoon(connection, code, reason)
                due.append(connection)
            case .closeAll(let code, let reason):
                acceptingConnections = false
                for connection in Array(connections.value.values) {
                    if connection.phase == .webSocket {
                        closeSoon(connection, code, reason)
                        due.append(connection)
                    } else if !connection.closeQueued {
                        drop(connection)
                    }
                }
            }
        }
        // Answers now, in the order they were given (a connection that got only a broadcast before
        // one that got the answer that followed it); broadcasts whose time has come after the
        // next round's events.
        for (connection, _) in writeNow.values.sorted(by: { $0.last < $1.last }) where !connection.dropped {
            connection.flush()
        }
        for connection in due where !connection.dropped { writeLater(connection) }
    }

    /// Queues `buffer` unless the connection's queue is past the cap: then it is released and the
    /// connection closed with 1013 (too slow to keep up). The first waiting message (a large
    /// snapshot, say) is always accepted; what piles up behind it may not pass the cap.
    private func enqueue(_ buffer: OutgoingBuffer, on connection: Connection, cap: Int) {
        let behindFirst = connection.queuedBytes - (connection.queue.first?.count ?? 0)
        if !connection.queue.isEmpty, behindFirst + buffer.count > cap {
            connection.releaseQueue()
            closeSoon(connection, .tryAgainLater, "too slow to keep up")
        } else {
            connection.queue.append(buffer)
            connection.queuedBytes += buffer.count
            queuedBytesDelta += buffer.count
        }
    }

    /// Closes after what is queued was written, with the close frame; a peer that does not
    /// take it within 5 s is cut off.
    private func closeSoon(_ connection: Connection, _ code: CloseCode, _ reason: String) {
        guard connection.pendingClose == nil else { return }
        connection.pendingClose = (code, reason)
        setDeadline(connection, seconds: 5)
    }

    /// Writes the coalescing connections whose interval is over, up to `releasePerRound`; when
    /// more are due, wakes this loop again for the next round.
    func flushCoalesced() {
        guard !coalescing.isEmpty else { return }
        let now = ServiceLoop.now()
        var released = 0
        var moreDue = false
        var due: [Connection] = []
        coalescing.removeAll { connection in
            let gone = connection.dropped
            guard gone || now >= connection.lastWrite + frameIntervalNanoseconds else { return false }
            if !gone {
                guard released < ServiceLoop.releasePerRound else {
                    moreDue = true
                    return false
                }
                released += 1
                due.append(connection)
            }
            connection.awaitingFlush = false
            return true
        }
        shard.coalescingCount.store(coalescing.count, ordering: .relaxed)
        for connection in due where !connection.dropped { writeLater(connection) }
        if moreDue { shard.wake() }
    }
}
