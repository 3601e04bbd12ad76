import ChronoSketchCore

/// One feed key of a user (`PlanStore.feedKeys(of:)`).
public struct FeedKeyListing: Sendable, Hashable {
    /// The plan whose calendar feed the key reads.
    public let plan: String
    /// The key itself.
    public let key: String
    /// When it was made (RFC 3339, UTC).
    public let createdAt: String
}

/// Feed keys (interchange.md §13, sql/010_feed_keys.sql): read-only keys to one plan's calendar
/// feed, for calendar applications that send no header. Only a key's SHA-256 is stored; asking
/// again gives the same key (derived from the row's generation and the database's secret). A key
/// dies with its user's role on the plan, on `revokeFeedKey`, and on `revokeTokens`.
extension PlanStore {
    /// The longest key looked up; real keys are 43 characters.
    static let longestFeedKey = 128

    /// `user`'s key for `plan`, made on first asking and the same on every later one.
    /// - Returns: nil when the user has no role on the plan (or either does not exist).
    public func feedKey(plan: String, user: String) throws(StoreError) -> String? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query("SELECT feed_key($1, $2)", [plan, user]).string(0, 0)
        }
    }

    /// Every key of `user`, by plan id.
    public func feedKeys(of user: String) throws(StoreError) -> [FeedKeyListing] {
        let result = try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT plan_id, feed_key_text(generation), \(PlanStore.utcText("created_at"))
                FROM feed_keys WHERE user_name = $1 ORDER BY plan_id COLLATE "C"
                """, [user])
        }
        return (0..<result.rowCount).map { row in
            FeedKeyListing(plan: result.string(row, 0)!, key: result.string(row, 1)!, createdAt: result.string(row, 2)!)
        }
    }

    /// Deletes `user`'s key for `plan`: the feed address stops working at once, and the next
    /// `feedKey` makes a different key.
    /// - Returns: whether there was a key.
    @discardableResult
    public func revokeFeedKey(plan: String, user: String) throws(StoreError) -> Bool {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query("DELETE FROM feed_keys WHERE plan_id = $1 AND user_name = $2", [plan, user])
                .affectedRows == 1
        }
    }

    /// The user whose key `key` is for `plan`'s feed; nil for a wrong, revoked or dead key, and
    /// for a key of another plan.
    public func feedUser(plan: String, key: String) throws(StoreError) -> String? {
        guard !key.isEmpty, key.utf8.count <= PlanStore.longestFeedKey else { return nil }
        return try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                "SELECT user_name FROM feed_keys WHERE plan_id = $1 AND hash = sha256(convert_to($2, 'UTF8'))",
                [plan, key]
            ).string(0, 0)
        }
    }
}
