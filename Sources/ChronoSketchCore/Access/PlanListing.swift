/// One plan a user has a role on, as the store reads it and the `plans` message lists it.
public struct PlanListing: Sendable, Hashable {
    /// The plan's id.
    public let plan: String
    /// Its title.
    public let title: String
    /// The user's role on it.
    public let role: PlanRole
    /// Its confirmed version.
    public let version: Int

    /// Creates a listing.
    public init(plan: String, title: String, role: PlanRole, version: Int) {
        self.plan = plan
        self.title = title
        self.role = role
        self.version = version
    }
}
