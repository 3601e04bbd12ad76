-- Cheaper commits of reorders and adds (issue 6, commits on one plan).
--
-- A reorder rewrites the position keys of the siblings it rotates. Under the deferred unique
-- constraint on (plan_id, position) every such UPDATE added index entries and a recheck at
-- COMMIT, and a task moved several times in one group commit left a chain of versions that
-- each later statement walked: reorders were three quarters of a commit's time. Positions stay
-- unique by construction (adds take the plan's next key, reorders trade the keys they hold,
-- imports number from 0), so the constraint goes; without an index on the column, position
-- updates can be HOT (in-page) updates, for which the tasks table keeps room in its pages.
--
-- The next free keys now live on the plan row instead of coming from max(position), which
-- without an index would scan all of a plan's tasks on every add.
ALTER TABLE plans
    ADD COLUMN next_task_position bigint NOT NULL DEFAULT 0,
    ADD COLUMN next_dependency_position bigint NOT NULL DEFAULT 0;
UPDATE plans p SET
    next_task_position = coalesce((SELECT max(position) + 1 FROM tasks WHERE plan_id = p.id), 0),
    next_dependency_position = coalesce((SELECT max(position) + 1 FROM dependencies WHERE plan_id = p.id), 0);
ALTER TABLE tasks DROP CONSTRAINT tasks_position_unique;

-- Whatever inserts rows (an import, or a server binary from before this migration that still
-- takes max(position) + 1 during a rolling upgrade), the counters stay above every key in use,
-- so an add never reuses a key: one aggregate per INSERT statement, not per row.
CREATE FUNCTION tasks_position_counter() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE plans p SET next_task_position = n.next
    FROM (SELECT plan_id, max(position) + 1 AS next FROM inserted GROUP BY plan_id) n
    WHERE p.id = n.plan_id AND p.next_task_position < n.next;
    RETURN NULL;
END $$;
CREATE TRIGGER tasks_position_counter AFTER INSERT ON tasks
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION tasks_position_counter();

CREATE FUNCTION dependencies_position_counter() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE plans p SET next_dependency_position = n.next
    FROM (SELECT plan_id, max(position) + 1 AS next FROM inserted GROUP BY plan_id) n
    WHERE p.id = n.plan_id AND p.next_dependency_position < n.next;
    RETURN NULL;
END $$;
CREATE TRIGGER dependencies_position_counter AFTER INSERT ON dependencies
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION dependencies_position_counter();
-- Room for in-page updates, and vacuum soon after churn (an edited plan rewrites few rows often).
ALTER TABLE tasks SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 0);
ALTER TABLE plans SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 0);
