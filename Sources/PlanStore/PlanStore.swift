/// The server's authority: plans, the mutation log, accounts and roles in PostgreSQL, via libpq.
///
/// Every call blocks on the database; call it off the network thread. Calls borrow a pooled
/// connection, so several threads may use one store at once. When PostgreSQL goes away, calls
/// fail with `StoreError.unavailable` and nothing is half-written (each write is one
/// transaction); the store reconnects by itself on a later call.
public final class PlanStore: Sendable {
    /// The pooled connections.
    public let pool: ConnectionPool

    /// Creates a store for `conninfo` (the `DATABASE_URL`: a libpq URI or keyword string).
    /// Nothing connects until the first call.
    public init(conninfo: String, connections: Int = 4) {
        pool = ConnectionPool(conninfo: conninfo, capacity: connections)
    }

    /// Applies the SQL migrations in `directory` that are not applied yet.
    /// - Returns: the names of the migrations applied now.
    @discardableResult
    public func migrate(directory: String) throws(StoreError) -> [String] {
        let migrator = try Migrator(directory: directory)
        return try pool.withConnection { connection throws(StoreError) in try migrator.migrate(using: connection) }
    }

    /// Whether the database answers a trivial query now (for `/healthz`).
    public func isAvailable() -> Bool {
        (try? pool.withConnection { connection throws(StoreError) in try connection.query("SELECT 1") }) != nil
    }
}
