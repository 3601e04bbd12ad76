import ChronoSketchCore

extension PlanStore {
    /// SQL for a `timestamptz` column as RFC 3339 UTC text with milliseconds.
    static func utcText(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    }

    /// SQL (on `plans p`) for the oldest version `fetch` can rebuild: the log's start, or the oldest
    /// checkpoint when that is later — a log written before history was kept (migration 005) has
    /// none before the one written when the plan was first loaded after it (none yet: the current
    /// version, which that load checkpoints).
    static let readableLogStart =
        "greatest(p.log_start, coalesce((SELECT min(version) FROM checkpoints WHERE plan_id = p.id), p.version))"

    /// A page of the log, newest first: at most `limit` versions below `before`.
    /// - Returns: nil when there is no such plan.
    public func history(of plan: String, before: Int, limit: Int) throws(StoreError) -> HistoryRead? {
        let results = try pool.withConnection { connection throws(StoreError) in
            try connection.readOnlySnapshot([
                PlanStore.keyLookupsOnly,
                PGStatement(
                    "SELECT version, \(PlanStore.readableLogStart), log_start FROM plans p WHERE id = $1", [plan]),
                PGStatement(
                    """
                    SELECT \(PlanStore.historyColumns) FROM mutations WHERE plan_id = $1 AND version < $2
                        AND version >= (SELECT log_start FROM plans WHERE id = $1)
                    ORDER BY version DESC LIMIT $3
                    """, [plan, String(before), String(limit + 1)]),
            ]).dropFirst()
        }
        guard let current = results[1].int(0, 0), let logStart = results[1].int(0, 1),
            let rowsFrom = results[1].int(0, 2)
        else { return nil }
        let entries = PlanStore.historyRows(results[2])
        return HistoryRead(
            entries: Array(entries.prefix(limit)), logStart: logStart, rowsFrom: rowsFrom, currentVersion: current,
            more: entries.count > limit)
    }

    /// The log after `version`, oldest first, at most `limit` rows (for the audit export).
    public func history(of plan: String, after version: Int, limit: Int) throws(StoreError) -> [HistoryRow] {
        let rows = try pool.withConnection { connection throws(StoreError) in
            try connection.readOnlySnapshot([
                PlanStore.keyLookupsOnly,
                PGStatement(
                    """
                    SELECT \(PlanStore.historyColumns) FROM mutations
                    WHERE plan_id = $1 AND version > $2 ORDER BY version LIMIT $3
                    """, [plan, String(version), String(limit)]),
            ])[1]
        }
        return PlanStore.historyRows(rows)
    }

    /// The log columns `historyRows` reads.
    static let historyColumns =
        "version, \(utcText("created_at")), proposal_id, user_name, op::text, changes::text"

    /// Log rows read with `historyColumns`.
    static func historyRows(_ rows: PGResult) -> [HistoryRow] {
        (0..<rows.rowCount).map { row in
            HistoryRow(
                version: rows.int(row, 0)!, at: rows.string(row, 1)!, proposalID: rows.string(row, 2)!,
                user: rows.string(row, 3)!, opJSON: rows.string(row, 4), changesJSON: rows.string(row, 5)!)
        }
    }

    /// What undoing `version` of `plan` needs from the log: the op that reverts it (the log keeps
    /// the row at its start: `deleteTrimmedLog` deletes the rows below it).
    public func undoSource(of plan: String, version: Int) throws(StoreError) -> UndoSource {
        let rows = try pool.withConnection { connection throws(StoreError) in
            try connection.readOnlySnapshot([
                PlanStore.keyLookupsOnly,
                PGStatement(
                    """
                    SELECT op->>'type', inverse::text, CASE WHEN inverse_from_op THEN op::text END FROM mutations
                    WHERE plan_id = $1 AND version = $2 AND version >= (SELECT log_start FROM plans WHERE id = $1)
                    """, [plan, String(version)]),
            ])[1]
        }
        guard rows.rowCount == 1 else { return .trimmed }
        if let opJSON = rows.string(0, 2) {
            guard let inverse = PlanStore.inverse(ofOpJSON: opJSON) else {
                throw .invalid("the op of version \(version) of \"\(plan)\" does not read as one that reverts itself")
            }
            return .inverse(inverse)
        }
        guard let text = rows.string(0, 1) else {
            let type = rows.string(0, 0) ?? ""
            return type.hasPrefix("baseline.") ? .notUndoable : .trimmed
        }
        do {
            return .inverse(try PlanOperation(json: try JSONValue(parsing: Array(text.utf8)), path: "inverse"))
        } catch {
            throw .invalid("the inverse of version \(version) of \"\(plan)\" does not read: \(error)")
        }
    }

