import WebSocketWire

/// Bounded intake: messages read from sockets wait for the hub in one backlog; past
/// `maxIntakeBacklog`, the service threads stop reading sockets (TCP slows the peers down) until
/// the hub is back to half of it.
extension WebSocketTransport {
    /// Whether the consumer is too far behind for more reading.
    var intakeIsFull: Bool {
        intakeBacklog.load(ordering: .relaxed) >= configuration.maxIntakeBacklog
    }

    /// Whether the consumer is back to half the bound (reading resumes: no pause and resume at
    /// every message around the bound).
    var intakeHasRoom: Bool {
        intakeBacklog.load(ordering: .relaxed) <= configuration.maxIntakeBacklog / 2
    }

    /// Messages waiting for the consumer (for `/metrics`).
    public var intakeWaiting: Int { intakeBacklog.load(ordering: .relaxed) }

    /// How often reading was paused because the consumer was behind (for `/metrics`).
    public var intakePauses: Int { readPauses.load(ordering: .relaxed) }

    /// Hands a message to the consumer, counting it in the backlog.
    func deliver(_ event: TransportEvent) {
        intakeBacklog.wrappingAdd(1, ordering: .relaxed)
        onEvent(event)
    }

    /// The consumer took a message of `connection`: when the backlog falls to half the bound, the
    /// service threads read again; when the connection's own messages fall to half its bound, its
    /// thread reads it again.
    public func messageTaken(from connection: ConnectionID) {
        let before = intakeBacklog.wrappingAdd(-1, ordering: .relaxed).oldValue
        if before == configuration.maxIntakeBacklog / 2 + 1 {
            for shard in shards { shard.wake() }
        }
        let shard = shards[Int(connection.rawValue % UInt64(shards.count))]
        let limit = configuration.maxIntakePerConnection
        if shard.intake.withLock({ $0.taken(from: connection.rawValue, limit: limit) }) { shard.wake() }
    }
}
