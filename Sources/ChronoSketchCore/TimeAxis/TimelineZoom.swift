/// How many civil days one chart column holds: 1, 2, 4, 6 or 8, as on the Web.
///
/// Zoom changes only the scale; it never changes dates, progress, hierarchy or dependencies.
public enum TimelineZoom: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// One day per column (the default).
    case oneDay = 1
    /// Two days per column.
    case twoDays = 2
    /// Four days per column.
    case fourDays = 4
    /// Six days per column.
    case sixDays = 6
    /// Eight days per column.
    case eightDays = 8

    /// The number of civil days per column.
    public var daysPerColumn: Int { rawValue }

    /// The next finer zoom (fewer days per column), or nil at `.oneDay`.
    public var finer: TimelineZoom? {
        switch self {
        case .oneDay: nil
        case .twoDays: .oneDay
        case .fourDays: .twoDays
        case .sixDays: .fourDays
        case .eightDays: .sixDays
        }
    }

    /// The next coarser zoom (more days per column), or nil at `.eightDays`.
    public var coarser: TimelineZoom? {
        switch self {
        case .oneDay: .twoDays
        case .twoDays: .fourDays
        case .fourDays: .sixDays
        case .sixDays: .eightDays
        case .eightDays: nil
        }
    }

    /// Orders zooms from finest to coarsest.
    public static func < (lhs: TimelineZoom, rhs: TimelineZoom) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
