// JSON coding of plan settings as scheduling.md §1.

extension PlanSettings: JSONEncodable {
    /// Decodes `{"scheduling":…,"calendar":{"workingDays":[…],"holidays":[…]}}`: an absent member
    /// is its default, unknown members are ignored. A wrong JSON type or a mode other than the two
    /// is `badMessage`; a well-formed calendar that breaks a rule (no working day, a weekday out
    /// of 1…7 or listed twice, a holiday that is no real date or listed twice, over 1000
    /// holidays) is `invalidCalendar`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        var scheduling = SchedulingMode.manual
        if let mode = try object.optionalString("scheduling") {
            guard let known = SchedulingMode(rawValue: mode) else {
                throw object.failure("scheduling", "expected \"manual\" or \"automatic\", found \"\(mode)\"")
            }
            scheduling = known
        }
        var calendar = PlanCalendar.allDaysWorking
        if let members = try object.optionalObject("calendar") {
            calendar = try PlanSettings.calendar(members)
        }
        self.init(scheduling: scheduling, calendar: calendar)
    }

    private static func calendar(_ object: JSONObjectReader) throws(DecodingFailure) -> PlanCalendar {
        var workingDays = Array(1...7)
        if object.isPresent("workingDays") {
            workingDays = try object.map("workingDays") { value, path throws(DecodingFailure) in
                guard case .number(let number) = value else {
                    throw DecodingFailure(path: path, reason: "expected a number, found \(value.typeName)")
                }
                guard number.rounded() == number, abs(number) < 1e6 else {
                    throw DecodingFailure(
                        code: .invalidCalendar, path: path,
                        reason: "\(number) is not an ISO weekday (1 = Monday … 7 = Sunday)")
                }
                return Int(number)
            }
        }
        var holidays: [CivilDate] = []
        if object.isPresent("holidays") {
            holidays = try object.map("holidays") { value, path throws(DecodingFailure) in
                guard case .string(let text) = value else {
                    throw DecodingFailure(path: path, reason: "expected a string, found \(value.typeName)")
                }
                guard let date = try? CivilDate(text) else {
                    throw DecodingFailure(
                        code: .invalidCalendar, path: path,
                        reason: "\"\(text)\" is not a real date YYYY-MM-DD in years 1…9999")
                }
                return date
            }
        }
        do {
            return try PlanCalendar(workingDays: workingDays, holidays: holidays)
        } catch {
            throw DecodingFailure(code: .invalidCalendar, path: object.path, reason: error.description)
        }
    }

    /// Writes every member, both arrays sorted ascending.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("scheduling")
        writer.string(scheduling.rawValue)
        writer.key("calendar")
        writer.beginObject()
        writer.key("workingDays")
        writer.beginArray()
        for day in calendar.workingDays { writer.number(day) }
        writer.endArray()
        writer.key("holidays")
        writer.beginArray()
        for date in calendar.holidays { writer.date(date) }
        writer.endArray()
        writer.endObject()
        writer.endObject()
    }
}
