import ChronoSketchCore

extension PlanStore {
    /// The mutations of `plan` after version `since`, for resuming a subscriber, at most `limit`;
    /// read once what is visible is replicated (`replicationBarrier`).
    /// - Returns: nil when there is no such plan; `.trimmed` when the log no longer reaches back.
    public func mutations(of plan: String, since: Int, limit: Int = 10_000) throws(StoreError) -> LogRead? {
        let results = try pool.withConnection { connection throws(StoreError) in
            try connection.awaitReplication()
            return try connection.readOnlySnapshot([
                PlanStore.keyLookupsOnly,
                PGStatement("SELECT version, log_start FROM plans WHERE id = $1", [plan]),
                PGStatement(
                    """
                    SELECT version, proposal_id, user_name, op::text, changes::text, \(PlanStore.utcText("created_at")),
                        inverse::text, inverse_from_op
                    FROM mutations
                    WHERE plan_id = $1 AND version > $2 ORDER BY version LIMIT $3
                    """, [plan, String(since), String(limit)]),
            ]).dropFirst()
        }
        guard let current = results[1].int(0, 0), let logStart = results[1].int(0, 1) else { return nil }
        guard since >= logStart else { return .trimmed(currentVersion: current) }
        let rows = results[2]
        let mutations = (0..<rows.rowCount).map { row in
            LoggedMutation(
                version: rows.int(row, 0)!, proposalID: rows.string(row, 1)!, user: rows.string(row, 2)!,
                opJSON: rows.string(row, 3)!, changesJSON: rows.string(row, 4)!, at: rows.string(row, 5)!,
                inverseJSON: rows.string(row, 6), inverseFromOp: rows.string(row, 7) == "t")
        }
        return .mutations(mutations, currentVersion: current)
    }

    /// How a proposal was decided, if it was: the answer to send again for a re-sent proposal;
    /// read once what is visible is replicated (`replicationBarrier`).
    public func decision(plan: String, user: String, proposalID: String) throws(StoreError) -> Decision? {
        try decisions(plan: plan, of: [(user, proposalID)])[0]
    }

    /// How each (user, proposal id) of `plan` was decided, nil where it was not, in the order
    /// asked; one replication barrier for them all, then one lookup each on the same connection.
    public func decisions(plan: String, of keys: [(user: String, proposalID: String)]) throws(StoreError)
        -> [Decision?]
    {
        try pool.withConnection { connection throws(StoreError) in
            try connection.awaitReplication()
            return try keys.map { key throws(StoreError) in
                let row = try connection.transaction([
                    PlanStore.keyLookupsOnly,
                    PGStatement(
                        """
                        SELECT outcome, version, noop, code, message, conflict_task, conflict_earliest::text
                        FROM decisions WHERE plan_id = $1 AND user_name = $2 AND proposal_id = $3
                        """, [plan, key.user, key.proposalID]),
                ])[1]
                return PlanStore.decision(row)
            }
        }
    }

    /// The decision a `decisions` row holds, if there is one.
    private static func decision(_ row: PGResult) -> Decision? {
        guard row.rowCount == 1, let version = row.int(0, 1) else { return nil }
        if row.string(0, 0) == "ack" { return .acknowledged(version: version, noop: row.string(0, 2) == "t") }
        // A code this build does not know (written by a newer one) reads as the catch-all.
        let code = row.string(0, 3).flatMap(RejectionCode.init(rawValue:)) ?? .badMessage
        var conflict: ConflictDetail?
        if let task = row.string(0, 5), let earliest = row.string(0, 6).flatMap({ try? CivilDate($0) }) {
            conflict = ConflictDetail(task: task, earliest: earliest)
        }
        return .rejected(version: version, code: code, message: row.string(0, 4) ?? "", conflict: conflict)
    }

    /// How many rows `deleteTrimmedLog` deletes at most by default (twice the most a log start
    /// moves at once, so that one slice usually takes all a move left).
    public static let trimmedLogSlice = 2_000

    /// Deletes up to `limit` of the oldest log rows below the plan's log start (the row at the start
    /// stays: it holds the start's undo, §10 of the contract): the rows a
    /// commit that moved the start (`commit(…, logStart:)`) left behind, and the checkpoints
    /// before the one at the log start. That checkpoint is written first when it is missing
    /// (rebuilt from an older one and the rows about to go), so every version from the log start
    /// on can still be rebuilt. Only rows below the start that was checkpointed go: a start
    /// moved meanwhile (by another process) is trimmed by the next call.
    /// - Returns: how many rows were deleted (`limit` when more may remain).
    public func deleteTrimmedLog(of plan: String, limit: Int = PlanStore.trimmedLogSlice) throws(StoreError) -> Int {
        guard let start = try checkpointLogStart(of: plan) else { return 0 }
        return try pool.withConnection { connection throws(StoreError) in
            // The log has no gaps: the oldest `limit` rows are one range of versions, found by
            // the key (its generic plan guesses a third of the plan's log otherwise).
            try connection.transaction([
                PlanStore.keyLookupsOnly,
                PGStatement(
                    """
                    DELETE FROM mutations WHERE plan_id = $1 AND version <= least(
                        $2::bigint - 1, (SELECT min(version) FROM mutations WHERE plan_id = $1) + $3 - 1)
                    """, [plan, String(start), String(limit)]),
                PGStatement(
                    """
                    DELETE FROM checkpoints WHERE plan_id = $1 AND version < (
                        SELECT max(version) FROM checkpoints WHERE plan_id = $1 AND version <= $2::bigint)
                    """, [plan, String(start)]),
            ])[1].affectedRows
        }
    }

    /// Writes a checkpoint at the plan's log start unless there is one (or the start cannot be
    /// rebuilt: a plan from before checkpoints, whose trimmed versions are then simply gone).
    /// - Returns: the log start it read; nil when there is no such plan.
    func checkpointLogStart(of plan: String) throws(StoreError) -> Int? {
        let row = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT log_start, EXISTS (SELECT 1 FROM checkpoints WHERE plan_id = p.id AND version = p.log_start)
                FROM plans p WHERE id = $1
                """, [plan])
        }
        guard let start = row.int(0, 0) else { return nil }
        if row.string(0, 1) != "t", case .document(let document)? = try self.plan(plan, asOf: start) {
            try writeCheckpoint(plan: plan, version: start, document: document)
        }
        return start
    }
}
