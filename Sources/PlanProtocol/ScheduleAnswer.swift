import ChronoSketchCore

/// The answer to a `schedule` request (scheduling.md §6): a version's finish and the figures
/// of the scheduled tasks asked for.
public struct ScheduleAnswer: Sendable, Hashable {
    /// One task's figures.
    public struct Row: Sendable, Hashable {
        /// The task's id.
        public var id: String
        /// Its late dates, slack and criticality.
        public var figures: ScheduleFigures.Task

        /// Creates a row.
        public init(id: String, figures: ScheduleFigures.Task) {
            self.id = id
            self.figures = figures
        }
    }

    /// The plan.
    public var plan: String
    /// The version the figures are of.
    public var version: Int
    /// The latest end of a scheduled task; nil with none.
    public var finish: CivilDate?
    /// The tasks asked for that are scheduled, in the order asked (every scheduled task in
    /// input order when no ids were given).
    public var tasks: [Row]

    /// Creates an answer from its parts.
    public init(plan: String, version: Int, finish: CivilDate?, tasks: [Row]) {
        self.plan = plan
        self.version = version
        self.finish = finish
        self.tasks = tasks
    }

    /// The answer for `ids` (nil: every scheduled task, in input order): ids naming no scheduled
    /// activity or milestone, and repeated ids, are left out.
    public init(plan: String, version: Int, figures: ScheduleFigures, ids: [String]?) {
        let asked = ids ?? figures.order
        var seen = Set<String>()
        let rows = asked.compactMap { id -> Row? in
            guard let task = figures[id], seen.insert(id).inserted else { return nil }
            return Row(id: id, figures: task)
        }
        self.init(plan: plan, version: version, finish: figures.finish, tasks: rows)
    }

    /// Writes `"plan":…,"version":…,"finish":…,"tasks":{…}` into an object the caller opened.
    func encodeMembers(into writer: inout JSONWriter) {
        writer.member("plan", plan)
        writer.key("version")
        writer.number(version)
        writer.key("finish")
        if let finish { writer.date(finish) } else { writer.null() }
        writer.key("tasks")
        writer.beginObject()
        for row in tasks {
            writer.key(row.id)
            writer.beginObject()
            writer.key("lateStart")
            writer.date(row.figures.lateStart)
            writer.key("lateFinish")
            writer.date(row.figures.lateFinish)
            writer.key("slack")
            writer.number(row.figures.slack)
            writer.key("critical")
            writer.bool(row.figures.critical)
            writer.endObject()
        }
        writer.endObject()
    }

    /// Reads the members of a `schedule` answer.
    init(_ object: JSONObjectReader) throws(DecodingFailure) {
        var finish: CivilDate?
        if try object.optionalString("finish") != nil {
            finish = try CivilDate(json: object, key: "finish", code: .badMessage)
        }
        let tasks = try object.object("tasks")
        var rows: [Row] = []
        for (id, value) in tasks.members {
            let task = try JSONObjectReader(value, path: tasks.path(id))
            rows.append(
                Row(
                    id: id,
                    figures: ScheduleFigures.Task(
                        lateStart: try CivilDate(json: task, key: "lateStart", code: .badMessage),
                        lateFinish: try CivilDate(json: task, key: "lateFinish", code: .badMessage),
                        slack: try task.integer("slack"))))
        }
        self.init(plan: try object.string("plan"), version: try object.integer("version"), finish: finish, tasks: rows)
    }
}
