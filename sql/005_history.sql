-- History (protocol.md §9, §10): what undo needs, baselines, and checkpoints for reading a plan
-- as of any version without replaying its whole log.

-- The op that reverts a version, formed from the data before it (null for baseline ops, which
-- cannot be undone, and for versions written before this migration: undoing those is
-- `historyUnavailable`). `op` is now the op as confirmed: for an undo, the op the server built,
-- with "undoes". `created_at` is the time the server confirmed it (`confirmed.at`).
ALTER TABLE mutations ADD COLUMN inverse json;

-- Named versions of a plan; `--log-keep` never trims the log past the oldest of them.
CREATE TABLE baselines (
    plan_id text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    name    text NOT NULL CHECK (length(name) BETWEEN 1 AND 128 AND name !~ '^\s*$'),
    version bigint NOT NULL CHECK (version >= 0),
    at      timestamptz NOT NULL,
    PRIMARY KEY (plan_id, name)
);

-- A full copy of a plan (the import document, baselines included) at some versions: a plan as
-- of version V is the newest checkpoint at or below V with the log replayed from there. Written
-- after the commit, off its path; a missing one only means a longer replay.
CREATE TABLE checkpoints (
    plan_id  text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    version  bigint NOT NULL CHECK (version >= 0),
    document text NOT NULL,
    PRIMARY KEY (plan_id, version)
);
