import WebSocketWire

/// Each connection's share of the hub's intake: at most `maxIntakePerConnection` of its messages
/// wait for the hub; beyond that the connection is held (not read) until the hub has taken half
/// of them.
extension ServiceLoop {
    /// How many more of the connection's messages may go to the hub now.
    func intakeCredit(_ slot: ConnectionSlot) -> Int {
        let limit = transport.configuration.maxIntakePerConnection
        return shard.intake.withLock { $0.credit(slot.id.rawValue, limit: limit) }
    }

    /// Counts the messages among `actions` as handed to the hub (before they are: the hub may
    /// take one before this thread would otherwise have counted it).
    func countHandedOver(_ slot: ConnectionSlot, _ actions: [ServerConnectionAction]) {
        var messages = 0
        for action in actions {
            switch action {
            case .text, .binary: messages += 1
            default: break
            }
        }
        guard messages > 0 else { return }
        shard.intake.withLock { $0.handedOver(messages, by: slot.id.rawValue) }
    }

    /// Stops reading the connection until the hub has taken half of its messages; when it already
    /// has, the connection is read again in the next round.
    func holdIntake(_ slot: ConnectionSlot) {
        let limit = transport.configuration.maxIntakePerConnection
        guard shard.intake.withLock({ $0.hold(slot.id.rawValue, limit: limit) }) else {
            readSoon.append(slot)
            return
        }
        slot.intakeHeld = true
        transport.readPauses.wrappingAdd(1, ordering: .relaxed)
        updateInterest(slot)
    }

    /// Reads the connections the hub has caught up with again.
    func releaseIntake() {
        let released = shard.intake.withLock { $0.takeReleased() }
        for id in released {
            guard let slot = connections.value[id], !slot.closed else { continue }
            slot.intakeHeld = false
            slot.machine.readingResumed(now: ServiceLoop.now())
            updateInterest(slot)
            if slot.machine.holdsMessages { read(slot) }
        }
    }
}
