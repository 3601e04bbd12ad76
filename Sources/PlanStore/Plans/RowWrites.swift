import ChronoSketchCore

/// The SQL that writes applied ops: the changed rows only. An edit rewrites one row, a reorder
/// only the moved positions, a removal one row (its dependencies cascade). Which statements a
/// batch of ops becomes is in `RowWrites+Batch.swift`.
///
/// Task positions are sort keys with gaps: added tasks take the plan's next free keys (kept on
/// the plan row); reordered tasks trade the keys of the slots they move between.
enum RowWrites {
    /// id, parent_id, title, kind, start_date, end_date, progress (all text).
    static func taskColumns(_ task: GanttTask) -> [String?] {
        var start: String?
        var end: String?
        var progress: String?
        switch task.kind {
        case .activity(let schedule, let value):
            start = schedule?.start.description
            end = schedule?.end.description
            progress = String(value)
        case .milestone(let date):
            start = date.description
        case .summary:
            break
        }
        return [task.id, task.parentID, task.title, task.kind.name, start, end, progress]
    }

    /// id, title, start_at, end_at (all text).
    static func entryColumns(_ entry: TimelineEntry) -> [String?] {
        [entry.id, entry.title, entry.start.description, entry.end.description]
    }

    static func insertAssignments(plan: String, _ assignments: [TimelineAssignment]) -> PGStatement {
        PGStatement(
            """
            INSERT INTO assignments (plan_id, id, entry_id, resource_id)
            SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])
            """,
            values: arrays(plan: plan, assignments.map(\.id), assignments.map(\.entryID), assignments.map(\.resourceID))
        )
    }

    /// The edited tasks, each once: `$2…$8` are arrays of the `taskColumns`.
    static let updateTasks = """
        UPDATE tasks t SET parent_id = s.parent_id, title = s.title, kind = s.kind,
            start_date = s.start_date::date, end_date = s.end_date::date, progress = s.progress::double precision
        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            AS s(id, parent_id, title, kind, start_date, end_date, progress)
        WHERE t.plan_id = $1 AND t.id = s.id
        """

    /// The edited entries, each once: `$2…$5` are arrays of the `entryColumns`.
    static let updateEntries = """
        UPDATE entries e SET title = s.title, start_at = s.start_at::timestamp, end_at = s.end_at::timestamp
        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS s(id, title, start_at, end_at)
        WHERE e.plan_id = $1 AND e.id = s.id
        """

    /// The edited assignments, each once: ids and resources.
    static let updateAssignments = """
        UPDATE assignments a SET resource_id = s.resource_id
        FROM unnest($2::text[], $3::text[]) AS s(id, resource_id)
        WHERE a.plan_id = $1 AND a.id = s.id
        """

    /// The added tasks, in order, take the plan's next free position keys: `$2…$8` are arrays of
    /// the `taskColumns`.
    static let insertTasks = """
        WITH slot AS (
            UPDATE plans SET next_task_position = next_task_position + cardinality($2::text[]) WHERE id = $1
            RETURNING next_task_position - cardinality($2::text[]) AS first)
        INSERT INTO tasks (plan_id, id, position, parent_id, title, kind, start_date, end_date, progress)
        SELECT $1, s.id, slot.first + s.n - 1, s.parent_id, s.title, s.kind, s.start_date::date, s.end_date::date,
            s.progress::double precision
        FROM slot, unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS s(id, parent_id, title, kind, start_date, end_date, progress, n)
        """

    /// The moved ids, in their new order, take the position keys they held, sorted ascending.
    static let reorderTasks = """
        UPDATE tasks t SET position = s.position
        FROM unnest(
            $2::text[],
            ARRAY(SELECT position FROM tasks WHERE plan_id = $1 AND id = ANY($2::text[]) ORDER BY position)
        ) AS s(id, position)
        WHERE t.plan_id = $1 AND t.id = s.id
        """

    /// The added dependencies, in order, take the plan's next free position keys: `$2`, `$3` are
    /// arrays of predecessor and successor ids.
    static let insertDependencies = """
        WITH slot AS (
            UPDATE plans SET next_dependency_position = next_dependency_position + cardinality($2::text[])
            WHERE id = $1 RETURNING next_dependency_position - cardinality($2::text[]) AS first)
        INSERT INTO dependencies (plan_id, predecessor_id, successor_id, type, lag, position)
        SELECT $1, s.predecessor_id, s.successor_id, s.type, s.lag::integer, slot.first + s.n - 1
        FROM slot, unnest($2::text[], $3::text[], $4::text[], $5::text[])
            WITH ORDINALITY AS s(predecessor_id, successor_id, type, lag, n)
        """

    /// A relink: `$2`, `$3` name the pair, `$4`, `$5` the new type and lag.
    static let updateDependency = """
        UPDATE dependencies SET type = $4, lag = $5::integer
        WHERE plan_id = $1 AND predecessor_id = $2 AND successor_id = $3
        """

    /// A `settings.replace`: `$2` the mode, `$3` the working days, `$4` the holidays (array literals).
    static let updateSettings = """
        UPDATE plans SET scheduling = $2, working_days = $3::smallint[], holidays = $4::date[] WHERE id = $1
        """

    /// The parameters of `updateSettings` (and of a new plan's settings columns).
    static func settingsValues(plan: String, _ settings: PlanSettings) -> [String?] {
        [
            plan, settings.scheduling.rawValue,
            "{" + settings.calendar.workingDays.map(String.init).joined(separator: ",") + "}",
            "{" + settings.calendar.holidays.map(\.description).joined(separator: ",") + "}",
        ]
    }

    /// The removed tasks (their dependencies cascade).
    static let deleteTasks = "DELETE FROM tasks WHERE plan_id = $1 AND id = ANY($2::text[])"

    /// Each task `$2[i]` takes the key task `$3[i]` holds when the statement starts (a statement
    /// does not see its own updates, so keys can go round).
    static let exchangeKeys = """
        UPDATE tasks t SET position = holder.position
        FROM unnest($2::text[], $3::text[]) AS s(id, key_of)
        JOIN tasks holder ON holder.plan_id = $1 AND holder.id = s.key_of
        WHERE t.plan_id = $1 AND t.id = s.id
        """

    static let deleteDependency =
        "DELETE FROM dependencies WHERE plan_id = $1 AND predecessor_id = $2 AND successor_id = $3"

    /// A baseline set (or moved): `$2` name, `$3` version, `$4` time.
    static let upsertBaseline = """
        INSERT INTO baselines (plan_id, name, version, at) VALUES ($1, $2, $3::bigint, $4::timestamptz)
        ON CONFLICT (plan_id, name) DO UPDATE SET version = excluded.version, at = excluded.at
        """

    static let deleteBaseline = "DELETE FROM baselines WHERE plan_id = $1 AND name = $2"

    static let insertEntry = "INSERT INTO entries (plan_id, id, title, start_at, end_at) VALUES ($1, $2, $3, $4, $5)"

    static let deleteEntry = "DELETE FROM entries WHERE plan_id = $1 AND id = $2"

    /// `rows` as one array parameter per column, after the plan id.
    static func columnArrays(plan: String, _ rows: [[String?]], columns: Int) -> [PGValue] {
        [.text(plan)] + (0..<columns).map { column in .array(rows.map { $0[column] }, of: .text) }
    }

    /// The plan id, then each column as one array parameter.
    static func arrays(plan: String, _ columns: [String]...) -> [PGValue] {
        [.text(plan)] + columns.map { .array($0, of: .text) }
    }
}
