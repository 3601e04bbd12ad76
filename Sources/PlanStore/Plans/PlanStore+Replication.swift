/// Reads that may answer a client with a commit (the log, a stored decision) wait, when the
/// database replicates synchronously, until everything already visible is on a synchronous
/// standby. Normally a commit becomes visible only once a standby has it; but when a backend's
/// wait for the standby is cancelled, its commit becomes visible on this node alone (PostgreSQL's
/// documented hazard, `PGConnection.noticed`). Without the barrier, a retry of that proposal
/// would be acknowledged from the decisions table, or other processes would publish the version
/// from the log, while a failover could still lose it.
extension PlanStore {
    /// A transaction of its own that writes a record to the WAL only when
    /// `synchronous_standby_names` is set: its COMMIT then waits until a synchronous standby holds
    /// the WAL up to it, which covers every commit visible before it. (A transaction id alone is
    /// not enough: PostgreSQL waits for the standby only after a transaction wrote WAL of its
    /// own. A transactional logical message is the smallest such write, and needs no table.)
    /// Without synchronous standbys it costs a round trip.
    static let replicationBarrier = PGStatement(
        """
        SELECT CASE WHEN current_setting('synchronous_standby_names') <> ''
            THEN pg_logical_emit_message(true, 'chronosketch', 'replication barrier') END
        """)
}

extension PGConnection {
    /// Runs `PlanStore.replicationBarrier`: returns once what is visible now is replicated (or
    /// at once without synchronous standbys).
    func awaitReplication() throws(StoreError) {
        _ = try transaction([PlanStore.replicationBarrier])
    }
}
