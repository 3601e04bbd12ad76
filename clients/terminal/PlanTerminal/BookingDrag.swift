import ChronoSketchCore
import PlanProtocol

/// A booking dragged in time on the resources view with the mouse, as a value: the press on a
/// bar begins it with the booking as confirmed, each motion sets how many cells it moves, and the
/// release gives the one proposal (`timeline.apply` from the confirmed booking to the moved one,
/// its length and resources kept; nothing when it did not move). As with `BarDrag`, nothing moves
/// on screen before the server confirms it: a ghost shows where it would go.
public struct BookingDrag: Sendable, Hashable {
    /// The booking as confirmed when the press began the drag (the proposal's `original`).
    public let target: TimelineAssignedEntry
    /// The chart cell under the pointer at the press.
    public let pressCell: Int
    /// The minutes one cell stands for at the zoom of the press.
    public let minutesPerCell: Double
    /// The minutes the booking moves (negative: earlier), whole quarter hours.
    public private(set) var minutes = 0
    /// The proposal sent on the release, until the server answers it (the ghost stays till then).
    public internal(set) var proposalID: String?

    /// The quarter hour every move is a multiple of.
    public static let step = 15

    /// A drag of `target` pressed at chart cell `pressCell`, one cell being `minutesPerCell`.
    public init(target: TimelineAssignedEntry, pressCell: Int, minutesPerCell: Double) {
        self.target = target
        self.pressCell = pressCell
        self.minutesPerCell = minutesPerCell
    }

    /// The pointer is over chart cell `cell` now: the move is whole cells, rounded to quarter hours.
    public mutating func move(toCell cell: Int) {
        let raw = Double(cell - pressCell) * minutesPerCell / Double(BookingDrag.step)
        minutes = Int(raw.rounded()) * BookingDrag.step
    }

    /// The booking moved by `minutes`, its length kept; nil when it did not move (or would leave
    /// the calendar).
    public var moved: TimelineAssignedEntry? {
        guard minutes != 0 else { return nil }
        let entry = target.entry
        guard let start = LocalDateTime(minuteNumber: entry.start.minuteNumber + minutes),
            let end = LocalDateTime(minuteNumber: entry.end.minuteNumber + minutes),
            let shifted = try? entry.with(start: start, end: end)
        else { return nil }
        var proposed = target
        proposed.entry = shifted
        return proposed
    }

    /// The proposal the release sends: nil when the booking did not move.
    public var proposal: PlanOperation? {
        moved.map { .timelineApply(original: target, proposed: $0) }
    }
}

/// What lies under the pointer in the resources view: the resource row of a screen line and the
/// booking whose bar covers the cell there. A pure function of the lanes on screen.
public enum ResourcePointer {
    /// The row and (when a bar covers `cell` on that lane) the assignment under chart line `line`
    /// (0 the first resource line) and chart cell `cell` (negative: the name column), given the
    /// visible rows from the top with their lanes; nil below the last row.
    public static func hit(rows: [(row: Int, lanes: ResourceLanes)], line: Int, cell: Int) -> (
        row: Int, assignmentID: String?
    )? {
        guard line >= 0 else { return nil }
        var top = 0
        for (row, lanes) in rows {
            let lane = line - top
            top += lanes.laneCount
            guard line < top else { continue }
            let bar = lanes.placements.first { $0.lane == lane && $0.item.start <= cell && cell < $0.item.end }
            return (row, bar?.item.id)
        }
        return nil
    }
}
