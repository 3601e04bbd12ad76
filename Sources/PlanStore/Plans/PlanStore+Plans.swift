import ChronoSketchCore

extension PlanStore {
    /// Creates a plan with the given data (an import), validated as a whole beforehand.
    /// - Throws: `.duplicate` when the id is taken, `.invalid` for a blank or overlong id.
    public func createPlan(id: String, document: PlanDocument) throws(StoreError) {
        guard document.state.baselines.isEmpty else {
            throw .invalid("an imported plan has no baselines yet (they name versions of the plan they came from)")
        }
        let tasks = document.state.tasks
        let timeline = document.state.timeline
        let taskRows = tasks.tasks.map(RowWrites.taskColumns)
        let settings = RowWrites.settingsValues(plan: id, document.state.settings)
        var statements = [
            PGStatement(
                """
                INSERT INTO plans (id, title, next_task_position, next_dependency_position, scheduling, working_days,
                    holidays)
                VALUES ($1, $2, $3, $4, $5, $6::smallint[], $7::date[])
                """,
                [id, document.title, String(taskRows.count), String(tasks.dependencies.count)] + settings.dropFirst())
        ]
        if !taskRows.isEmpty {
            statements.append(
                PGStatement(
                    """
                    INSERT INTO tasks (plan_id, position, id, parent_id, title, kind, start_date, end_date, progress)
                    SELECT $1, t.ord - 1, t.id, t.parent_id, t.title, t.kind, t.start_date::date, t.end_date::date,
                        t.progress::double precision
                    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                        WITH ORDINALITY AS t(id, parent_id, title, kind, start_date, end_date, progress, ord)
                    """, values: RowWrites.columnArrays(plan: id, taskRows, columns: 7)))
        }
        if !tasks.dependencies.isEmpty {
            statements.append(
                PGStatement(
                    """
                    INSERT INTO dependencies (plan_id, position, predecessor_id, successor_id, type, lag)
                    SELECT $1, d.ord - 1, d.predecessor_id, d.successor_id, d.type, d.lag::integer
                    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[])
                        WITH ORDINALITY AS d(predecessor_id, successor_id, type, lag, ord)
                    """,
                    values: RowWrites.arrays(
                        plan: id, tasks.dependencies.map(\.predecessorID), tasks.dependencies.map(\.successorID),
                        tasks.dependencies.map(\.type.rawValue), tasks.dependencies.map { String($0.lag) })))
        }
        if !timeline.resources.isEmpty {
            statements.append(
                PGStatement(
                    """
                    INSERT INTO resources (plan_id, position, id, label)
                    SELECT $1, r.ord - 1, r.id, r.label
                    FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r(id, label, ord)
                    """,
                    values: RowWrites.arrays(plan: id, timeline.resources.map(\.id), timeline.resources.map(\.label))))
        }
        let entries = timeline.entries
        if !entries.isEmpty {
            statements.append(
                PGStatement(
                    """
                    INSERT INTO entries (plan_id, id, title, start_at, end_at, task_id)
                    SELECT $1, e.id, e.title, e.start_at::timestamp, e.end_at::timestamp, e.task_id
                    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                        AS e(id, title, start_at, end_at, task_id)
                    """,
                    values: RowWrites.columnArrays(
                        plan: id,
                        entries.map { RowWrites.entryColumns($0) + [document.state.entryTasks[entry: $0.id]] },
                        columns: 5)))
        }
        let assignments = timeline.assignments
        if !assignments.isEmpty { statements.append(RowWrites.insertAssignments(plan: id, assignments)) }
        statements.append(PlanStore.insertCheckpoint(plan: id, version: 0, document: document))
        try pool.withConnection { connection throws(StoreError) in
            _ = try connection.transaction(statements)
        }
    }

