/// A checkpoint: the whole plan at one version, kept by the server to rebuild past versions
/// (protocol.md §4.8). Not a wire shape: it is written and read by the store only, in columns —
/// one array per task field, dates as day numbers — which reads several times faster than the
/// import shape's object per task (a past version's cost is mostly reading its checkpoint). The
/// timeline and the baselines keep their import shape. Validated as a whole on reading, like an
/// import.
///
/// `{"format":2,"title":…,"ids":[…],"titles":[…],"parents":[…|null],"kinds":"asm…",
/// "starts":[day|-1],"ends":[day|-1],"progress":[…],"from":[…],"to":[…],"resources":[…],
/// "entries":[…],"assignments":[…],"baselines":[…],"settings":{…},"types":[…],"lags":[…]}`: a
/// kind is `a` (an activity: `starts` and `ends` hold its schedule, -1 when unscheduled), `m` (a
/// milestone: `starts` holds its date) or `s` (a summary); a day is `CivilDate.dayNumber`. The
/// last three came with scheduling; a checkpoint without them holds default settings, and
/// without `types` and `lags` finish-to-start dependencies without lag (they are written only
/// when a dependency differs).
extension PlanDocument {
    /// The checkpoint format this build writes.
    public static let checkpointFormat = 2

    /// The document as a checkpoint.
    public var checkpointJSON: [UInt8] {
        let tasks = state.tasks.tasks
        var writer = JSONWriter(reservingCapacity: 64 + tasks.count * 48)
        writer.beginObject()
        writer.key("format")
        writer.number(PlanDocument.checkpointFormat)
        writer.key("title")
        writer.string(title)
        writeStrings(tasks.map(\.id), "ids", into: &writer)
        writeStrings(tasks.map(\.title), "titles", into: &writer)
        writer.key("parents")
        writer.beginArray()
        for task in tasks {
            if let parent = task.parentID { writer.string(parent) } else { writer.null() }
        }
        writer.endArray()
        writer.key("kinds")
        writer.string(String(tasks.map(\.kind.checkpointLetter)))
        writeDays(\.checkpointStart, "starts", tasks, into: &writer)
        writeDays(\.checkpointEnd, "ends", tasks, into: &writer)
        writer.key("progress")
        writer.beginArray()
        for task in tasks { writer.number(task.progress ?? 0) }
        writer.endArray()
        let dependencies = state.tasks.dependencies
        writeStrings(dependencies.map(\.predecessorID), "from", into: &writer)
        writeStrings(dependencies.map(\.successorID), "to", into: &writer)
        // Types and lags only when one differs from finish-to-start without lag.
        if dependencies.contains(where: { $0.type != .finishToStart || $0.lag != 0 }) {
            writeStrings(dependencies.map(\.type.rawValue), "types", into: &writer)
            writer.key("lags")
            writer.beginArray()
            for dependency in dependencies { writer.number(dependency.lag) }
            writer.endArray()
        }
        encodeTimeline(into: &writer, entryTasks: true)
        writer.key("baselines")
        writer.array(state.baselines)
        writer.key("settings")
        state.settings.encodeJSON(into: &writer)
        writer.endObject()
        return writer.bytes
    }

    private func writeStrings(_ values: [String], _ key: String, into writer: inout JSONWriter) {
        writer.key(key)
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }

    private func writeDays(
        _ day: KeyPath<GanttTaskKind, Int>, _ key: String, _ tasks: [GanttTask], into writer: inout JSONWriter
    ) {
        writer.key(key)
        writer.beginArray()
        for task in tasks { writer.number(task.kind[keyPath: day]) }
        writer.endArray()
    }

    /// Reads a checkpoint: the column format, or (written before it) the import shape.
    /// - Throws: `DecodingFailure` for a checkpoint that does not read or whose data breaks a rule.
    public init(checkpoint bytes: [UInt8]) throws(DecodingFailure) {
        let json: JSONValue
        do { json = try JSONValue(parsing: bytes) } catch {
            throw DecodingFailure(path: "$", reason: error.description)
        }
        let object = try JSONObjectReader(json)
        guard object.isPresent("format") else {
            try self.init(json: json)
            return
        }
        let format = try object.integer("format")
        guard format == PlanDocument.checkpointFormat else {
            throw object.failure("format", "unknown checkpoint format \(format)")
        }
        let tasks = try PlanDocument.checkpointTasks(object)
        let from = try PlanDocument.strings(object, "from")
        let to = try PlanDocument.strings(object, "to")
        guard from.count == to.count else { throw object.failure("to", "expected \(from.count) ids") }
        let dependencies = try PlanDocument.checkpointDependencies(object, from: from, to: to)
        var rest = JSONObject()
        for key in ["title", "resources", "entries", "assignments", "baselines", "settings"] {
            rest[key] = object.members[key]
        }
        // The timeline and the baselines as an import has them; its tasks come from the columns.
        let timeline = try PlanDocument(json: .object(rest), path: "$", checkingEntryTasks: false)
        let state: PlanState
        do {
            let collection = try TaskCollection(tasks, dependencies: dependencies)
            state = PlanState(
                tasks: collection, timeline: timeline.state.timeline, baselines: timeline.state.baselines,
                settings: timeline.state.settings, entryTasks: timeline.state.entryTasks)
        } catch {
            throw DecodingFailure(code: error.code, path: "ids", reason: error.message)
        }
        if let broken = state.brokenEntryTaskLink {
            throw DecodingFailure(code: .invalidDependency, path: "entries", reason: broken)
        }
        self.init(title: timeline.title, state: state)
    }

