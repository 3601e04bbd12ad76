-- Feed keys (interchange.md §13): a calendar application subscribes to
-- /plans/PLAN/calendar.ics?key=KEY and sends no header. A key reads that one plan's feed for the
-- user it was made for, and nothing else.
--
-- Asking again returns the same key, and the key is not stored: each row holds a generation
-- (unique across the database) and the SHA-256 of the key; the key is derived from the
-- generation with this database's secret, so the server can say it again without keeping it. A
-- revoked key's row is gone; a new one gets a new generation and so a new key. A row lives only
-- as long as the role it was made for (the foreign key cascades); `user revoke` deletes the
-- user's rows with its tokens.

-- One secret per database, 48 random bytes (gen_random_uuid draws from pg_strong_random).
CREATE TABLE feed_secret (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    secret   bytea NOT NULL CHECK (length(secret) >= 32)
);
INSERT INTO feed_secret (secret)
VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));

CREATE SEQUENCE feed_key_generations;

CREATE TABLE feed_keys (
    plan_id    text NOT NULL,
    user_name  text NOT NULL,
    generation bigint NOT NULL UNIQUE,
    hash       bytea NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plan_id, user_name),
    FOREIGN KEY (plan_id, user_name) REFERENCES roles (plan_id, user_name) ON DELETE CASCADE
);
CREATE INDEX feed_keys_by_user ON feed_keys (user_name);

-- The key of a generation: SHA-256(secret ‖ SHA-256(secret ‖ generation)), base64url without
-- padding (43 characters). The outer hash keeps a key from being extended into another.
CREATE FUNCTION feed_key_text(p_generation bigint) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT rtrim(translate(encode(
        sha256(s.secret || sha256(s.secret || convert_to(p_generation::text, 'UTF8'))), 'base64'), '+/', '-_'), '=')
    FROM feed_secret s
$$;

-- The user's key for the plan, made on first asking; NULL when the user has no role there.
CREATE FUNCTION feed_key(p_plan text, p_user text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    found_generation bigint;
    new_generation bigint;
BEGIN
    SELECT generation INTO found_generation FROM feed_keys WHERE plan_id = p_plan AND user_name = p_user;
    IF found_generation IS NULL THEN
        -- Locks the role row, so that it cannot go before the key is in.
        PERFORM 1 FROM roles WHERE plan_id = p_plan AND user_name = p_user FOR KEY SHARE;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
        new_generation := nextval('feed_key_generations');
        INSERT INTO feed_keys (plan_id, user_name, generation, hash)
        VALUES (p_plan, p_user, new_generation, sha256(convert_to(feed_key_text(new_generation), 'UTF8')))
        ON CONFLICT (plan_id, user_name) DO NOTHING;
        SELECT generation INTO found_generation FROM feed_keys WHERE plan_id = p_plan AND user_name = p_user;
    END IF;
    RETURN feed_key_text(found_generation);
END $$;