    /// Loads a plan's confirmed data from one consistent snapshot of the database, once what is
    /// visible is replicated (`replicationBarrier`).
    /// - Returns: nil when there is no such plan.
    /// - Throws: `.invalid` when the stored rows break the domain rules (they never should).
    public func loadPlan(_ id: String) throws(StoreError) -> StoredPlan? {
        let results = try pool.withConnection { connection throws(StoreError) in
            try connection.awaitReplication()
            return try connection.readOnlySnapshot(
                [
                    PGStatement(
                        """
                        SELECT title, version, \(PlanStore.readableLogStart),
                            (SELECT max(version) FROM checkpoints WHERE plan_id = $1), scheduling,
                            array_to_string(working_days, ','), array_to_string(holidays, ',')
                        FROM plans p WHERE id = $1
                        """, [id]),
                    PGStatement(
                        """
                        SELECT id, parent_id, title, kind, start_date, end_date, progress
                        FROM tasks WHERE plan_id = $1 ORDER BY position, id
                        """, [id]),
                    PGStatement(
                        """
                        SELECT predecessor_id, successor_id, type, lag FROM dependencies WHERE plan_id = $1
                        ORDER BY position, predecessor_id, successor_id
                        """, [id]),
                    PGStatement("SELECT id, label FROM resources WHERE plan_id = $1 ORDER BY position", [id]),
                    PGStatement(
                        """
                        SELECT id, title, to_char(start_at, 'YYYY-MM-DD"T"HH24:MI'), to_char(end_at, 'YYYY-MM-DD"T"HH24:MI'),
                            task_id
                        FROM entries WHERE plan_id = $1
                        """, [id]),
                    PGStatement("SELECT id, entry_id, resource_id FROM assignments WHERE plan_id = $1", [id]),
                    PGStatement(
                        "SELECT name, version, \(PlanStore.utcText("at")) FROM baselines WHERE plan_id = $1", [id]),
                ])
        }
        let plan = results[0]
        guard plan.rowCount == 1, let title = plan.string(0, 0), let version = plan.int(0, 1) else { return nil }
        do {
            let tasks = try PlanStore.decodeTasks(results[1])
            let dependencies = try (0..<results[2].rowCount).map { row throws(StoreError) in
                guard let type = DependencyType(rawValue: results[2].string(row, 2) ?? ""),
                    let lag = results[2].int(row, 3)
                else { throw .invalid("stored plan \"\(id)\" has a dependency of unknown type or lag") }
                return TaskDependency(
                    predecessorID: results[2].string(row, 0)!, successorID: results[2].string(row, 1)!, type: type,
                    lag: lag)
            }
            let resources = try (0..<results[3].rowCount).map { row throws(TimelineError) in
                try TimelineResource(id: results[3].string(row, 0)!, label: results[3].string(row, 1)!)
            }
            let entries = try (0..<results[4].rowCount).map { row throws(StoreError) in
                try PlanStore.decodeEntry(results[4], row)
            }
            let assignments = try (0..<results[5].rowCount).map { row throws(TimelineError) in
                try TimelineAssignment(
                    id: results[5].string(row, 0)!, entryID: results[5].string(row, 1)!,
                    resourceID: results[5].string(row, 2)!)
            }
            let baselines = (0..<results[6].rowCount).map { row in
                PlanBaseline(
                    name: results[6].string(row, 0)!, version: results[6].int(row, 1)!, at: results[6].string(row, 2)!)
            }
            var links: [String: String] = [:]
            for row in 0..<results[4].rowCount {
                if let task = results[4].string(row, 4) { links[results[4].string(row, 0)!] = task }
            }
            let state = PlanState(
                tasks: try TaskCollection(tasks, dependencies: dependencies),
                timeline: try TimelineData(resources: resources, entries: entries, assignments: assignments),
                baselines: baselines, settings: try PlanStore.decodeSettings(plan, id: id),
                entryTasks: EntryTaskLinks(links))
            var stored = StoredPlan(id: id, version: version, document: PlanDocument(title: title, state: state))
            stored.logStart = plan.int(0, 2) ?? 0
            stored.latestCheckpoint = plan.int(0, 3)
            return stored
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalid("stored plan \"\(id)\" breaks the rules: \(error)")
        }
    }

    /// The settings columns of a plan row (columns 4…6: mode, working days, holidays as text).
    private static func decodeSettings(_ plan: PGResult, id: String) throws(StoreError) -> PlanSettings {
        guard let mode = SchedulingMode(rawValue: plan.string(0, 4) ?? ""),
            let days = plan.string(0, 5)?.split(separator: ",").map({ Int($0) }), days.allSatisfy({ $0 != nil }),
            let holidays = plan.string(0, 6)?.split(separator: ",").map({ try? CivilDate(String($0)) }),
            holidays.allSatisfy({ $0 != nil }),
            let calendar = try? PlanCalendar(workingDays: days.map { $0! }, holidays: holidays.map { $0! })
        else { throw .invalid("stored plan \"\(id)\" has unreadable scheduling settings") }
        return PlanSettings(scheduling: mode, calendar: calendar)
    }

    private static func decodeTasks(_ result: PGResult) throws(StoreError) -> [GanttTask] {
        var tasks: [GanttTask] = []
        tasks.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            let id = result.string(row, 0)!
            do {
                let kind: GanttTaskKind
                switch result.string(row, 3) {
                case "activity":
                    var schedule: TaskSchedule?
                    if let start = result.string(row, 4), let end = result.string(row, 5) {
                        schedule = try TaskSchedule(start: try CivilDate(start), end: try CivilDate(end))
                    }
                    kind = .activity(schedule: schedule, progress: result.double(row, 6) ?? 0)
                case "milestone":
                    kind = .milestone(date: try CivilDate(result.string(row, 4) ?? ""))
                default:
                    kind = .summary
                }
                tasks.append(
                    try GanttTask(id: id, title: result.string(row, 2)!, parentID: result.string(row, 1), kind: kind))
            } catch {
                throw .invalid("stored task \"\(id)\": \(error)")
            }
        }
        return tasks
    }

    private static func decodeEntry(_ result: PGResult, _ row: Int) throws(StoreError) -> TimelineEntry {
        let id = result.string(row, 0)!
        do {
            return try TimelineEntry(
                id: id, title: result.string(row, 1)!, start: try LocalDateTime(result.string(row, 2)!),
                end: try LocalDateTime(result.string(row, 3)!))
        } catch {
            throw .invalid("stored entry \"\(id)\": \(error)")
        }
    }
}
