import WebSocketWire

extension ServiceLoop {
    /// Once a second: every connection's tick (deadlines, pings, silent peers, unsent bytes that
    /// make no progress), the memory budgets, and the joined frames nobody used since the last sweep.
    func sweep(now: UInt64) {
        for slot in Array(connections.value.values) where !slot.closed {
            perform(slot, slot.machine.tick(now: now, listening: !slot.readPaused && !slot.intakeHeld))
        }
        batches.sweep()
        // Accounts over their share whose heaviest connections are served by this thread.
        for account in transport.accountsOverShare() { accountsCharged.append(account) }
        enforceBudgets(now: now)
        resumeReadingIfCaughtUp()
    }

    /// Keeps the send queues within the transport's budget and each account within its share:
    /// past either, the connections charged the most (the bytes queued to them alone) are closed
    /// with 1013, their queues let go at once, until the figure is back under nine tenths of its
    /// bound. Each service thread closes its own connections.
    func enforceBudgets(now: UInt64) {
        let ledger = transport.ledger
        if ledger.isOverBudget {
            let megabytes = ledger.budget >> 20
            shed(
                slots: Array(connections.value.values), until: { ledger.heldBytes <= ledger.budget / 10 * 9 },
                cause: .memoryBudget, reason: "the server's memory for unsent data (\(megabytes) MiB) is used up",
                now: now)
        }
        guard !accountsCharged.isEmpty else { return }
        let accounts = accountsCharged
        accountsCharged = []
        var seen: Set<ObjectIdentifier> = []
        for account in accounts where seen.insert(ObjectIdentifier(account)).inserted {
            guard ledger.accountShare > 0, account.chargedBytes > ledger.accountShare else { continue }
            let share = ledger.accountShare
            shed(
                slots: connections.value.values.filter { $0.machine.account === account },
                until: { account.chargedBytes <= share / 10 * 9 },
                cause: .accountShare,
                reason: "\(account.name)'s share of the memory for unsent data (\(share >> 20) MiB) is used up",
                now: now)
        }
    }

    /// Closes the open connections among `slots` holding the most (charged, then queued) until
    /// `done` says the figure is back under its bound.
    private func shed(
        slots: [ConnectionSlot], until done: () -> Bool, cause: CloseCause, reason: String, now: UInt64
    ) {
        let heaviest = slots.filter { !$0.closed && $0.machine.isOpen && $0.machine.queuedBytes > 0 }
            .sorted {
                ($0.machine.chargedBytes, $0.machine.queuedBytes) > ($1.machine.chargedBytes, $1.machine.queuedBytes)
            }
        for slot in heaviest {
            if done() { return }
            perform(slot, slot.machine.shed(cause, reason, now: now))
        }
    }
}
