-- Cheaper group commits, part two (issue 6, commits on one plan). Measured with
-- pg_stat_statements (track = all) during `ops/bench commits`: 43,751 mutations in 1,264 commits.
--
-- 1. Removing a task runs the deferred check that no task still names it as its parent
--    (tasks_parent_exists). Nothing indexed tasks by parent, so each check read every task of
--    every plan: 159 µs a removal on small plans, a sixth of all commit time, and linear in the
--    size of the table. Only tasks with a parent need an entry.
CREATE INDEX tasks_by_parent ON tasks (plan_id, parent_id) WHERE parent_id IS NOT NULL;

-- 2. The log stays contiguous, checked once per INSERT statement over the rows it adds, instead
--    of a deferred trigger per row (an event queued per row, then two queries each at commit).
--    The rows of one statement must be consecutive versions that follow the log (or start right
--    after log_start) and do not pass the plan's version; the commit advances the version first.
DROP TRIGGER mutations_contiguous ON mutations;
DROP FUNCTION mutations_contiguous();
CREATE FUNCTION mutations_contiguous() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT n.plan_id, n.first, n.last, n.count, p.version, p.log_start INTO bad
    FROM (SELECT plan_id, min(version) AS first, max(version) AS last, count(*) AS count
          FROM inserted GROUP BY plan_id) n
    JOIN plans p ON p.id = n.plan_id
    WHERE n.last > p.version
       OR n.count <> n.last - n.first + 1
       OR (n.first > p.log_start + 1
           AND NOT EXISTS (SELECT 1 FROM mutations m WHERE m.plan_id = n.plan_id AND m.version = n.first - 1))
    LIMIT 1;
    IF FOUND THEN
        IF bad.last > bad.version THEN
            RAISE EXCEPTION 'mutation % of plan % is beyond the plan version %', bad.last, bad.plan_id, bad.version;
        END IF;
        RAISE EXCEPTION 'mutations % to % of plan % leave a gap', bad.first, bad.last, bad.plan_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER mutations_contiguous AFTER INSERT ON mutations
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION mutations_contiguous();
