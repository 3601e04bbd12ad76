-- ChronoSketch Plan Server: the authoritative plans, the mutation log, accounts and roles.
-- Applied once by `plan-server migrate` (PlanStore's Migrator), inside a transaction.

CREATE TABLE plans (
    id         text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128 AND id !~ '^\s*$'),
    title      text NOT NULL,
    -- The confirmed version: the number of mutations ever confirmed.
    version    bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
    -- Mutations with versions above log_start are kept in `mutations` (the log may be trimmed).
    log_start  bigint NOT NULL DEFAULT 0 CHECK (log_start >= 0 AND log_start <= version),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tasks (
    plan_id    text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    id         text NOT NULL CHECK (id !~ '^\s*$'),
    -- Sort key of the input order; gaps are allowed (a removal rewrites no other row).
    position   bigint NOT NULL,
    parent_id  text,
    title      text NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('activity', 'milestone', 'summary')),
    start_date date,
    end_date   date,
    progress   double precision,
    PRIMARY KEY (plan_id, id),
    CONSTRAINT tasks_position_unique UNIQUE (plan_id, position) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT tasks_parent_exists FOREIGN KEY (plan_id, parent_id) REFERENCES tasks (plan_id, id)
        DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT tasks_kind_fields CHECK (
        (kind = 'activity' AND progress >= 0 AND progress <= 100
            AND ((start_date IS NULL AND end_date IS NULL) OR end_date > start_date))
        OR (kind = 'milestone' AND start_date IS NOT NULL AND end_date IS NULL AND progress IS NULL)
        OR (kind = 'summary' AND start_date IS NULL AND end_date IS NULL AND progress IS NULL))
);

CREATE TABLE dependencies (
    plan_id        text NOT NULL,
    predecessor_id text NOT NULL,
    successor_id   text NOT NULL,
    -- Order of the dependency list.
    position       bigint NOT NULL,
    PRIMARY KEY (plan_id, predecessor_id, successor_id),
    FOREIGN KEY (plan_id, predecessor_id) REFERENCES tasks (plan_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (plan_id, successor_id) REFERENCES tasks (plan_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CHECK (predecessor_id <> successor_id)
);

CREATE TABLE resources (
    plan_id  text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    id       text NOT NULL CHECK (id !~ '^\s*$'),
    label    text NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (plan_id, id)
);

CREATE TABLE entries (
    plan_id  text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    id       text NOT NULL CHECK (id !~ '^\s*$'),
    title    text NOT NULL,
    start_at timestamp without time zone NOT NULL,
    end_at   timestamp without time zone NOT NULL,
    PRIMARY KEY (plan_id, id),
    CHECK (end_at > start_at)
);

CREATE TABLE assignments (
    plan_id     text NOT NULL,
    id          text NOT NULL CHECK (id !~ '^\s*$'),
    entry_id    text NOT NULL,
    resource_id text NOT NULL,
    PRIMARY KEY (plan_id, id),
    FOREIGN KEY (plan_id, entry_id) REFERENCES entries (plan_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (plan_id, resource_id) REFERENCES resources (plan_id, id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX assignments_by_entry ON assignments (plan_id, entry_id);

CREATE TABLE users (
    name       text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 128 AND name !~ '^\s*$'),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a token is stored; tokens are compared inside PostgreSQL.
CREATE TABLE tokens (
    hash       bytea PRIMARY KEY CHECK (length(hash) = 32),
    user_name  text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE roles (
    plan_id   text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    role      text NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
    PRIMARY KEY (plan_id, user_name)
);

-- The log: one row per confirmed version, with the op as proposed and the `changes` broadcast
-- (type json, not jsonb: the text is kept byte for byte as it was sent).
CREATE TABLE mutations (
    plan_id     text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    version     bigint NOT NULL CHECK (version > 0),
    proposal_id text NOT NULL,
    user_name   text NOT NULL,
    op          json NOT NULL,
    changes     json NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plan_id, version),
    UNIQUE (plan_id, user_name, proposal_id)
);

-- Decided proposals, for exactly-once answers: acknowledged (with their version) or rejected.
CREATE TABLE decisions (
    plan_id     text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    user_name   text NOT NULL,
    proposal_id text NOT NULL,
    outcome     text NOT NULL CHECK (outcome IN ('ack', 'rejected')),
    version     bigint NOT NULL,
    noop        boolean NOT NULL DEFAULT false,
    code        text,
    message     text,
    decided_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plan_id, user_name, proposal_id),
    CHECK ((outcome = 'ack') = (code IS NULL))
);

-- Moves a plan from `base` to `base + count` or fails with SQLSTATE CS001 when it is elsewhere:
-- the version guard that serializes writers across server processes.
CREATE FUNCTION plan_advance(p_plan text, p_base bigint, p_count bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE plans SET version = version + p_count WHERE id = p_plan AND version = p_base;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'plan % is not at version %', p_plan, p_base USING ERRCODE = 'CS001';
    END IF;
    RETURN p_base + p_count;
END $$;

-- Contiguous versions, checked at commit: every logged version has its predecessor in the log
-- (or is the first after log_start), and a plan's version is logged unless it is log_start.
CREATE FUNCTION mutations_contiguous() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    plan_row plans%ROWTYPE;
BEGIN
    SELECT * INTO plan_row FROM plans WHERE id = NEW.plan_id;
    IF NEW.version > plan_row.version THEN
        RAISE EXCEPTION 'mutation % of plan % is beyond the plan version %', NEW.version, NEW.plan_id, plan_row.version;
    END IF;
    IF NEW.version > plan_row.log_start + 1
        AND NOT EXISTS (SELECT 1 FROM mutations WHERE plan_id = NEW.plan_id AND version = NEW.version - 1) THEN
        RAISE EXCEPTION 'mutation % of plan % leaves a gap', NEW.version, NEW.plan_id;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER mutations_contiguous AFTER INSERT ON mutations
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION mutations_contiguous();

CREATE FUNCTION plans_version_logged() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version <> NEW.log_start
        AND NOT EXISTS (SELECT 1 FROM mutations WHERE plan_id = NEW.id AND version = NEW.version) THEN
        RAISE EXCEPTION 'version % of plan % has no logged mutation', NEW.version, NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER plans_version_logged AFTER UPDATE OF version, log_start ON plans
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION plans_version_logged();
