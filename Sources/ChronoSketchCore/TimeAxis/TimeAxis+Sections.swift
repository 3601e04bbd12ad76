extension TimeAxis {
    /// The month header row: one section per calendar month, with exact civil boundaries clipped
    /// to the horizon, left to right.
    ///
    /// With `columns`, only the sections overlapping those columns (each still spanning its whole
    /// part of the horizon, so a label can stay at the visible left edge of its section).
    public func monthSections(language: PlanLanguage, overlapping columns: Range<Int>? = nil) -> [AxisSection] {
        sections(overlapping: columns) { day in
            let date = CivilDate(uncheckedDayNumber: day)
            let (year, month, dayOfMonth) = date.components
            let start = day - (dayOfMonth - 1)
            let next = start + CivilCalendar.daysInMonth(year: year, month: month)
            let short = language.shortMonthName(month)
            let label = AxisLabel([
                language.monthName(month) + " " + String(year), short + " " + String(year), short,
            ])
            return (.month(year: year, month: month), start, next, label)
        }
    }

    /// The ISO-week header row: one section per ISO week (Monday to Sunday), with exact civil
    /// boundaries clipped to the horizon, labelled with the week number and its ISO week-year
    /// ("Week 53 2020" / "KW 53 2020" for the week of 2021-01-01), left to right.
    ///
    /// With `columns`, only the sections overlapping those columns, as in `monthSections`.
    public func weekSections(language: PlanLanguage, overlapping columns: Range<Int>? = nil) -> [AxisSection] {
        sections(overlapping: columns) { day in
            let date = CivilDate(uncheckedDayNumber: day)
            let start = day - (date.isoWeekday - 1)
            let (weekYear, week) = date.isoWeek
            let number = String(week)
            let year = String(weekYear)
            let label = AxisLabel([
                language.weekWord + " " + number + " " + year,
                language.shortWeekWord + number + " " + year,
                language.shortWeekWord + number,
                number,
            ])
            return (.isoWeek(weekYear: weekYear, week: week), start, start + 7, label)
        }
    }

    /// Walks the periods covering the requested days. `period(day)` returns the period holding a
    /// day, its first day number and the first day number of the next period.
    private func sections(
        overlapping columns: Range<Int>?,
        period: (Int) -> (AxisPeriod, start: Int, next: Int, label: AxisLabel)
    ) -> [AxisSection] {
        let horizonStart = horizon.start.dayNumber
        let horizonEnd = horizon.end.dayNumber
        var from = horizonStart
        var to = horizonEnd
        if let columns {
            let indexes = clampedColumns(columns)
            guard !indexes.isEmpty else { return [] }
            from = horizonStart + indexes.lowerBound * zoom.daysPerColumn
            to = min(horizonStart + indexes.upperBound * zoom.daysPerColumn, horizonEnd)
        }
        var result: [AxisSection] = []
        var day = from
        while day < to {
            let (kind, start, next, label) = period(day)
            let first = max(start, horizonStart)
            let end = min(next, horizonEnd)
            result.append(
                AxisSection(
                    period: kind, firstDate: CivilDate(uncheckedDayNumber: first),
                    lastDate: CivilDate(uncheckedDayNumber: end - 1),
                    isClippedAtStart: start < horizonStart, isClippedAtEnd: next > horizonEnd,
                    startX: x(ofDayNumber: first), endX: x(ofDayNumber: end), label: label))
            day = next
        }
        return result
    }

    /// The position of a day number's start in column units.
    func x(ofDayNumber day: Int) -> Double {
        Double(day - horizon.start.dayNumber) / Double(zoom.daysPerColumn)
    }
}
