import ChronoSketchCore
import PlanTestSupport
import SystemSupport
import Testing

/// `plan create --import` with files of other tools (interchange.md §0): MS Project XML written
/// by MS Project, warnings on stderr one line each, and refusals that create nothing.
@Suite("plan create --import: MS Project XML", .database)
struct ImportInterchangeTests {
    static let files = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/../PlanInterchangeTests/Files/mpxj/"

    static func create(_ plan: String, _ arguments: String) -> (status: Int32, output: String) {
        shell("'\(ServerProcess.binary)' plan create '\(plan)' \(arguments)")
    }

    static func export(_ plan: String) throws -> PlanDocument? {
        let result = shell("'\(ServerProcess.binary)' plan export '\(plan)' 2>/dev/null")
        guard result.status == 0 else { return nil }
        return try PlanDocument(json: try JSONValue(parsing: Array(result.output.utf8)))
    }

    @Test("an MS Project file becomes a manual plan with its links; blank rows are one warning line")
    func imports() throws {
        let plan = TestDatabase.unique("mspdi")
        let created = Self.create(plan, "--import '\(Self.files)mspdirelations.xml'")
        #expect(created.status == 0 && created.output.contains("created plan \(plan) (5 tasks)"), "\(created.output)")
        let document = try #require(try Self.export(plan))
        #expect(document.title == "mspdirelations" && document.state.tasks.dependencies.count == 4)
        #expect(
            document.state.tasks.dependencies.map(\.type) == [
                .finishToStart, .startToStart, .finishToFinish, .startToFinish,
            ])

        // From standard input, read in chunks as a file is: the same plan.
        let piped = TestDatabase.unique("mspdi-stdin")
        let fromInput = Self.create(piped, "--import - < '\(Self.files)mspdirelations.xml'")
        #expect(fromInput.status == 0, "\(fromInput.output)")
        #expect(try Self.export(piped)?.state == document.state)

        let blank = TestDatabase.unique("mspdi-null")
        // stderr alone (stdout dropped).
        let withWarnings = shell(
            "('\(ServerProcess.binary)' plan create '\(blank)' --title 'Nulls' --import '\(Self.files)mspdinulltasks.xml' 2>&1 >/dev/null)"
        )
        let lines = withWarnings.output.split(separator: "\n")
        #expect(withWarnings.status == 0 && lines.count == 1 && lines[0].hasPrefix("warning: nullTask: "), "\(lines)")
        #expect(try Self.export(blank)?.title == "Nulls")
    }

    @Test("refused: a DOCTYPE, the wrong --format, an unknown --format; nothing is created")
    func refusals() throws {
        let doctype = "/tmp/doctype-\(UInt32.random(in: 0...UInt32.max)).xml"
        try Files.write(
            Array(
                "<?xml version=\"1.0\"?><!DOCTYPE Project [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><Project>&x;</Project>"
                    .utf8), to: doctype)
        let plan = TestDatabase.unique("refused")
        let refused = Self.create(plan, "--import '\(doctype)'")
        #expect(refused.status == 1 && refused.output.contains("DOCTYPE"), "\(refused.output)")
        let wrong = Self.create(plan, "--import '\(Self.files)mspdirelations.xml' --format gantt")
        #expect(wrong.status == 1 && wrong.output.contains("not a GanttProject file"), "\(wrong.output)")
        let unknown = Self.create(plan, "--import '\(Self.files)mspdirelations.xml' --format mpp")
        #expect(unknown.status == 2 && unknown.output.contains("--format must be"), "\(unknown.output)")
        #expect(try Self.export(plan) == nil)
    }

    @Test(
        "plan export --format msproject|csv|ics: the document on stdout, losses on stderr; an unknown format is refused"
    )
    func exports() throws {
        let plan = TestDatabase.unique("export")
        #expect(Self.create(plan, "--import '\(Self.files)sample.xml'").status == 0)
        let binary = "'\(ServerProcess.binary)' plan export '\(plan)'"
        let msproject = shell("(\(binary) --format msproject 2>/dev/null)")
        #expect(
            msproject.status == 0 && msproject.output.hasPrefix("<?xml")
                && msproject.output.contains("<Title>sample</Title>"))
        // The bookings remember their tasks through the store: written as assignments, nothing lost.
        let losses = shell("(\(binary) --format msproject 2>&1 >/dev/null)")
        #expect(losses.output.isEmpty, "\(losses.output)")
        #expect(msproject.output.contains("<Assignment>") && msproject.output.contains("<TaskUID>"))
        let csv = shell("(\(binary) --format csv 2>/dev/null)")
        #expect(csv.status == 0 && csv.output.hasPrefix("id,title,kind,parentID,start,end,progress\r\n"))
        let ics = shell("(\(binary) --format ics 2>/dev/null)")
        #expect(
            ics.status == 0 && ics.output.hasPrefix("BEGIN:VCALENDAR\r\n")
                && ics.output.contains("UID:\(plan)/2@chronosketch"))
        let unknown = shell("\(binary) --format pdf")
        #expect(unknown.status == 2 && unknown.output.contains("--format must be"))
        // What was exported imports again to the same tasks.
        let file = "/tmp/\(plan).xml"
        try Files.write(Array(msproject.output.utf8), to: file)
        let again = TestDatabase.unique("export-again")
        #expect(Self.create(again, "--import '\(file)'").status == 0)
        let exported = try #require(try Self.export(plan))
        #expect(!exported.state.entryTasks.isEmpty)
        #expect(try Self.export(again)?.state.tasks.tasks == exported.state.tasks.tasks)
        #expect(try Self.export(again)?.state.entryTasks == exported.state.entryTasks)
    }
}
