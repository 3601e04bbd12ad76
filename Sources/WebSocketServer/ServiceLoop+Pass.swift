extension ServiceLoop {
    /// While the broadcasts of a round are written, the outbox is looked at after every this many
    /// connections and drained (`answerMidPass`).
    static let answersCheckedEvery = 256

    /// Writes the connections whose broadcasts are due (after a round's events), in chunks of
    /// `SharedPass.chunk`, looking at the outbox between them. A big pass after a quiet while is
    /// shared with the write helpers (`SharedPass`), who take chunks too; the loop carries out
    /// what they hand back.
    func writePass(_ slots: [ConnectionSlot]) {
        guard !slots.isEmpty else { return }
        let now = ServiceLoop.now()
        let helpers = sharedPass.flatMap {
            SharedPass.shares(slots.count, now: now, lastBusyPass: lastBusyPass) ? $0 : nil
        }
        defer { if slots.count >= SharedPass.busyFrom { lastBusyPass = ServiceLoop.now() } }
        helpers?.begin(slots)
        var next = 0
        func nextChunk() -> Range<Int>? {
            if let helpers { return helpers.take() }
            guard next < slots.count else { return nil }
            defer { next = min(next + SharedPass.chunk, slots.count) }
            return next..<min(next + SharedPass.chunk, slots.count)
        }
        var sinceCheck = 0
        while let chunk = nextChunk() {
            for slot in slots[chunk] { writeInPass(slot) }
            sinceCheck += chunk.count
            if sinceCheck >= ServiceLoop.answersCheckedEvery {
                sinceCheck = 0
                answerMidPass(pausing: helpers)
            }
        }
        guard let helpers else { return }
        helpers.finish()
        transport.sharedPasses.wrappingAdd(1, ordering: .relaxed)
        for helper in helpers.helpers {
            transport.helperWrites.wrappingAdd(helper.written, ordering: .relaxed)
            queuedBytesDelta += helper.queuedBytesDelta
            for slot in helper.later { writeLater(slot) }
            for (slot, actions) in helper.decided { perform(slot, actions) }
            helper.reset()
        }
    }

    /// What reached the outbox while a pass goes on is taken every few hundred writes, not after
    /// thousands: all of it (`drainOutbox`), for the direct answers in it (an ack that came a
    /// moment after its broadcast's round began) are written then. The helpers of a shared pass
    /// are paused meanwhile: the outbox's commands may touch any connection.
    private func answerMidPass(pausing sharedPass: SharedPass?) {
        guard shard.outbox.withLock({ !$0.isEmpty }) else { return }
        sharedPass?.pause()
        drainOutbox()
        sharedPass?.resume()
    }
}
