-- Grants over the wire and revocation (issue 14 §4, contract §11).
--
-- Every change of access is announced on the channel `plan_access` (a JSON payload), so that
-- every server process sharing the database applies it to its open sessions at once:
--   {"plan":"demo","user":"bob","role":"editor"}   a role set ("role":null: revoked)
--   {"revoked":"bob"}                              every token of bob deleted

-- An owner's grant, judged and applied in one step. Returns what happened:
-- 'granted', 'unknownPlan' (the granter has no role on the plan), 'forbidden' (the granter is
-- not an owner), 'unknownUser', or 'lastOwner' (the change would leave the plan without an
-- owner). p_role NULL revokes.
CREATE FUNCTION plan_grant(p_granter text, p_plan text, p_user text, p_role text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    granter_role text;
BEGIN
    -- Grants of one plan one at a time: the last-owner check reads the other owners. An
    -- advisory lock, so that commits of the plan (which update its row) are not held up.
    PERFORM pg_advisory_xact_lock(hashtextextended('plan_grant ' || p_plan, 0));
    SELECT role INTO granter_role FROM roles WHERE plan_id = p_plan AND user_name = p_granter;
    IF granter_role IS NULL THEN
        RETURN 'unknownPlan';
    END IF;
    IF granter_role <> 'owner' THEN
        RETURN 'forbidden';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM users WHERE name = p_user) THEN
        RETURN 'unknownUser';
    END IF;
    IF p_role IS DISTINCT FROM 'owner'
        AND EXISTS (SELECT 1 FROM roles WHERE plan_id = p_plan AND user_name = p_user AND role = 'owner')
        AND NOT EXISTS (SELECT 1 FROM roles WHERE plan_id = p_plan AND role = 'owner' AND user_name <> p_user) THEN
        RETURN 'lastOwner';
    END IF;
    IF p_role IS NULL THEN
        DELETE FROM roles WHERE plan_id = p_plan AND user_name = p_user;
    ELSE
        INSERT INTO roles (plan_id, user_name, role) VALUES (p_plan, p_user, p_role)
        ON CONFLICT (plan_id, user_name) DO UPDATE SET role = EXCLUDED.role;
    END IF;
    PERFORM pg_notify('plan_access', json_build_object('plan', p_plan, 'user', p_user, 'role', p_role)::text);
    RETURN 'granted';
END $$;

-- The plans a user has a role on, for `plans`.
CREATE INDEX roles_by_user ON roles (user_name);
