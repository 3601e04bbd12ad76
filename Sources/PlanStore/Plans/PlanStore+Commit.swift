import ChronoSketchCore

extension PlanStore {
    /// First in every transaction whose statements find a few rows of a plan by their keys (a
    /// commit's writes, reading and trimming the log, looking up a decision), for that
    /// transaction only: index lookups, no other access paths (PostgreSQL still takes them
    /// where no index serves).
    ///
    /// Their generic plans estimate `plan_id = $1` from the number of distinct plans, not from
    /// the id: on a database with few plans that is most rows, so without these settings a
    /// commit read every row of a plan (a hash join over a scan of the plan's tasks or entries
    /// to update one), dead versions included, to change a few, and the benchmark's commits
    /// fell by a third within 15 s (6,300 → 4,100/s). A generic plan is also kept as long as the
    /// connection lives (until an analyze of its tables): made while the log was still small,
    /// a log read or decision lookup scanned the whole table and sorted it long after.
    /// Other statements keep PostgreSQL's defaults: loading a plan reads all its rows, where a
    /// scan in page order is right; accounts are looked up by unique keys of their own.
    static let keyLookupsOnly = PGStatement.setLocal([
        "enable_seqscan": "off", "enable_bitmapscan": "off", "enable_hashjoin": "off", "enable_mergejoin": "off",
    ])

    /// Commits a batch of already validated mutations of one plan in ONE transaction: the changed
    /// rows, the new version guarded by `baseVersion`, one log row per mutation (versions
    /// `baseVersion + 1 …`), the decisions for exactly-once answers, and a `NOTIFY` — or nothing.
    ///
    /// - Parameters:
    ///   - baseVersion: the version the batch was validated against.
    ///   - logStart: when set (with mutations; at most the new version), the log's start moves up
    ///     to this version in the same transaction: resuming from before it gives a snapshot from then on. The rows below
    ///     it stay until `deleteTrimmedLog` removes them, so that the commit stays short.
    ///   - mutations: the confirmed mutations, in version order.
    ///   - decisions: rejections and no-op acknowledgements decided in the same batch.
    ///   - observe: told where the commit's time went, when it was made.
    /// - Returns: the plan's new version.
    /// - Throws: `.versionConflict` when another writer moved the plan (reload, revalidate, retry);
    ///   `.unavailable` when the database could not commit. Either way nothing was written.
    @discardableResult
    public func commit(
        plan: String, baseVersion: Int, mutations: [CommittedMutation], decisions: [RecordedDecision] = [],
        logStart: Int? = nil, observe: (CommitTiming) -> Void = { _ in }
    ) throws(StoreError) -> Int {
        try commit(
            BatchCommit(
                plan: plan, baseVersion: baseVersion, mutations: mutations, decisions: decisions, logStart: logStart),
            observe: observe)
    }

    /// Commits the batches of several plans in ONE transaction (one fsync for all), each as
    /// `commit` would on its own. If the transaction fails, each batch is committed on its own,
    /// so that each gets its own result (a version conflict or a refused value is one plan's, not
    /// its neighbours'). A failed transaction wrote nothing, unless the connection was lost after
    /// its COMMIT was sent: then the batches it did write fail alone with a version conflict or a
    /// duplicate decision, and their owners catch up or look the decisions up.
    /// - Parameters:
    ///   - batches: at most one batch per plan.
    ///   - observe: told where each transaction's time went, once per transaction made.
    ///   - split: told when a transaction of several batches failed and each went alone.
    /// - Returns: each batch's result, in the order given.
    public func commitTogether(
        _ batches: [BatchCommit], observe: (CommitTiming) -> Void = { _ in }, split: () -> Void = {}
    ) -> [Result<Int, StoreError>] {
        let started = ContinuousClock.now
        let built = batches.map { (batch: $0, statements: PlanStore.statements(of: $0)) }
        guard built.count(where: { !$0.statements.isEmpty }) > 1 else {
            return commitEach(built, since: started, observe: observe)
        }
        // One lock order for every writer of several plan rows.
        let statements = built.sorted { $0.batch.plan < $1.batch.plan }.flatMap(\.statements)
        var timing: PipelineTiming? = PipelineTiming()
        do throws(StoreError) {
            try pool.withConnection { connection throws(StoreError) in
                _ = try connection.transaction([PlanStore.keyLookupsOnly] + statements, timing: &timing)
            }
        } catch {
            split()
            return commitEach(built, since: nil, observe: observe)
        }
        PlanStore.report(timing, started: started, to: observe)
        return batches.map { .success($0.baseVersion + $0.mutations.count) }
    }