    private static func checkpointTasks(_ object: JSONObjectReader) throws(DecodingFailure) -> [GanttTask] {
        let ids = try strings(object, "ids")
        let titles = try strings(object, "titles")
        let parents = try object.array("parents")
        let kinds = Array(try object.string("kinds").utf8)
        let starts = try integers(object, "starts")
        let ends = try integers(object, "ends")
        let progress = try object.array("progress")
        for (key, count) in [
            ("titles", titles.count), ("parents", parents.count), ("kinds", kinds.count), ("starts", starts.count),
            ("ends", ends.count), ("progress", progress.count),
        ] where count != ids.count {
            throw object.failure(key, "expected \(ids.count) values, found \(count)")
        }
        var tasks: [GanttTask] = []
        tasks.reserveCapacity(ids.count)
        for index in ids.indices {
            let parent: String?
            switch parents[index] {
            case .null: parent = nil
            case .string(let id): parent = id
            default: throw object.failure("parents", "expected a string or null at \(index)")
            }
            guard case .number(let done) = progress[index] else {
                throw object.failure("progress", "expected a number at \(index)")
            }
            let kind = try taskKind(kinds[index], starts[index], ends[index], done, object, index)
            // Each task's own values are checked with the whole collection's (`init(checkpoint:)`).
            tasks.append(GanttTask(unchecked: ids[index], title: titles[index], parentID: parent, kind: kind))
        }
        return tasks
    }

    private static func taskKind(
        _ letter: UInt8, _ start: Int, _ end: Int, _ progress: Double, _ object: JSONObjectReader, _ index: Int
    ) throws(DecodingFailure) -> GanttTaskKind {
        func date(_ day: Int) throws(DecodingFailure) -> CivilDate {
            guard (CivilDate.earliest.dayNumber...CivilDate.latest.dayNumber).contains(day) else {
                throw object.failure("starts", "no date has the day number \(day) (task \(index))")
            }
            return CivilDate(uncheckedDayNumber: day)
        }
        switch letter {
        case UInt8(ascii: "s"): return .summary
        case UInt8(ascii: "m"): return .milestone(date: try date(start))
        case UInt8(ascii: "a") where start < 0: return .activity(schedule: nil, progress: progress)
        case UInt8(ascii: "a"):
            let (first, after) = (try date(start), try date(end))
            do {
                return .activity(schedule: try TaskSchedule(start: first, end: after), progress: progress)
            } catch {
                throw object.failure("ends", "task \(index): \(error)", code: .invalidSchedule)
            }
        default: throw object.failure("kinds", "unknown kind at \(index)")
        }
    }

    /// The dependencies of the `from`, `to`, `types` and `lags` columns (the last two may be absent).
    private static func checkpointDependencies(_ object: JSONObjectReader, from: [String], to: [String])
        throws(DecodingFailure) -> [TaskDependency]
    {
        guard object.isPresent("types") else {
            return zip(from, to).map { TaskDependency(predecessorID: $0, successorID: $1) }
        }
        let types = try strings(object, "types")
        let lags = try integers(object, "lags")
        guard types.count == from.count, lags.count == from.count else {
            throw object.failure("types", "expected \(from.count) types and lags")
        }
        return try from.indices.map { index throws(DecodingFailure) in
            guard let type = DependencyType(rawValue: types[index]) else {
                throw object.failure("types", "unknown dependency type \"\(types[index])\"")
            }
            return TaskDependency(predecessorID: from[index], successorID: to[index], type: type, lag: lags[index])
        }
    }

    private static func strings(_ object: JSONObjectReader, _ key: String) throws(DecodingFailure) -> [String] {
        try object.array(key).enumerated().map { index, value throws(DecodingFailure) in
            guard case .string(let text) = value else { throw object.failure(key, "expected a string at \(index)") }
            return text
        }
    }

    private static func integers(_ object: JSONObjectReader, _ key: String) throws(DecodingFailure) -> [Int] {
        try object.array(key).enumerated().map { index, value throws(DecodingFailure) in
            guard case .number(let number) = value, number == number.rounded(), abs(number) <= 0x1p53 else {
                throw object.failure(key, "expected an integer at \(index)")
            }
            return Int(number)
        }
    }
}

extension GanttTaskKind {
    /// The kind's letter in a checkpoint.
    var checkpointLetter: Character {
        switch self {
        case .activity: "a"
        case .milestone: "m"
        case .summary: "s"
        }
    }

    /// A checkpoint's `starts` value: the schedule's start or the milestone's date, else -1.
    var checkpointStart: Int {
        switch self {
        case .activity(let schedule?, _): schedule.start.dayNumber
        case .milestone(let date): date.dayNumber
        default: -1
        }
    }

    /// A checkpoint's `ends` value: the schedule's end, else -1.
    var checkpointEnd: Int {
        if case .activity(let schedule?, _) = self { return schedule.end.dayNumber }
        return -1
    }
}
