/// Working-day arithmetic over one calendar in O(log holidays) per call, never day by day
/// (scheduling.md §3 and §9).
///
/// Every day has a *position*: the number of working days from 0001-01-01 (day 0, a Monday) up
/// to it, itself excluded, so `W(a, b) = position(b) − position(a)`. Without holidays the
/// position is whole weeks times the working days of a week plus the working weekdays before the
/// day's own; each holiday on a working weekday before the day takes one off (binary search).
/// The inverse, the working day at a position, counts the holidays it must step over by a
/// binary search on `holiday's raw position − its index`, which never decreases.
///
/// Day numbers are plain integers here, so arithmetic may pass years 1…9999; the `CivilDate`
/// entry points say when a result leaves them.
public struct WorkingTime: Sendable {
    /// The calendar this arithmetic serves.
    public let calendar: PlanCalendar
    /// Working weekdays per week.
    private let perWeek: Int
    /// `before[r]`: working weekdays among the first `r` weekdays of a week (Monday first), r = 0…7.
    private let before: [Int]
    /// The working weekdays' offsets from Monday (0…6), ascending.
    private let offsets: [Int]
    /// Day numbers of the holidays that fall on working weekdays (the only ones that count).
    private let holidayDays: [Int]
    /// For each such holiday, its position without holidays minus its index (never decreasing).
    private let holidaySteps: [Int]

    /// Prepares the arithmetic of `calendar`.
    public init(_ calendar: PlanCalendar) {
        self.calendar = calendar
        let working = (0..<7).map { calendar.workingDays.contains($0 + 1) }
        var before = [0]
        for weekday in 0..<7 { before.append(before[weekday] + (working[weekday] ? 1 : 0)) }
        self.before = before
        perWeek = before[7]
        offsets = (0..<7).filter { working[$0] }
        holidayDays = calendar.holidays.map(\.dayNumber).filter { working[WorkingTime.weekdayOffset($0)] }
        var steps: [Int] = []
        steps.reserveCapacity(holidayDays.count)
        for (index, day) in holidayDays.enumerated() {
            steps.append(WorkingTime.floorDivision(day, 7) * perWeek + before[WorkingTime.weekdayOffset(day)] - index)
        }
        holidaySteps = steps
    }

    // MARK: Positions

    /// Working days from day 0 up to `day` (excluded); negative before day 0.
    public func position(ofDay day: Int) -> Int {
        rawPosition(day) - holidayDays.insertionIndex(of: day)
    }

    /// The working day at `position`: the first day whose position is `position` and that is worked.
    public func day(atPosition position: Int) -> Int {
        // Holidays whose step is at most `position` lie before the answer: skip that many more.
        let skipped = holidaySteps.upperBoundIndex(of: position)
        let raw = position + skipped
        return WorkingTime.floorDivision(raw, perWeek) * 7 + offsets[WorkingTime.floorModulo(raw, perWeek)]
    }

    /// Whether `day` is worked.
    public func isWorking(day: Int) -> Bool {
        position(ofDay: day + 1) > position(ofDay: day)
    }

    /// `W(a, b)`: working days `d` with `a ≤ d < b`, negated when `b < a`.
    public func workingDays(from start: Int, to end: Int) -> Int {
        position(ofDay: end) - position(ofDay: start)
    }

    /// `W(a, b)` on dates.
    public func workingDays(from start: CivilDate, to end: CivilDate) -> Int {
        workingDays(from: start.dayNumber, to: end.dayNumber)
    }

    /// The first working day on or after `day`.
    public func workingDay(onOrAfter day: Int) -> Int {
        self.day(atPosition: position(ofDay: day))
    }

    // MARK: Tasks

    /// `s ⊕ n`: the day after the `n`-th working day counted from the working day `start`
    /// (`n ≥ 1`); `start` itself for `n = 0`.
    public func end(placingFrom start: Int, workingDays count: Int) -> Int {
        count == 0 ? start : day(atPosition: position(ofDay: start) + count - 1) + 1
    }

    /// `n(T)`: a milestone 0, an activity `max(1, W(start, end))`; nil for summaries and
    /// unscheduled activities, which the calendar does not place.
    public func workingDuration(of kind: GanttTaskKind) -> Int? {
        switch kind {
        case .milestone: 0
        case .activity(let schedule?, _): max(1, workingDays(from: schedule.start, to: schedule.end))
        case .activity(nil, _), .summary: nil
        }
    }

    /// `kind` placed on the working day `start` keeping its working duration `count`; nil when
    /// the result leaves years 1…9999 (or `kind` is not placed by the calendar).
    public func placing(_ kind: GanttTaskKind, on start: Int, workingDays count: Int) -> GanttTaskKind? {
        switch kind {
        case .milestone:
            guard let date = try? CivilDate(dayNumber: start) else { return nil }
            return .milestone(date: date)
        case .activity(_?, let progress):
            let end = self.end(placingFrom: start, workingDays: count)
            guard let first = try? CivilDate(dayNumber: start), let after = try? CivilDate(dayNumber: end),
                let schedule = try? TaskSchedule(start: first, end: after)
            else { return nil }
            return .activity(schedule: schedule, progress: progress)
        case .activity(nil, _), .summary:
            return nil
        }
    }

    // MARK: Helpers

    /// The position of `day` as if there were no holidays.
    private func rawPosition(_ day: Int) -> Int {
        WorkingTime.floorDivision(day, 7) * perWeek + before[WorkingTime.weekdayOffset(day)]
    }

    /// 0 for Monday … 6 for Sunday (day 0 is a Monday).
    private static func weekdayOffset(_ day: Int) -> Int { floorModulo(day, 7) }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        value - floorDivision(value, divisor) * divisor
    }
}

extension Array where Element: Comparable {
    /// The number of elements not greater than `value` in this ascending array (binary search).
    func upperBoundIndex(of value: Element) -> Int {
        partitionIndex { $0 <= value }
    }
}
