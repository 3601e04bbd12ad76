import Dispatch
import SystemSupport

/// A few blocking connections shared by the threads that call the store.
///
/// Connections are opened lazily, at most `capacity` at once; a borrower waits for a free one.
/// A connection that was lost is dropped and replaced on the next borrow, so the pool recovers by
/// itself when PostgreSQL comes back.
public final class ConnectionPool: Sendable {
    /// The libpq connection string (URI or keywords).
    public let conninfo: String
    /// What the pool's connections lived through (lost connections, failovers).
    public let events = ConnectionEvents()
    private let idle = Locked<[PGConnection]>([])
    private let permits: DispatchSemaphore

    /// Creates a pool; nothing connects until the first borrow.
    public init(conninfo: String, capacity: Int = 4) {
        self.conninfo = conninfo
        permits = DispatchSemaphore(value: max(1, capacity))
    }

    /// Runs `body` with a connection of its own.
    /// - Throws: `StoreError.unavailable` when no connection can be made, or what `body` throws.
    public func withConnection<R>(_ body: (PGConnection) throws(StoreError) -> R) throws(StoreError) -> R {
        permits.wait()
        defer { permits.signal() }
        let connection: PGConnection
        if let reused = idle.withLock({ $0.popLast() }) {
            connection = reused
        } else {
            connection = try PGConnection(conninfo: conninfo, events: events)
        }
        defer {
            if connection.isConnected { idle.withLock { $0.append(connection) } }
        }
        return try body(connection)
    }
}
