import ChronoSketchCore

/// How an owner's grant over the wire went (`PlanStore.grant(by:user:plan:role:)`).
public enum GrantOutcome: String, Sendable, Hashable {
    /// Applied and announced on `PlanStore.accessChannel`.
    case granted
    /// The granter has no role on the plan (or it does not exist): it cannot see it.
    case unknownPlan
    /// The granter may see the plan but is not an owner.
    case forbidden
    /// No user of that name.
    case unknownUser
    /// The change would leave the plan without an owner.
    case lastOwner
}

/// Who may do what, changed while sessions are open: every change is announced with `NOTIFY` on
/// `accessChannel` (`PlanListener` reports it), so that every server process applies it at once.
extension PlanStore {
    /// The channel on which changes of access are announced (payloads: sql/004_grants.sql).
    public static let accessChannel = "plan_access"

    /// Every plan `user` has a role on, ordered by id (byte order of the UTF-8 text).
    public func plans(of user: String) throws(StoreError) -> [PlanListing] {
        let result = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT p.id, p.title, r.role, p.version FROM roles r JOIN plans p ON p.id = r.plan_id
                WHERE r.user_name = $1 ORDER BY p.id COLLATE "C"
                """, [user])
        }
        return (0..<result.rowCount).compactMap { row in
            guard let plan = result.string(row, 0), let title = result.string(row, 1),
                let role = result.string(row, 2).flatMap(PlanRole.init(rawValue:)), let version = result.int(row, 3)
            else { return nil }
            return PlanListing(plan: plan, title: title, role: role, version: version)
        }
    }

    /// An owner's grant: `granter` gives `user` the role `role` on `plan` (nil revokes it), if
    /// `granter` owns the plan and the plan keeps an owner. Judged and applied in one transaction
    /// (grants of one plan take turns), and announced on `accessChannel` when applied.
    public func grant(by granter: String, user: String, plan: String, role: PlanRole?) throws(StoreError)
        -> GrantOutcome
    {
        let answer = try pool.withConnection { connection throws(StoreError) in
            try connection.query("SELECT plan_grant($1, $2, $3, $4)", [granter, plan, user, role?.rawValue])
                .string(0, 0)
        }
        guard let outcome = answer.flatMap(GrantOutcome.init(rawValue:)) else {
            throw .invalid("plan_grant answered \(answer ?? "nothing")")
        }
        return outcome
    }

    /// Deletes every token and every feed key of `user` and announces it: every server process
    /// closes the user's open sessions. The user and its roles stay; `issueToken(for:)` gives it
    /// a new token.
    /// - Returns: how many tokens were deleted.
    /// - Throws: `.notFound` when there is no such user.
    @discardableResult
    public func revokeTokens(of user: String) throws(StoreError) -> Int {
        let results = try pool.withConnection { connection throws(StoreError) in
            try connection.transaction([
                PGStatement("SELECT count(*) FROM users WHERE name = $1", [user]),
                PGStatement("DELETE FROM tokens WHERE user_name = $1", [user]),
                PGStatement("DELETE FROM feed_keys WHERE user_name = $1", [user]),
                PGStatement(
                    "SELECT pg_notify('\(PlanStore.accessChannel)', json_build_object('revoked', $1::text)::text)",
                    [user]),
            ])
        }
        guard results.first?.int(0, 0) == 1 else { throw .notFound("no user \(user)") }
        return results[1].affectedRows
    }

    /// The roles of (user, plan) pairs now (nil: none), in one query: after notifications may
    /// have been missed, sessions check the roles they rely on again.
    public func roles(of pairs: [(user: String, plan: String)]) throws(StoreError) -> [PlanRole?] {
        guard !pairs.isEmpty else { return [] }
        let result = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT p.ord, r.role FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS p(user_name, plan_id, ord)
                LEFT JOIN roles r ON r.user_name = p.user_name AND r.plan_id = p.plan_id ORDER BY p.ord
                """, [PGArrayLiteral.make(pairs.map(\.user)), PGArrayLiteral.make(pairs.map(\.plan))])
        }
        return (0..<result.rowCount).map { row in result.string(row, 1).flatMap(PlanRole.init(rawValue:)) }
    }

    /// Which of `users` still have a token (after notifications may have been missed, sessions of
    /// users without one are closed).
    public func usersWithTokens(among users: [String]) throws(StoreError) -> Set<String> {
        guard !users.isEmpty else { return [] }
        let result = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                "SELECT DISTINCT user_name FROM tokens WHERE user_name = ANY($1::text[])",
                [PGArrayLiteral.make(users)])
        }
        return Set((0..<result.rowCount).compactMap { result.string($0, 0) })
    }
}