    /// The inverse of a logged op whose row says it is the op turned round (`inverse_from_op`);
    /// nil when the op does not read or is not such an op.
    static func inverse(ofOpJSON opJSON: String) -> PlanOperation? {
        (try? PlanOperation(json: JSONValue(parsing: Array(opJSON.utf8))))?.inverseOfItself
    }

    /// Keeps a full copy of `plan` at `version` (nothing when one is there already).
    public func writeCheckpoint(plan: String, version: Int, document: PlanDocument) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            _ = try connection.transaction([
                PlanStore.insertCheckpoint(plan: plan, version: version, document: document)
            ])
        }
    }

    static func insertCheckpoint(plan: String, version: Int, document: PlanDocument) -> PGStatement {
        PGStatement(
            """
            INSERT INTO checkpoints (plan_id, version, document) SELECT $1, $2, $3
            WHERE EXISTS (SELECT 1 FROM plans WHERE id = $1) ON CONFLICT DO NOTHING
            """, [plan, String(version), String(decoding: document.checkpointJSON, as: UTF8.self)])
    }

    /// The plan as it was at `version`: the newest checkpoint at or below it, with the log
    /// replayed from there, read from one snapshot of the database.
    /// - Returns: nil when there is no such plan; `.unavailable` when no checkpoint and log reach it.
    public func plan(_ plan: String, asOf version: Int) throws(StoreError) -> HistoricalRead? {
        let results = try pool.withConnection { connection throws(StoreError) in
            try connection.readOnlySnapshot([
                PlanStore.keyLookupsOnly,
                PGStatement("SELECT version, \(PlanStore.readableLogStart) FROM plans p WHERE id = $1", [plan]),
                PGStatement(
                    """
                    SELECT version, document FROM checkpoints WHERE plan_id = $1 AND version <= $2
                    ORDER BY version DESC LIMIT 1
                    """, [plan, String(version)]),
                PGStatement(
                    """
                    SELECT version, \(PlanStore.utcText("created_at")), op::text,
                        CASE WHEN strpos(changes::text, '"pushed":') > 0 THEN changes::text END
                    FROM mutations
                    WHERE plan_id = $1 AND version <= $2 AND version > coalesce(
                        (SELECT max(version) FROM checkpoints WHERE plan_id = $1 AND version <= $2), $2)
                    ORDER BY version
                    """, [plan, String(version)]),
            ]).dropFirst()
        }
        guard let current = results[1].int(0, 0), let logStart = results[1].int(0, 1) else { return nil }
        guard version >= logStart, version <= current, results[2].rowCount == 1,
            let base = results[2].int(0, 0), let text = results[2].string(0, 1)
        else { return .unavailable(logStart: logStart, currentVersion: current) }
        let log = results[3]
        guard log.rowCount == version - base else { return .unavailable(logStart: logStart, currentVersion: current) }
        let replay = (0..<log.rowCount).map { row in
            HistoryReplay.Entry(
                version: log.int(row, 0)!, at: log.string(row, 1)!, opJSON: log.string(row, 2)!,
                changesJSON: log.string(row, 3))
        }
        return .document(try HistoryReplay.document(checkpoint: text, at: base, replaying: replay, plan: plan))
    }
}
