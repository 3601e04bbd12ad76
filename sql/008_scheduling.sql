-- Automatic scheduling (scheduling.md §1, §2, §7): each plan's settings, each dependency's type
-- and lag. Existing plans get the default settings (manual, every day working, no holidays),
-- existing dependencies finish-to-start with no lag.
ALTER TABLE plans
    ADD COLUMN scheduling   text NOT NULL DEFAULT 'manual' CHECK (scheduling IN ('manual', 'automatic')),
    ADD COLUMN working_days smallint[] NOT NULL DEFAULT '{1,2,3,4,5,6,7}'
        CHECK (cardinality(working_days) BETWEEN 1 AND 7 AND working_days <@ '{1,2,3,4,5,6,7}'::smallint[]),
    ADD COLUMN holidays     date[] NOT NULL DEFAULT '{}' CHECK (cardinality(holidays) <= 1000);

ALTER TABLE dependencies
    ADD COLUMN type text NOT NULL DEFAULT 'finish-to-start'
        CHECK (type IN ('finish-to-start', 'start-to-start', 'finish-to-finish', 'start-to-finish')),
    ADD COLUMN lag  integer NOT NULL DEFAULT 0 CHECK (lag BETWEEN -1000 AND 1000);

-- A `scheduleConflict` decision names its task and earliest start (`rejected.conflict`), answered
-- again as it was to a re-sent proposal.
ALTER TABLE decisions
    ADD COLUMN conflict_task     text,
    ADD COLUMN conflict_earliest date;
