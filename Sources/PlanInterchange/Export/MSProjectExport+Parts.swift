import ChronoSketchCore

extension MSProjectExport {
    /// Calendar UID 1 "Standard": the plan's working weekdays (08:00–12:00 and 13:00–17:00) and
    /// each run of consecutive holidays as one non-working `Exception`.
    static func writeCalendar(_ calendar: PlanCalendar, into xml: inout XMLWriter) {
        xml.open("Calendars")
        xml.open("Calendar")
        xml.leaf("UID", "1")
        xml.leaf("Name", "Standard")
        xml.leaf("IsBaseCalendar", "1")
        xml.leaf("BaseCalendarUID", "-1")
        xml.open("WeekDays")
        for dayType in 1...7 {
            // MSPDI 1 = Sunday … 7 = Saturday; ISO 7 = Sunday.
            let iso = dayType == 1 ? 7 : dayType - 1
            let working = calendar.workingDays.contains(iso)
            xml.open("WeekDay")
            xml.leaf("DayType", String(dayType))
            xml.leaf("DayWorking", working ? "1" : "0")
            if working {
                xml.open("WorkingTimes")
                for (from, to) in [("08:00:00", "12:00:00"), ("13:00:00", "17:00:00")] {
                    xml.open("WorkingTime")
                    xml.leaf("FromTime", from)
                    xml.leaf("ToTime", to)
                    xml.close("WorkingTime")
                }
                xml.close("WorkingTimes")
            }
            xml.close("WeekDay")
        }
        xml.close("WeekDays")
        let runs = holidayRuns(calendar.holidays)
        if !runs.isEmpty {
            xml.open("Exceptions")
            for run in runs {
                xml.open("Exception")
                xml.leaf("EnteredByOccurrences", "0")
                xml.open("TimePeriod")
                xml.leaf("FromDate", "\(run.first)T00:00:00")
                xml.leaf("ToDate", "\(run.last)T23:59:00")
                xml.close("TimePeriod")
                xml.leaf("Occurrences", String(run.last.dayNumber - run.first.dayNumber + 1))
                xml.leaf("Name", "Holiday")
                xml.leaf("Type", "1")
                xml.leaf("DayWorking", "0")
                xml.close("Exception")
            }
            xml.close("Exceptions")
        }
        xml.close("Calendar")
        xml.close("Calendars")
    }

    /// Sorted holidays as runs of consecutive days.
    static func holidayRuns(_ holidays: [CivilDate]) -> [(first: CivilDate, last: CivilDate)] {
        var runs: [(first: CivilDate, last: CivilDate)] = []
        for day in holidays {
            if let last = runs.last?.last, last.dayNumber + 1 == day.dayNumber {
                runs[runs.count - 1].last = day
            } else {
                runs.append((day, day))
            }
        }
        return runs
    }

    /// Resources `UID` from 1, then each assignment of an entry that belongs to a task as an MSPDI
    /// `Assignment` (the entry's interval, whole units). An entry of no task cannot be one: an
    /// MSPDI assignment needs a task, so it is reported and left out.
    static func writeResources(
        _ state: PlanState, taskUIDs: [String: String], into xml: inout XMLWriter, log: inout WarningLog
    ) {
        let timeline = state.timeline
        let uids = numbers(for: timeline.resources.map(\.id))
        xml.open("Resources")
        for resource in timeline.resources {
            xml.open("Resource")
            xml.leaf("UID", uids[resource.id]!)
            xml.leaf("ID", uids[resource.id]!)
            xml.leaf("Name", resource.label)
            xml.leaf("Type", "1")
            xml.close("Resource")
        }
        xml.close("Resources")
        var written = 0
        for entry in timeline.entries {
            guard let task = state.entryTasks[entry: entry.id], let taskUID = taskUIDs[task] else {
                log.add(
                    "entryWithoutTask",
                    "the booking \"\(entry.title)\" (\(entry.id)) belongs to no task and is not written")
                continue
            }
            for assignment in timeline.assignments(ofEntry: entry.id) {
                if written == 0 { xml.open("Assignments") }
                written += 1
                // The schema's order: UID, TaskUID, ResourceUID, …, Finish, …, Start, …, Units.
                xml.open("Assignment")
                xml.leaf("UID", String(written))
                xml.leaf("TaskUID", taskUID)
                xml.leaf("ResourceUID", uids[assignment.resourceID]!)
                xml.leaf("Finish", "\(entry.end):00")
                xml.leaf("Start", "\(entry.start):00")
                xml.leaf("Units", "1")
                xml.close("Assignment")
            }
        }
        if written > 0 { xml.close("Assignments") }
    }
}

/// Writes indented XML, escaping text and attribute values.
struct XMLWriter {
    var output: ExportOutput
    private var depth = 0

    init(_ output: ExportOutput) {
        self.output = output
        self.output.write("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n")
    }

    mutating func open(_ name: String, attributes: [(String, String)] = []) {
        let attributeText = attributes.map { " \($0.0)=\"\(XMLWriter.escaped($0.1))\"" }.joined()
        output.write(String(repeating: "  ", count: depth) + "<\(name)\(attributeText)>\n")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        output.write(String(repeating: "  ", count: depth) + "</\(name)>\n")
    }

    mutating func leaf(_ name: String, _ value: String) {
        output.write(String(repeating: "  ", count: depth) + "<\(name)>\(XMLWriter.escaped(value))</\(name)>\n")
    }

    /// `&`, `<`, `>`, `"` escaped; other control characters than tab and line breaks written as
    /// character references are not allowed in XML 1.0, so they are dropped.
    static func escaped(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20, scalar != "\t", scalar != "\n" { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
