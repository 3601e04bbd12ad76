import ChronoSketchCore

/// The calendar of a GanttProject `.gan` file as a plan calendar (interchange.md §5): the weekend
/// of `default-week` (or none with "tasks can run on weekends"), and the `date` holidays, a date
/// without a year being a yearly holiday expanded over the plan's years.
enum GanttProjectCalendar {
    /// `default-week` attributes, Monday first (ISO 1…7).
    static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The calendar; `years` are the years yearly holidays are expanded over.
    static func read(_ project: XMLElement, years: ClosedRange<Int>?, log: inout WarningLog) -> PlanCalendar {
        let calendars = project.child("calendars")
        let dayTypes = calendars?.child("day-types")
        var workingDays = Array(1...5)
        if let week = dayTypes?.child("default-week") {
            // "1" marks a weekend (non-working) day.
            workingDays = (1...7).filter { week.attributes[weekdayNames[$0 - 1]] != "1" }
        }
        if dayTypes?.child("only-show-weekends")?.attributes["value"] == "true" { workingDays = Array(1...7) }
        if workingDays.isEmpty { workingDays = Array(1...7) }
        var holidays: Set<CivilDate> = []
        var generated = 0
        for date in calendars?.children("date") ?? [] {
            guard generated < MSProjectCalendar.maxExceptionDays else {
                log.add(
                    "holidaysDropped",
                    "the calendar holds more than \(MSProjectCalendar.maxExceptionDays) dates: the rest are not read")
                break
            }
            let type = date.attributes["type"] ?? "HOLIDAY"
            guard let month = Int(date.attributes["month"] ?? ""), let day = Int(date.attributes["date"] ?? "") else {
                continue
            }
            var days: [CivilDate] = []
            if let year = date.attributes["year"].flatMap({ Int($0) }) {
                days = (try? CivilDate(year: year, month: month, day: day)).map { [$0] } ?? []
            } else if let years, type == "HOLIDAY" {
                days = years.compactMap { try? CivilDate(year: $0, month: month, day: day) }
                log.add(
                    "recurringHoliday",
                    "the yearly holiday on \(month)/\(day) is held as dates from \(years.lowerBound) to \(years.upperBound)"
                )
            }
            generated += days.count
            switch type {
            case "HOLIDAY":
                for holiday in days where workingDays.contains(holiday.isoWeekday) { holidays.insert(holiday) }
            case "WORKING_DAY":
                for working in days where !workingDays.contains(working.isoWeekday) {
                    log.add("workingException", "the working day \(working) falls on a weekend and cannot be held")
                }
            default:
                break
            }
        }
        var sorted = holidays.sorted()
        if sorted.count > PlanCalendar.maximumHolidays {
            sorted = Array(sorted.prefix(PlanCalendar.maximumHolidays))
            log.add("holidaysDropped", "more than \(PlanCalendar.maximumHolidays) holidays: the latest are dropped")
        }
        return (try? PlanCalendar(workingDays: workingDays, holidays: sorted)) ?? .allDaysWorking
    }
}
