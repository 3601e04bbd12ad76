// JSON coding of tasks, dependencies and summary values exactly as protocol.md §3.

extension GanttTask: JSONEncodable {
    /// Decodes a task: `id`, `title`, optional `parentID`, `kind` and the kind's fields.
    ///
    /// A malformed shape is a `badMessage` failure naming the field; an impossible date is
    /// `invalidSchedule`, progress outside 0…100 `invalidProgress`, a blank id `blankID`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let id = try object.string("id")
        let title = try object.string("title")
        let parentID = try object.optionalString("parentID")
        let kindName = try object.string("kind")
        let kind: GanttTaskKind
        switch kindName {
        case "activity":
            let progress = try object.optionalNumber("progress") ?? 0
            if let schedule = try object.optionalObject("schedule") {
                kind = .activity(schedule: try TaskSchedule(json: schedule), progress: progress)
            } else {
                kind = .activity(schedule: nil, progress: progress)
            }
        case "milestone":
            kind = .milestone(date: try CivilDate(json: object, key: "date", code: .invalidSchedule))
        case "summary":
            kind = .summary
        default:
            throw object.failure("kind", "expected \"activity\", \"milestone\" or \"summary\", found \"\(kindName)\"")
        }
        do {
            try self.init(id: id, title: title, parentID: parentID, kind: kind)
        } catch {
            let key = error.code == .invalidProgress ? "progress" : error.code == .blankID ? "id" : "parentID"
            throw object.failure(key, error.message, code: error.code)
        }
    }

    /// Writes the task as a JSON object (`progress` and `parentID` omitted when 0 / nil).
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("title")
        writer.string(title)
        if let parentID {
            writer.key("parentID")
            writer.string(parentID)
        }
        writer.key("kind")
        writer.string(kind.name)
        switch kind {
        case .activity(let schedule, let progress):
            if let schedule {
                writer.key("schedule")
                schedule.encodeJSON(into: &writer)
            }
            writer.key("progress")
            writer.number(progress)
        case .milestone(let date):
            writer.key("date")
            writer.date(date)
        case .summary:
            break
        }
        writer.endObject()
    }
}

extension TaskSchedule: JSONEncodable {
    /// Decodes `{"start":"YYYY-MM-DD","end":"YYYY-MM-DD"}`; bad dates or `end <= start` are
    /// `invalidSchedule`.
    public init(json object: JSONObjectReader) throws(DecodingFailure) {
        let start = try CivilDate(json: object, key: "start", code: .invalidSchedule)
        let end = try CivilDate(json: object, key: "end", code: .invalidSchedule)
        do {
            try self.init(start: start, end: end)
        } catch {
            throw object.failure("end", error.description, code: .invalidSchedule)
        }
    }

    /// Writes `{"start":…,"end":…}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("start")
        writer.date(start)
        writer.key("end")
        writer.date(end)
        writer.endObject()
    }
}

extension CivilDate {
    /// Decodes a required `YYYY-MM-DD` member; a string that is not a real date fails with `code`.
    public init(json object: JSONObjectReader, key: String, code: RejectionCode) throws(DecodingFailure) {
        let text = try object.string(key)
        do {
            try self.init(text)
        } catch {
            throw object.failure(key, "\"\(text)\" is not a real date YYYY-MM-DD in years 1…9999", code: code)
        }
    }
}

extension TaskDependency: JSONEncodable {
    /// Decodes `{"predecessorID":…,"successorID":…,"type":…,"lag":…}` (scheduling.md §2): an
    /// absent type is finish-to-start, an absent lag 0. A type that is not a string or a lag that
    /// is not a number is `badMessage`; another type string, or a fractional or out-of-range lag,
    /// `invalidDependency`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let predecessorID = try object.string("predecessorID")
        let successorID = try object.string("successorID")
        var type = DependencyType.finishToStart
        if let text = try object.optionalString("type") {
            guard let named = DependencyType(rawValue: text) else {
                let known = DependencyType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw object.failure(
                    "type", "\"\(text)\" is not a dependency type (\(known))", code: .invalidDependency)
            }
            type = named
        }
        var lag = 0
        if let number = try object.optionalNumber("lag") {
            guard number.rounded() == number, Double(TaskDependency.lagRange.lowerBound) <= number,
                number <= Double(TaskDependency.lagRange.upperBound)
            else {
                throw object.failure(
                    "lag", "a lag is a whole number of working days in −1000…1000", code: .invalidDependency)
            }
            lag = Int(number)
        }
        self.init(predecessorID: predecessorID, successorID: successorID, type: type, lag: lag)
    }

    /// Writes `{"predecessorID":…,"successorID":…,"type":…,"lag":…}`, every member always.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("predecessorID")
        writer.string(predecessorID)
        writer.key("successorID")
        writer.string(successorID)
        writer.key("type")
        writer.string(type.rawValue)
        writer.key("lag")
        writer.number(lag)
        writer.endObject()
    }
}

extension SummaryValues: JSONEncodable {
    /// Decodes `{"start":…,"end":…,"lastDate":…,"progress":…}` (dates may be null).
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        func date(_ key: String) throws(DecodingFailure) -> CivilDate? {
            guard try object.optionalString(key) != nil else { return nil }
            return try CivilDate(json: object, key: key, code: .badMessage)
        }
        self.init(
            start: try date("start"), end: try date("end"), lastDate: try date("lastDate"),
            progress: try object.number("progress"))
    }

    /// Writes the values, with null dates when the summary has no bounds.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        for (key, date) in [("start", start), ("end", end), ("lastDate", lastDate)] {
            writer.key(key)
            if let date { writer.date(date) } else { writer.null() }
        }
        writer.key("progress")
        writer.number(progress)
        writer.endObject()
    }
}
