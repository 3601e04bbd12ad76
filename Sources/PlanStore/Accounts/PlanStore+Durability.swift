/// How durable an acknowledged commit is: on this node's disk only, or on a synchronous standby too.
public struct DatabaseDurability: Sendable, Equatable, CustomStringConvertible {
    /// `synchronous_commit` (on, remote_apply, remote_write, local or off).
    public let synchronousCommit: String
    /// `synchronous_standby_names` ("" when no standby is waited for).
    public let synchronousStandbyNames: String
    /// Standbys streaming as synchronous now (`pg_stat_replication`; 0 as well when the server's
    /// role may not read that view).
    public let synchronousStandbysStreaming: Int

    /// Whether a commit waits for a synchronous standby before it is acknowledged.
    public var isReplicated: Bool {
        !synchronousStandbyNames.isEmpty && ["on", "remote_write", "remote_apply"].contains(synchronousCommit)
    }

    /// One line for the log.
    public var description: String {
        isReplicated
            ? "commits wait for a synchronous standby (synchronous_commit=\(synchronousCommit), "
                + "synchronous_standby_names='\(synchronousStandbyNames)', \(synchronousStandbysStreaming) streaming)"
            : "commits are acknowledged once on this node alone (synchronous_commit=\(synchronousCommit), "
                + "no synchronous standby): losing its disk loses them"
    }
}

extension PlanStore {
    /// The database's durability settings now.
    public func durability() throws(StoreError) -> DatabaseDurability {
        let row = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT current_setting('synchronous_commit'), current_setting('synchronous_standby_names'),
                    (SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum'))
                """)
        }
        return DatabaseDurability(
            synchronousCommit: row.string(0, 0) ?? "", synchronousStandbyNames: row.string(0, 1) ?? "",
            synchronousStandbysStreaming: row.int(0, 2) ?? 0)
    }
}
