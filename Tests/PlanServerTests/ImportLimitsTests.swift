import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import SystemSupport
import Testing

/// `plan create --import` holds a plan to the limits every later proposal is held to (issue 28,
/// finding 5): an imported task whose title no proposal could name would be stuck forever.
@Suite("plan create --import: the limits of proposals", .database)
struct ImportLimitsTests {
    /// The demo plan with one more task titled `title`, written to a file.
    static func file(title: String) throws -> String {
        var document = Demo.document
        var tasks = document.state.tasks.tasks
        tasks.append(try GanttTask(id: "long", title: title, kind: .activity(schedule: nil, progress: 0)))
        document.state.tasks = try TaskCollection(tasks, dependencies: document.state.tasks.dependencies)
        let path = "/tmp/import-limits-\(UInt32.random(in: 0...UInt32.max)).json"
        try Files.write(document.bytes, to: path)
        return path
    }

    static func create(_ plan: String, _ file: String) -> (status: Int32, output: String) {
        shell("'\(ServerProcess.binary)' plan create '\(plan)' --import '\(file)'")
    }

    @Test("a title over 1,000 scalars is refused with the path and reason; nothing is created; 1,000 is fine")
    func titleLimit() throws {
        let plan = TestDatabase.unique("import-long")
        let over = Self.create(plan, try Self.file(title: String(repeating: "é", count: 1001)))
        #expect(over.status == 1)
        let index = Demo.document.state.tasks.count
        #expect(over.output.contains("tasks[\(index)].title: is longer than 1000 Unicode scalars"), "\(over.output)")
        let export = shell("'\(ServerProcess.binary)' plan export '\(plan)'")
        #expect(export.status == 1 && export.output.contains("no plan"), "nothing was created: \(export.output)")
        let fits = Self.create(plan, try Self.file(title: String(repeating: "é", count: 1000)))
        #expect(fits.status == 0, "\(fits.output)")
    }

    @Test("a plan id over 128 scalars is refused before anything is read")
    func idLimit() {
        let result = shell("'\(ServerProcess.binary)' plan create '\(String(repeating: "p", count: 129))' --title t")
        #expect(result.status == 2 && result.output.contains("the plan id is longer than 128"), "\(result.output)")
    }

    @Test("every kind of value is checked: ids, titles, labels, tasks per plan, assignments per entry")
    func documentLimits() throws {
        var document = Demo.document
        #expect(document.limitProblem(.standard) == nil)
        let count = document.state.tasks.count
        #expect(document.limitProblem(ProtocolLimits(maxTasksPerPlan: 3))?.hasPrefix("tasks: \(count) tasks") == true)
        #expect(
            document.limitProblem(ProtocolLimits(maxIDLength: 3))?.hasSuffix("is longer than 3 Unicode scalars") == true
        )
        #expect(
            document.limitProblem(ProtocolLimits(maxAssignmentsPerEntry: 0))?.hasPrefix("assignments: entry") == true)
        document.title = String(repeating: "t", count: 1001)
        #expect(document.limitProblem(.standard) == "title: is longer than 1000 Unicode scalars")
    }
}
