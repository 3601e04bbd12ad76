import ChronoSketchCore
import PlanProtocol

/// A bar dragged on the timeline with the mouse, as a value: the press on a bar begins it with the
/// task as confirmed, each motion sets how many days it moves, and the release gives the one
/// proposal (`replace` from the confirmed task to the moved one; nothing when it did not move).
/// Nothing moves on screen before the server confirms it, as in the web client: the bar stays
/// where it was confirmed until the `ack`, a rejection says why.
public struct BarDrag: Sendable, Hashable {
    /// The task as confirmed when the press began the drag (the proposal's `previous`).
    public let task: GanttTask
    /// The day number under the pointer at the press.
    public let pressDay: Int
    /// The days the bar moves (negative: earlier), from the pointer's last position.
    public private(set) var days = 0
    /// The proposal sent on the release, until the server answers it (the ghost stays till then).
    public internal(set) var proposalID: String?

    /// A drag of `task` pressed at `date`: only an activity with dates or a milestone moves, and
    /// only when pressed on its bar or diamond (within `reach` days of it, for coarse zooms where
    /// a cell holds several days).
    public init?(task: GanttTask, pressedAt date: CivilDate, reach: Int = 0) {
        switch task.kind {
        case .activity(let schedule?, _):
            guard schedule.start.dayNumber - reach <= date.dayNumber,
                date.dayNumber <= schedule.lastDate.dayNumber + reach
            else { return nil }
        case .milestone(let day):
            guard abs(day.dayNumber - date.dayNumber) <= max(reach, 1) else { return nil }
        default:
            return nil
        }
        self.task = task
        pressDay = date.dayNumber
    }

    /// The pointer is over `date` now.
    public mutating func move(to date: CivilDate) {
        days = date.dayNumber - pressDay
    }

    /// The task moved by `days`, its length kept; nil when it did not move (or would leave the
    /// calendar).
    public var moved: GanttTask? {
        guard days != 0 else { return nil }
        switch task.kind {
        case .activity(let schedule?, let progress):
            guard let start = try? schedule.start.adding(days: days), let end = try? schedule.end.adding(days: days),
                let moved = try? TaskSchedule(start: start, end: end)
            else { return nil }
            return task.with(kind: .activity(schedule: moved, progress: progress))
        case .milestone(let date):
            guard let moved = try? date.adding(days: days) else { return nil }
            return task.with(kind: .milestone(date: moved))
        default:
            return nil
        }
    }

    /// The moved task's first day (for the footer while dragging).
    public var movedStart: CivilDate? { movedDays?.first }

    /// The moved task's first and last day (a milestone's day twice).
    public var movedDays: (first: CivilDate, last: CivilDate)? {
        switch moved?.kind {
        case .activity(let schedule?, _): (schedule.start, schedule.lastDate)
        case .milestone(let date): (date, date)
        default: nil
        }
    }

    /// The proposal the release sends: nil when the bar did not move.
    public var proposal: PlanOperation? {
        moved.map { .replace(previous: task, proposed: $0) }
    }
}
