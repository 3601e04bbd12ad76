/// What the chart draws in one task row, in column units of a `TimeAxis`.
public enum ChartMark: Sendable, Hashable {
    /// An activity's exact exclusive interval, or a summary's derived bounds, at least partly
    /// within the horizon.
    case bar(ChartBar)
    /// A milestone within the horizon: a diamond in its date's column.
    case milestone(ChartMilestone)
    /// An unscheduled activity, or a summary without bounds: no bar, only `label`
    /// ("Unscheduled" / "Nicht geplant"). The row keeps its name.
    case unscheduled(label: String)
    /// A scheduled task entirely before or after the horizon: no bar; the row keeps its name.
    /// `startX` and `endX` are its original positions (equal for a milestone, at its day's middle).
    case outsideHorizon(startX: Double, endX: Double)

    /// The bar, when this is one.
    public var bar: ChartBar? {
        if case .bar(let bar) = self { return bar }
        return nil
    }

    /// The milestone diamond, when this is one.
    public var milestone: ChartMilestone? {
        if case .milestone(let milestone) = self { return milestone }
        return nil
    }
}

/// A bar's geometry: the original interval, the part within the horizon, and the progress fill.
///
/// The fill is the task's own (unclipped) interval's first `progress` percent, then clipped to the
/// visible part: the visible fill is `visibleStartX..<visibleFilledEndX`, empty when they are equal.
public struct ChartBar: Sendable, Hashable {
    /// Whether the bar shows a summary's derived bounds (otherwise an activity's interval).
    public let isSummary: Bool
    /// The original start, `x(of: start)`; negative when the task starts before the horizon.
    public let startX: Double
    /// The original exclusive end, `x(of: end)`; beyond the axis width when it ends after it.
    public let endX: Double
    /// The visible start, `max(startX, 0)`.
    public let visibleStartX: Double
    /// The visible end, `min(endX, axis.width)`.
    public let visibleEndX: Double
    /// The progress in percent, 0…100 (a summary's derived mean).
    public let progress: Double
    /// The original end of the fill: `startX + progress% × (endX − startX)`.
    public let filledEndX: Double
    /// The fill's end clamped into `visibleStartX…visibleEndX`.
    public let visibleFilledEndX: Double

    /// Whether the task starts before the horizon.
    public var isClippedAtStart: Bool { startX < visibleStartX }
    /// Whether the task ends after the horizon.
    public var isClippedAtEnd: Bool { endX > visibleEndX }
    /// Whether any of the fill is visible.
    public var hasVisibleFill: Bool { visibleFilledEndX > visibleStartX }
}

/// A milestone's diamond: centered on the middle of its day, which lies inside its date's column
/// at every zoom (at `.oneDay` the column's center). Dependency arrows meet it at `x`.
public struct ChartMilestone: Sendable, Hashable {
    /// The milestone's date.
    public let date: CivilDate
    /// The index of the column holding the date.
    public let columnIndex: Int
    /// The middle of the date's day in column units, `axis.centerX(of: date)`.
    public let x: Double
}
