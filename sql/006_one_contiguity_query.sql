-- The log's contiguity check at COMMIT (plans_version_logged, from 003) in two queries instead of
-- three. It runs once per group commit; its queries were 7 % of our backend's CPU during
-- `ops/bench commits` (perf). When the commit advanced the version, counting the versions it
-- logged already finds the row at the new version: the separate look for that row is needed only
-- when the version did not move (a change of log_start alone). Same checks, same messages.
CREATE OR REPLACE FUNCTION plans_version_logged() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    first_new bigint := greatest(OLD.version, NEW.log_start);
BEGIN
    IF NEW.version > first_new THEN
        IF (SELECT count(*) FROM mutations
            WHERE plan_id = NEW.id AND version > first_new AND version <= NEW.version) <> NEW.version - first_new THEN
            RAISE EXCEPTION 'versions % to % of plan % are not all logged', first_new + 1, NEW.version, NEW.id;
        END IF;
    ELSIF NEW.version <> NEW.log_start
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
