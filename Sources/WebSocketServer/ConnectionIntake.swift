/// The messages of each connection of one service thread that the consumer (the hub) has not
/// taken yet, and the connections not read until it has: one connection's burst must not put
/// thousands of messages in the hub's one queue ahead of everyone else's (a flood of 20,000 small
/// queries kept other sessions' answers waiting half a second). Guarded by its shard's lock:
/// the service thread adds, the hub's thread takes.
struct ConnectionIntake {
    /// Messages handed over and not yet taken, by connection (no entry: none).
    private var outstanding: [UInt64: Int] = [:]
    /// Connections not read until their outstanding messages fall to half the limit.
    private var held: Set<UInt64> = []
    /// Held connections whose messages fell to half the limit: the service thread reads them again.
    private var released: [UInt64] = []

    /// How many more messages of `connection` may be handed over under `limit`.
    func credit(_ connection: UInt64, limit: Int) -> Int {
        limit - outstanding[connection, default: 0]
    }

    /// `count` messages of `connection` were handed over.
    mutating func handedOver(_ count: Int, by connection: UInt64) {
        outstanding[connection, default: 0] += count
    }

    /// The consumer took one message of `connection`; returns whether the connection was held
    /// and may be read again now (its outstanding messages fell to half of `limit`).
    mutating func taken(from connection: UInt64, limit: Int) -> Bool {
        // Messages are counted before they are handed over, so a missing entry is a closed
        // connection's.
        guard let current = outstanding[connection] else { return false }
        let left = current - 1
        outstanding[connection] = left == 0 ? nil : left
        guard left <= limit / 2, held.remove(connection) != nil else { return false }
        released.append(connection)
        return true
    }

    /// Holds `connection` until its outstanding messages fall to half of `limit`; false when they
    /// already have (it may be read on at once).
    mutating func hold(_ connection: UInt64, limit: Int) -> Bool {
        guard outstanding[connection, default: 0] > limit / 2 else { return false }
        held.insert(connection)
        return true
    }

    /// The connections released since the last call.
    mutating func takeReleased() -> [UInt64] {
        defer { released = [] }
        return released
    }

    /// Forgets a closed connection (messages of it the consumer takes later count for nothing).
    mutating func forget(_ connection: UInt64) {
        outstanding[connection] = nil
        held.remove(connection)
    }
}
