/// What a user may do with one plan. Each role includes the ones below it.
public enum PlanRole: String, Sendable, Hashable, CaseIterable, Comparable {
    /// May subscribe, query and watch.
    case viewer
    /// May also propose changes.
    case editor
    /// May also grant roles.
    case owner

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }

    public static func < (lhs: PlanRole, rhs: PlanRole) -> Bool { lhs.rank < rhs.rank }
}
