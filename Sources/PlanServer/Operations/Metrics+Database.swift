import PlanStore

extension Metrics {
    /// How durable a commit is (read every few seconds), and what the store's connections lived
    /// through: `chronosketch_durability_replicated` is 1 when commits wait for a synchronous
    /// standby, 0 when they are acknowledged on the primary alone (absent until first read).
    func renderDatabase(into text: inout String) {
        let (durability, events) = database.withLock { $0 }
        func line(_ name: String, _ type: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        if let durability {
            line(
                "chronosketch_durability_replicated", "gauge",
                "1 when a commit is acknowledged only once a synchronous standby has it, else 0.",
                durability.isReplicated ? 1 : 0)
            line(
                "chronosketch_synchronous_standbys_streaming", "gauge",
                "Standbys streaming as synchronous (0 also when pg_stat_replication is not readable).",
                durability.synchronousStandbysStreaming)
            text += "# HELP chronosketch_synchronous_commit_info The database's synchronous_commit.\n"
            text += "# TYPE chronosketch_synchronous_commit_info gauge\n"
            text += "chronosketch_synchronous_commit_info{setting=\"\(durability.synchronousCommit)\"} 1\n"
        }
        if let events {
            line(
                "chronosketch_database_connections_lost_total", "counter",
                "Database connections dropped because they failed (reconnected on the next call).",
                events.connectionsLost)
            line(
                "chronosketch_database_failovers_total", "counter",
                "New database connections that reached another server than the one before.", events.serverChanges)
        }
    }
}
