extension ServiceLoop {
    /// While the broadcasts of a round are written, the outbox is looked at after every this many
    /// connections: direct answers in it are written then (`drainOutbox`).
    static let answersCheckedEvery = 256

    /// Writes the connections whose broadcasts are due (after a round's events). A big pass after
    /// a quiet while is shared with the write helpers (`SharedPass`); the loop carries out what
    /// they hand back.
    func writePass(_ slots: [ConnectionSlot]) {
        defer { if slots.count >= SharedPass.busyFrom { lastBusyPass = ServiceLoop.now() } }
        guard let sharedPass, SharedPass.shares(slots.count, now: ServiceLoop.now(), lastBusyPass: lastBusyPass) else {
            for (index, slot) in slots.enumerated() {
                slot.awaitingWrite = false
                if !slot.closed { flush(slot) }
                if index % ServiceLoop.answersCheckedEvery == ServiceLoop.answersCheckedEvery - 1 { answerMidPass() }
            }
            return
        }
        sharedPass.begin(slots)
        var sinceCheck = 0
        while let chunk = sharedPass.take() {
            for slot in slots[chunk] {
                slot.awaitingWrite = false
                if !slot.closed { flush(slot) }
            }
            sinceCheck += chunk.count
            if sinceCheck >= ServiceLoop.answersCheckedEvery {
                sinceCheck = 0
                answerMidPass(pausing: sharedPass)
            }
        }
        sharedPass.finish()
        transport.sharedPasses.wrappingAdd(1, ordering: .relaxed)
        for helper in sharedPass.helpers {
            transport.helperWrites.wrappingAdd(helper.written, ordering: .relaxed)
            queuedBytesDelta += helper.queuedBytesDelta
            for slot in helper.later { writeLater(slot) }
            for (slot, actions) in helper.decided { perform(slot, actions) }
            helper.reset()
        }
    }

    /// A direct answer queued while a pass goes on (an ack that reached the outbox a moment after
    /// its broadcast's round began) waits for a few hundred writes, not for thousands. The helpers
    /// of a shared pass are paused meanwhile: the outbox's commands may touch any connection.
    private func answerMidPass(pausing sharedPass: SharedPass? = nil) {
        guard shard.outbox.withLock({ !$0.isEmpty }) else { return }
        sharedPass?.pause()
        drainOutbox()
        sharedPass?.resume()
    }
}