    /// Commits each batch in a transaction of its own, timed from `since` (a first try: the
    /// building of the statements included) or, when nil, each from its own start (a retry).
    private func commitEach(
        _ built: [(batch: BatchCommit, statements: [PGStatement])], since: ContinuousClock.Instant?,
        observe: (CommitTiming) -> Void
    ) -> [Result<Int, StoreError>] {
        var results: [Result<Int, StoreError>] = []
        for (batch, statements) in built {
            let started = since ?? .now
            results.append(
                Result { () throws(StoreError) in try commit(batch, statements, started: started, observe: observe) })
        }
        return results
    }

    private func commit(_ batch: BatchCommit, observe: (CommitTiming) -> Void) throws(StoreError) -> Int {
        try commit(batch, PlanStore.statements(of: batch), started: .now, observe: observe)
    }

    private func commit(
        _ batch: BatchCommit, _ statements: [PGStatement], started: ContinuousClock.Instant,
        observe: (CommitTiming) -> Void
    ) throws(StoreError) -> Int {
        guard !statements.isEmpty else { return batch.baseVersion }
        var timing: PipelineTiming? = PipelineTiming()
        try pool.withConnection { connection throws(StoreError) in
            do throws(StoreError) {
                _ = try connection.transaction([PlanStore.keyLookupsOnly] + statements, timing: &timing)
            } catch {
                if case .database(let sqlState, _) = error, sqlState == "CS001" {
                    throw .versionConflict(plan: batch.plan, expected: batch.baseVersion)
                }
                throw error
            }
        }
        PlanStore.report(timing, started: started, to: observe)
        return batch.baseVersion + batch.mutations.count
    }

    private static func report(
        _ timing: PipelineTiming?, started: ContinuousClock.Instant, to observe: (CommitTiming) -> Void
    ) {
        if let sent = timing?.sent, let executed = timing?.executed, let committed = timing?.committed {
            observe(CommitTiming(encoding: sent - started, executing: executed - sent, syncing: committed - executed))
        }
    }

    /// A batch's statements (none when it has neither mutations nor decisions).
    private static func statements(of batch: BatchCommit) -> [PGStatement] {
        let (plan, baseVersion, mutations, decisions, logStart) = (
            batch.plan, batch.baseVersion, batch.mutations, batch.decisions, batch.logStart
        )
        let newVersion = baseVersion + mutations.count
        var statements: [PGStatement] = []
        if !mutations.isEmpty {
            statements.append(
                PGStatement(
                    "SELECT plan_advance($1, $2, $3)", [plan, String(baseVersion), String(mutations.count)]))
            if let logStart {
                // After plan_advance: the CHECK log_start <= version holds only for the new version.
                precondition(logStart <= newVersion, "the log cannot start after the new version")
                statements.append(
                    PGStatement(
                        "UPDATE plans SET log_start = $2 WHERE id = $1 AND log_start < $2", [plan, String(logStart)]))
            }
            statements += RowWrites.statements(plan: plan, mutations: mutations)
            // Whether each inverse is its op turned round (then not stored): worked out once.
            let fromOp = mutations.map(\.inverseFromOp)
            statements.append(
                PGStatement(
                    """
                    INSERT INTO mutations (
                        plan_id, version, proposal_id, user_name, op, changes, inverse, inverse_from_op, created_at)
                    SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::json[], $6::json[], $7::json[],
                        $8::boolean[], $9::timestamptz[])
                    """,
                    values: [
                        .text(plan), .text(PGArrayLiteral.make(mutations.indices.map { String(baseVersion + 1 + $0) })),
                        .array(mutations.map(\.proposalID), of: .text), .array(mutations.map(\.user), of: .text),
                        .array(mutations.map { $0.operation.logJSON(undoes: $0.undoes) }, of: .json),
                        .array(mutations.map(\.changesJSON), of: .json),
                        .array(zip(mutations, fromOp).map { $1 ? nil : $0.inverse?.json }, of: .json),
                        .text(PGArrayLiteral.make(fromOp.map { $0 ? "t" : "f" })),
                        .text(PGArrayLiteral.make(mutations.map(\.at))),
                    ]))
        }
        let acknowledged = mutations.enumerated().map { index, mutation in
            RecordedDecision(
                proposalID: mutation.proposalID, user: mutation.user,
                decision: .acknowledged(version: baseVersion + 1 + index, noop: false))
        }
        // Without mutations nothing locked the plan row: the decisions are written only while it is there.
        if let statement = PlanStore.insertDecisions(
            plan: plan, acknowledged + decisions, whilePlanExists: mutations.isEmpty)
        {
            statements.append(statement)
        }
        if !mutations.isEmpty {
            statements.append(
                PGStatement("SELECT pg_notify('\(PlanListener.channel)', $1)", ["\(newVersion) \(plan)"]))
        }
        return statements
    }

