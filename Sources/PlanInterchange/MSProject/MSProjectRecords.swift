/// The rows of an MSPDI file's three large tables — tasks, resources and assignments — held as
/// the few fields the importer reads, each taken as its element closes, so that a file of 50,000
/// tasks never lives in memory as a document (interchange.md §11).
struct MSProjectRecords {
    /// A `Tasks/Task` row.
    struct Task {
        var line = 0
        var uid: Int?
        /// `ID`: the row number, which orders the rows.
        var rowNumber: Int?
        var outlineLevel: Int?
        var isNull = false
        var name: String?
        var isSummary = false
        var isMilestone = false
        var start: String?
        var finish: String?
        var percentComplete: Double?
        /// Whether `Duration` is above zero.
        var hasDuration = false
        var links: [Link] = []
    }

    /// A task's `PredecessorLink`.
    struct Link {
        var predecessorUID: Int?
        var isCrossProject = false
        var type: Int?
        var lag: Double?
        var lagFormat: Int?
    }

    /// A `Resources/Resource` row.
    struct Resource {
        var uid: Int?
        var isNull = false
        var name: String?
    }

    /// An `Assignments/Assignment` row.
    struct Assignment {
        var uid: Int?
        var resourceUID: Int?
        var taskUID: Int?
        var start: String?
        var finish: String?
        var units: Double?
    }

    /// The element names read as records (two levels below `Project`).
    static let names: Set<String> = ["Task", "Resource", "Assignment"]

    private(set) var tasks: [Task] = []
    private(set) var resources: [Resource] = []
    private(set) var assignments: [Assignment] = []

    /// No rows yet.
    init() {}

    /// The rows of a whole parsed document.
    init(of project: XMLElement) {
        for table in project.children where ["Tasks", "Resources", "Assignments"].contains(table.name) {
            for row in table.children { add(row) }
        }
    }

    /// Takes one row; an element of another name is ignored.
    mutating func add(_ element: XMLElement) {
        switch element.name {
        case "Task": tasks.append(Self.task(element))
        case "Resource":
            resources.append(
                Resource(uid: element.integer("UID"), isNull: element.flag("IsNull"), name: element.value("Name")))
        case "Assignment":
            assignments.append(
                Assignment(
                    uid: element.integer("UID"), resourceUID: element.integer("ResourceUID"),
                    taskUID: element.integer("TaskUID"), start: element.value("Start"),
                    finish: element.value("Finish"), units: element.number("Units")))
        default: break
        }
    }

    private static func task(_ element: XMLElement) -> Task {
        Task(
            line: element.line, uid: element.integer("UID"), rowNumber: element.integer("ID"),
            outlineLevel: element.integer("OutlineLevel"), isNull: element.flag("IsNull"), name: element.value("Name"),
            isSummary: element.flag("Summary"), isMilestone: element.flag("Milestone"), start: element.value("Start"),
            finish: element.value("Finish"), percentComplete: element.number("PercentComplete"),
            hasDuration: MSProjectTasks.isPositive(duration: element.value("Duration")),
            links: element.children("PredecessorLink").map { link in
                Link(
                    predecessorUID: link.integer("PredecessorUID"), isCrossProject: link.flag("CrossProject"),
                    type: link.integer("Type"), lag: link.number("LinkLag"), lagFormat: link.integer("LagFormat"))
            })
    }
}
