-- Cheaper group commits, part two (issue 6, commits on one plan). Measured with
-- pg_stat_statements (track = all) during `ops/bench commits`: 43,751 mutations in 1,264 commits.
--
-- 1. Removing a task runs the deferred check that no task still names it as its parent
--    (tasks_parent_exists). Nothing indexed tasks by parent, so each check read every task of
--    every plan: 159 µs a removal on small plans, a sixth of all commit time, and linear in the
--    size of the table. Only tasks with a parent need an entry.
CREATE INDEX tasks_by_parent ON tasks (plan_id, parent_id) WHERE parent_id IS NOT NULL;

-- 2. The log stays contiguous, checked once per commit instead of once per logged row: a
--    deferred trigger per row queued an event and ran two queries at COMMIT for every mutation.
--    The plan row's check (one event per commit) now also counts the versions the commit
--    logged, an index range of the batch's size, and refuses rows beyond the plan's version.
DROP TRIGGER mutations_contiguous ON mutations;
DROP FUNCTION mutations_contiguous();
CREATE OR REPLACE FUNCTION plans_version_logged() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    first_new bigint := greatest(OLD.version, NEW.log_start);
BEGIN
    IF NEW.version > first_new
        AND (SELECT count(*) FROM mutations
             WHERE plan_id = NEW.id AND version > first_new AND version <= NEW.version) <> NEW.version - first_new THEN
        RAISE EXCEPTION 'versions % to % of plan % are not all logged', first_new + 1, NEW.version, NEW.id;
    END IF;
    IF NEW.version <> NEW.log_start
        AND NOT EXISTS (SELECT 1 FROM mutations WHERE plan_id = NEW.id AND version = NEW.version) THEN
        RAISE EXCEPTION 'version % of plan % has no logged mutation', NEW.version, NEW.id;
    END IF;
    -- Against the row as it is now: a later advance in the same transaction logs more.
    IF EXISTS (SELECT 1 FROM mutations m JOIN plans p ON p.id = m.plan_id
               WHERE m.plan_id = NEW.id AND m.version > p.version) THEN
        RAISE EXCEPTION 'plan % has logged mutations beyond its version', NEW.id;
    END IF;
    RETURN NULL;
END $$;

-- 3. A commit wrote three rows per mutation that each checked, through a foreign key, that the
--    plan row exists (the log row, the decision, and the task again for every further update of
--    it in the same transaction, reorders above all): 3.4 checks a mutation, a tenth of commit
--    time. Every writer of these tables locks the plan row first (plan_advance, the plan's
--    creation, or a commit of decisions only, which writes them only while the plan row is
--    there), so the plan exists; what the keys still did, deleting a plan's rows with it, a
--    trigger does.
ALTER TABLE tasks DROP CONSTRAINT tasks_plan_id_fkey;
ALTER TABLE mutations DROP CONSTRAINT mutations_plan_id_fkey;
ALTER TABLE decisions DROP CONSTRAINT decisions_plan_id_fkey;
CREATE FUNCTION plans_delete_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tasks WHERE plan_id = OLD.id;
    DELETE FROM mutations WHERE plan_id = OLD.id;
    DELETE FROM decisions WHERE plan_id = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER plans_delete_rows AFTER DELETE ON plans FOR EACH ROW EXECUTE FUNCTION plans_delete_rows();

-- 4. Log rows stay in the table's own pages up to 8 KB: above the default 2 KB, PostgreSQL
--    compressed the `changes` of every reorder (its complete task order) on the commit's path.
ALTER TABLE mutations SET (toast_tuple_target = 8160);

-- 5. A proposal is decided once: the decisions table's key says so for every outcome, the log's
--    own unique key on the proposal repeated it (an index entry more a logged mutation).
ALTER TABLE mutations DROP CONSTRAINT mutations_plan_id_user_name_proposal_id_key;