    private static func insertDecisions(plan: String, _ decisions: [RecordedDecision], whilePlanExists: Bool)
        -> PGStatement?
    {
        guard !decisions.isEmpty else { return nil }
        var outcomes: [String] = []
        var versions: [String] = []
        var noops: [String] = []
        var codes: [String?] = []
        var messages: [String?] = []
        var conflictTasks: [String?] = []
        var conflictDates: [String?] = []
        for record in decisions {
            switch record.decision {
            case .acknowledged(let version, let noop):
                outcomes.append("ack")
                versions.append(String(version))
                noops.append(noop ? "t" : "f")
                codes.append(nil)
                messages.append(nil)
                conflictTasks.append(nil)
                conflictDates.append(nil)
            case .rejected(let version, let code, let message, let conflict):
                outcomes.append("rejected")
                versions.append(String(version))
                noops.append("f")
                codes.append(code.rawValue)
                messages.append(message)
                conflictTasks.append(conflict?.task)
                conflictDates.append(conflict?.earliest.description)
            }
        }
        return PGStatement(
            """
            INSERT INTO decisions (
                plan_id, user_name, proposal_id, outcome, version, noop, code, message, conflict_task, conflict_earliest)
            SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::boolean[], $7::text[],
                $8::text[], $9::text[], $10::date[])
            \(whilePlanExists ? "WHERE EXISTS (SELECT 1 FROM plans WHERE id = $1 FOR KEY SHARE)" : "")
            """,
            values: [
                .text(plan), .array(decisions.map(\.user), of: .text), .array(decisions.map(\.proposalID), of: .text),
                .array(outcomes, of: .text), .text(PGArrayLiteral.make(versions)), .text(PGArrayLiteral.make(noops)),
                .array(codes, of: .text), .array(messages, of: .text), .array(conflictTasks, of: .text),
                .text(PGArrayLiteral.make(conflictDates)),
            ])
    }
}

/// Where one commit's time went on its worker.
public struct CommitTiming: Sendable {
    /// Building the statements (the rows, the log, the decisions) and sending them (including the
    /// wait for a pooled connection and for the socket to take them).
    public let encoding: Duration
    /// Until the last statement's result came back: the database executing them.
    public let executing: Duration
    /// The commit itself: WAL flushed (fsync) and confirmed.
    public let syncing: Duration
}

/// One plan's batch for `PlanStore.commit` or `commitTogether`.
public struct BatchCommit: Sendable {
    /// The plan.
    public let plan: String
    /// The version the batch was validated against.
    public let baseVersion: Int
    /// The confirmed mutations, in version order.
    public let mutations: [CommittedMutation]
    /// Rejections and no-op acknowledgements decided in the same batch.
    public let decisions: [RecordedDecision]
    /// Where the log's start moves (with mutations; at most the new version), if it does.
    public let logStart: Int?

    /// A batch to commit.
    public init(
        plan: String, baseVersion: Int, mutations: [CommittedMutation], decisions: [RecordedDecision] = [],
        logStart: Int? = nil
    ) {
        self.plan = plan
        self.baseVersion = baseVersion
        self.mutations = mutations
        self.decisions = decisions
        self.logStart = logStart
    }
}
