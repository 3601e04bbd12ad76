import ChronoSketchCore

/// The project calendar of an MSPDI file as a plan calendar (interchange.md §5): working weekdays
/// and non-working exception days, a derived calendar inheriting from its base, both exception
/// forms (the 2007+ `Exceptions` with their recurrences and the legacy `WeekDay` `DayType` 0
/// periods) read and merged.
struct MSProjectCalendar {
    /// Working weekdays, Sunday 0 … Saturday 6.
    var working: [Bool] = [false, true, true, true, true, true, false]
    /// Exception days: whether each is a working day.
    var exceptions: [CivilDate: Bool] = [:]
    /// Whether alternate work weeks were met (not held).
    var hasWorkWeeks = false
    /// Whether exception days beyond `maxExceptionDays` were left out.
    var truncated = false

    /// The most exception days read from one file (exceptions spanning centuries add up to a lot).
    static let maxExceptionDays = 400_000

    /// The calendar named by `Project/CalendarUID`, else the one named "Standard", else Monday to
    /// Friday without exceptions.
    static func projectCalendar(of project: XMLElement) -> MSProjectCalendar {
        let calendars = project.child("Calendars")?.children("Calendar") ?? []
        var byUID: [Int: XMLElement] = [:]
        for calendar in calendars { if let uid = calendar.integer("UID") { byUID[uid] = calendar } }
        let chosen =
            project.integer("CalendarUID").flatMap { byUID[$0] }
            ?? calendars.first { $0.value("Name")?.trimmingSpaces == "Standard" }
        guard let chosen else { return MSProjectCalendar() }
        return resolve(chosen, byUID: byUID, depth: 0)
    }

    /// A calendar with what it inherits: its base's weekdays and exceptions, overridden by its own.
    private static func resolve(_ element: XMLElement, byUID: [Int: XMLElement], depth: Int) -> MSProjectCalendar {
        var calendar = MSProjectCalendar()
        if depth < 16, let baseUID = element.integer("BaseCalendarUID"), baseUID >= 0, let base = byUID[baseUID],
            base != element
        {
            calendar = resolve(base, byUID: byUID, depth: depth + 1)
        }
        for weekDay in element.child("WeekDays")?.children("WeekDay") ?? [] {
            let type = weekDay.integer("DayType") ?? -1
            if (1...7).contains(type) {
                calendar.working[type - 1] = weekDay.flag("DayWorking")
            } else if type == 0, let period = weekDay.child("TimePeriod") {
                // The legacy form: a range of exception days.
                calendar.addRange(
                    from: MSProjectDates.date(period.value("FromDate")),
                    to: MSProjectDates.date(period.value("ToDate")),
                    working: weekDay.flag("DayWorking"))
            }
        }
        for exception in element.child("Exceptions")?.children("Exception") ?? [] {
            guard let recurrence = MSProjectRecurrence(exception) else { continue }
            guard calendar.exceptions.count < maxExceptionDays else {
                calendar.truncated = true
                break
            }
            for day in recurrence.days() { calendar.exceptions[day] = recurrence.working }
        }
        if !(element.child("WorkWeeks")?.children("WorkWeek").isEmpty ?? true) { calendar.hasWorkWeeks = true }
        return calendar
    }

    /// Every day from `from` to `to` (inclusive) as an exception.
    private mutating func addRange(from: CivilDate?, to: CivilDate?, working: Bool) {
        guard let from, let to, from <= to else { return }
        guard exceptions.count < MSProjectCalendar.maxExceptionDays else {
            truncated = true
            return
        }
        var day = from
        for _ in 0..<MSProjectRecurrence.maxDays {
            exceptions[day] = working
            guard day < to, let next = try? day.adding(days: 1) else { return }
            day = next
        }
    }

    /// The plan calendar: ISO working weekdays, and the non-working exceptions on working weekdays
    /// as holidays — the `limit` nearest to `span` when there are more. Losses go to `log`.
    func planCalendar(near span: ClosedRange<CivilDate>?, log: inout WarningLog) -> PlanCalendar {
        // ISO 1 Monday … 7 Sunday; Sunday is index 0 here.
        let workingDays = (1...7).filter { working[$0 % 7] }
        var holidays: [CivilDate] = []
        for (day, isWorking) in exceptions.sorted(by: { $0.key < $1.key }) {
            let weekdayWorks = working[MSProjectDates.sundayIndex(day)]
            if isWorking, !weekdayWorks {
                log.add("workingException", "the working day \(day) falls on a non-working weekday and cannot be held")
            } else if !isWorking, weekdayWorks {
                holidays.append(day)
            }
        }
        if hasWorkWeeks {
            log.add("workWeeks", "alternate work weeks of the project calendar are not held")
        }
        let limit = PlanCalendar.maximumHolidays
        if truncated {
            log.add(
                "holidaysDropped",
                "the calendar's exceptions cover more than \(MSProjectCalendar.maxExceptionDays) days: the rest are not read"
            )
        }
        if holidays.count > limit {
            let center = span.map { ($0.lowerBound.dayNumber + $0.upperBound.dayNumber) / 2 } ?? 0
            holidays = Array(holidays.sorted { abs($0.dayNumber - center) < abs($1.dayNumber - center) }.prefix(limit))
                .sorted()
            log.add(
                "holidaysDropped",
                "the calendar has more than \(limit) holidays: the \(limit) nearest to the tasks are kept")
        }
        guard !workingDays.isEmpty, let calendar = try? PlanCalendar(workingDays: workingDays, holidays: holidays)
        else {
            log.add(
                "workingException", "the project calendar has no working weekday: every weekday is taken as working")
            return PlanCalendar.allDaysWorking
        }
        return calendar
    }
}
