import WebSocketWire

extension ServiceLoop {
    /// At most this many coalesced connections are written per round: thousands of frames in
    /// one round would keep direct answers (acks) waiting behind them.
    static let releasePerRound = 1500

    /// Takes the work other threads queued: connections to serve, sends, closes, shutdown.
    func drainOutbox() {
        let commands = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        let now = ServiceLoop.now()
        // Connections with direct answers, and the last command that gave them one: written at
        // the end of the drain, all they hold in one frame each.
        var writeNow: [UInt64: (slot: ConnectionSlot, last: Int)] = [:]
        for (commandIndex, command) in commands.enumerated() {
            switch command {
            case .adopt(let accepted, let tls):
                adopt(accepted, tls: tls)
            case .send(let buffer, let ids, let urgent):
                // Once per receiver of every broadcast: kept to what each needs.
                let share = transport.ledger.accountShare
                for id in ids {
                    guard let slot = connections.value[id.rawValue] else { continue }
                    let outcome = slot.machine.send(buffer, urgent: urgent, now: now)
                    switch outcome.action {
                    case .flush?:
                        writeNow[id.rawValue] = (slot, commandIndex)
                    case .coalesce?:
                        if !slot.awaitingFlush {
                            slot.awaitingFlush = true
                            coalescing.append(slot)
                        }
                    case .some:
                        writeLater(slot)
                    case nil:
                        continue
                    }
                    settleQueuedBytes(slot)
                    if outcome.charged > 0, share > 0, let account = slot.machine.account, account.chargedBytes > share
                    {
                        accountsCharged.append(account)
                    }
                }
            case .close(let id, let code, let reason):
                guard let slot = connections.value[id.rawValue] else { continue }
                perform(slot, slot.machine.close(code, reason, now: now))
            case .respond(let id, let answer):
                guard let slot = connections.value[id.rawValue] else { continue }
                perform(slot, slot.machine.respond(answer, now: now))
            case .closeAll(let code, let reason):
                acceptingConnections = false
                for slot in Array(connections.value.values) {
                    perform(slot, slot.machine.close(code, reason, now: now))
                }
            case .assign(let id, let account):
                if let slot = connections.value[id.rawValue] {
                    slot.machine.assign(account)
                } else {
                    transport.leave(account)
                }
            }
        }
        // Answers now, in the order they were given (a connection that got only a broadcast before
        // one that got the answer that followed it); broadcasts whose time has come after the
        // next round's events.
        for (slot, _) in writeNow.values.sorted(by: { $0.last < $1.last }) where !slot.closed { flush(slot) }
        enforceBudgets(now: now)
    }

    /// Writes the coalescing connections whose interval is over, up to `releasePerRound`; when
    /// more are due, wakes this loop again for the next round.
    func flushCoalesced() {
        guard !coalescing.isEmpty else { return }
        let now = ServiceLoop.now()
        var released = 0
        var moreDue = false
        var due: [ConnectionSlot] = []
        coalescing.removeAll { slot in
            let gone = slot.closed
            guard gone || now >= slot.machine.flushDue else { return false }
            if !gone {
                guard released < ServiceLoop.releasePerRound else {
                    moreDue = true
                    return false
                }
                released += 1
                due.append(slot)
            }
            slot.awaitingFlush = false
            return true
        }
        shard.coalescingCount.store(coalescing.count, ordering: .relaxed)
        for slot in due where !slot.closed { writeLater(slot) }
        if moreDue { shard.wake() }
    }
}
