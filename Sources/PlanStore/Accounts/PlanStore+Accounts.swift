import ChronoSketchCore

extension PlanStore {
    /// Creates a user and a first token for it.
    /// - Returns: the new secret token. It is shown once: only its SHA-256 is stored.
    /// - Throws: `.duplicate` when the name is taken, `.invalid` for a blank or overlong name.
    public func createUser(_ name: String) throws(StoreError) -> String {
        let token = PlanStore.newToken()
        try pool.withConnection { connection throws(StoreError) in
            _ = try connection.transaction([
                PGStatement("INSERT INTO users (name) VALUES ($1)", [name]),
                PGStatement(PlanStore.insertToken, [name, token]),
            ])
        }
        return token
    }

    /// Issues another token for an existing user.
    /// - Throws: `.notFound` when there is no such user.
    public func issueToken(for user: String) throws(StoreError) -> String {
        let token = PlanStore.newToken()
        try pool.withConnection { connection throws(StoreError) in
            _ = try connection.query(PlanStore.insertToken, [user, token])
        }
        return token
    }

    /// The user a token belongs to, or nil for an unknown token. The comparison happens inside
    /// PostgreSQL, against the stored hash.
    public func authenticate(token: String) throws(StoreError) -> String? {
        guard !token.isEmpty, token.utf8.count <= 256 else { return nil }
        return try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                "SELECT user_name FROM tokens WHERE hash = sha256(convert_to($1, 'UTF8'))", [token]
            ).string(0, 0)
        }
    }

    /// Gives `user` a role on `plan`, replacing any role it had there (the administrator's
    /// `plan-server grant`: no owner is needed). Announced on `accessChannel`, so that open
    /// sessions of `user` use the new role at once.
    /// - Throws: `.notFound` when the user or the plan does not exist.
    public func grant(user: String, plan: String, role: PlanRole) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            _ = try connection.transaction([
                PGStatement(
                    """
                    INSERT INTO roles (plan_id, user_name, role) VALUES ($1, $2, $3)
                    ON CONFLICT (plan_id, user_name) DO UPDATE SET role = EXCLUDED.role
                    """, [plan, user, role.rawValue]),
                PGStatement(
                    """
                    SELECT pg_notify('\(PlanStore.accessChannel)',
                        json_build_object('plan', $1::text, 'user', $2::text, 'role', $3::text)::text)
                    """, [plan, user, role.rawValue]),
            ])
        }
    }

    /// The role `user` has on `plan`, or nil when it has none (or the plan does not exist).
    public func role(of user: String, in plan: String) throws(StoreError) -> PlanRole? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query("SELECT role FROM roles WHERE plan_id = $1 AND user_name = $2", [plan, user])
                .string(0, 0).flatMap(PlanRole.init(rawValue:))
        }
    }

    private static let insertToken =
        "INSERT INTO tokens (user_name, hash) VALUES ($1, sha256(convert_to($2, 'UTF8')))"

    /// A fresh secret: 32 bytes from the system's cryptographic generator, as 64 hex digits.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        var token = "cs_"
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            token.append(digits[Int(byte >> 4)])
            token.append(digits[Int(byte & 0xF)])
        }
        return token
    }
}
