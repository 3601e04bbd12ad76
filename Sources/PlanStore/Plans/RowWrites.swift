import ChronoSketchCore

/// The SQL that writes applied ops: the changed rows only. An edit rewrites one row, a reorder
/// only the moved positions, a removal one row (its dependencies cascade). How a whole batch is
/// written is in `RowWrites+Batch.swift`.
///
/// Task positions are sort keys with gaps: an added task takes the plan's next free key (kept on
/// the plan row); reordered tasks trade the keys of the slots they move between.
enum RowWrites {
    /// The statements of one op, in the order of the batch.
    static func statements(plan: String, operation: PlanOperation, change: PlanChange) -> [PGStatement] {
        switch operation {
        case .replace, .timelineApply, .remove:
            return []  // gathered and written once per row for the whole batch
        case .add(let task):
            return [PGStatement(insertTask, [plan] + taskColumns(task))]
        case .reorder:
            guard case .tasks(let taskChange) = change, !taskChange.movedIDs.isEmpty else { return [] }
            return [PGStatement(reorderTasks, [plan, PGArrayLiteral.make(taskChange.movedIDs)])]
        case .link(let dependency):
            return [PGStatement(insertDependency, [plan, dependency.predecessorID, dependency.successorID])]
        case .unlink(let dependency):
            return [
                PGStatement(
                    "DELETE FROM dependencies WHERE plan_id = $1 AND predecessor_id = $2 AND successor_id = $3",
                    [plan, dependency.predecessorID, dependency.successorID])
            ]
        case .timelineAdd(let entry, let assignments):
            var statements = [
                PGStatement(
                    "INSERT INTO entries (plan_id, id, title, start_at, end_at) VALUES ($1, $2, $3, $4, $5)",
                    [plan] + entryColumns(entry))
            ]
            if !assignments.isEmpty { statements.append(insertAssignments(plan: plan, assignments)) }
            return statements
        case .timelineRemove(let entry):
            return [PGStatement("DELETE FROM entries WHERE plan_id = $1 AND id = $2", [plan, entry.id])]
        }
    }

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
            [
                plan, PGArrayLiteral.make(assignments.map(\.id)), PGArrayLiteral.make(assignments.map(\.entryID)),
                PGArrayLiteral.make(assignments.map(\.resourceID)),
            ])
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

    /// The assignments of the edited entries: ids and resources.
    static let updateAssignments = """
        UPDATE assignments a SET resource_id = s.resource_id
        FROM unnest($2::text[], $3::text[]) AS s(id, resource_id)
        WHERE a.plan_id = $1 AND a.id = s.id
        """

    /// The new task takes the plan's next free position key.
    static let insertTask = """
        WITH slot AS (
            UPDATE plans SET next_task_position = next_task_position + 1 WHERE id = $1
            RETURNING next_task_position - 1 AS position)
        INSERT INTO tasks (plan_id, id, position, parent_id, title, kind, start_date, end_date, progress)
        SELECT $1, $2, slot.position, $3, $4, $5, $6, $7, $8 FROM slot
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

    /// The new dependency takes the plan's next free position key.
    static let insertDependency = """
        WITH slot AS (
            UPDATE plans SET next_dependency_position = next_dependency_position + 1 WHERE id = $1
            RETURNING next_dependency_position - 1 AS position)
        INSERT INTO dependencies (plan_id, predecessor_id, successor_id, position)
        SELECT $1, $2, $3, slot.position FROM slot
        """
}
