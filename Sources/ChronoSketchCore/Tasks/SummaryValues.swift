/// The values a summary derives from its descendants (semantics.md, "Derived values").
public struct SummaryValues: Sendable, Hashable {
    /// The earliest start of a scheduled descendant activity or milestone date; nil without bounds.
    public let start: CivilDate?
    /// The latest exclusive end of a scheduled descendant activity or milestone date; nil without bounds.
    public let end: CivilDate?
    /// The latest inclusive last occupied day among those descendants; nil without bounds.
    public let lastDate: CivilDate?
    /// The arithmetic mean progress of all descendant activities at any depth; 0 without any.
    public let progress: Double

    /// Creates derived values (for decoding them from the wire).
    public init(start: CivilDate?, end: CivilDate?, lastDate: CivilDate?, progress: Double) {
        self.start = start
        self.end = end
        self.lastDate = lastDate
        self.progress = progress
    }
}

/// What one task contributes to its ancestors' derived values, and what a summary accumulates.
///
/// Progress is summed exactly in fixed point (units of 2⁻⁶⁰), so the sum does not depend on the
/// order of addition: an incremental update gives bit-for-bit the value a full recomputation gives.
struct SummaryAggregate: Sendable, Hashable {
    static let progressScale = 0x1p60

    var activityCount = 0
    var progressSum: Int128 = 0
    var start: CivilDate?
    var end: CivilDate?
    var lastDate: CivilDate?

    static let empty = SummaryAggregate()

    /// The contribution of a non-summary task.
    init(leaf kind: GanttTaskKind) {
        switch kind {
        case .activity(let schedule, let progress):
            activityCount = 1
            progressSum = Int128((progress * SummaryAggregate.progressScale).rounded())
            if let schedule {
                start = schedule.start
                end = schedule.end
                lastDate = schedule.lastDate
            }
        case .milestone(let date):
            start = date
            end = date
            lastDate = date
        case .summary:
            break
        }
    }

    init() {}

    /// Adds another contribution.
    mutating func add(_ other: SummaryAggregate) {
        activityCount += other.activityCount
        progressSum += other.progressSum
        mergeBounds(other)
    }

    /// Widens the bounds to include another contribution's bounds.
    mutating func mergeBounds(_ other: SummaryAggregate) {
        guard let otherStart = other.start, let otherEnd = other.end, let otherLast = other.lastDate else { return }
        if let start, let end, let lastDate {
            self.start = min(start, otherStart)
            self.end = max(end, otherEnd)
            self.lastDate = max(lastDate, otherLast)
        } else {
            start = otherStart
            end = otherEnd
            lastDate = otherLast
        }
    }

    /// Whether removing `other` could shrink these bounds (it holds one of the extremes).
    func boundsDepend(on other: SummaryAggregate) -> Bool {
        guard let otherStart = other.start, let start, let end, let lastDate else { return false }
        return otherStart <= start || other.end! >= end || other.lastDate! >= lastDate
    }

    /// The public derived values.
    var values: SummaryValues {
        let progress =
            activityCount == 0
            ? 0 : Double(progressSum) / SummaryAggregate.progressScale / Double(activityCount)
        return SummaryValues(start: start, end: end, lastDate: lastDate, progress: progress)
    }
}
