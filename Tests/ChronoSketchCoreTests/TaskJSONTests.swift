import Testing

@testable import ChronoSketchCore

@Suite("Task JSON coding (protocol.md §3)")
struct TaskJSONTests {
    func decode(_ text: String) throws -> GanttTask {
        try GanttTask(json: try JSONValue(parsing: text), path: "task")
    }

    func failure(_ text: String) -> DecodingFailure? {
        do {
            _ = try decode(text)
            return nil
        } catch let error as DecodingFailure {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("decodes the contract's examples")
    func examples() throws {
        let design = try decode(
            #"{"id":"design","title":"Design","parentID":"phase-1","kind":"activity","schedule":{"start":"2026-09-08","end":"2026-09-10"},"progress":25}"#
        )
        #expect(
            design
                == Make.activity("design", parent: "phase-1", "2026-09-08", "2026-09-10", progress: 25, title: "Design")
        )
        #expect(
            try decode(#"{"id":"spec","title":"Spec","kind":"activity","progress":0}"#)
                == Make.activity("spec", title: "Spec"))
        #expect(
            try decode(#"{"id":"release","title":"release","kind":"milestone","date":"2026-10-01"}"#)
                == Make.milestone("release", "2026-10-01"))
        #expect(try decode(#"{"id":"phase-1","title":"phase-1","kind":"summary"}"#) == Make.summary("phase-1"))
    }

    @Test("absent progress is 0, null parentID is root, unknown fields are ignored")
    func defaults() throws {
        let task = try decode(#"{"id":"a","title":"a","kind":"activity","parentID":null,"extra":[1,2]}"#)
        #expect(task == Make.activity("a"))
    }

    @Test("encoding round-trips every kind")
    func roundTrip() throws {
        let tasks = [
            Make.activity("a", parent: "g", "2026-09-08", "2026-09-10", progress: 37.5, title: "Ä \"quoted\"\n"),
            Make.activity("u", progress: 100), Make.milestone("m", "2026-10-01"), Make.summary("g"),
        ]
        for task in tasks {
            #expect(try decode(task.json) == task)
        }
        #expect(Make.activity("u", progress: 100).json == #"{"id":"u","title":"u","kind":"activity","progress":100}"#)
    }

    @Test("malformed shapes are badMessage naming the field")
    func shapes() {
        let cases: [(String, String)] = [
            (#"[]"#, "task"),
            (#"{"title":"t","kind":"summary"}"#, "task.id"),
            (#"{"id":5,"title":"t","kind":"summary"}"#, "task.id"),
            (#"{"id":"a","kind":"summary"}"#, "task.title"),
            (#"{"id":"a","title":"t","kind":"epic"}"#, "task.kind"),
            (#"{"id":"a","title":"t","kind":"activity","progress":"5"}"#, "task.progress"),
            (#"{"id":"a","title":"t","kind":"activity","schedule":"2026-09-08"}"#, "task.schedule"),
            (#"{"id":"a","title":"t","kind":"activity","schedule":{"start":"2026-09-08"}}"#, "task.schedule.end"),
            (#"{"id":"a","title":"t","kind":"milestone"}"#, "task.date"),
            (#"{"id":"a","title":"t","parentID":7,"kind":"summary"}"#, "task.parentID"),
        ]
        for (text, path) in cases {
            let error = failure(text)
            #expect(error?.code == .badMessage, "\(text)")
            #expect(error?.path == path, "\(text)")
        }
    }

    @Test("invalid values carry their rejection code")
    func values() {
        let cases: [(String, RejectionCode, String)] = [
            (#"{"id":"a","title":"t","kind":"milestone","date":"2026-02-30"}"#, .invalidSchedule, "task.date"),
            (
                #"{"id":"a","title":"t","kind":"activity","schedule":{"start":"2026-09-10","end":"2026-09-10"}}"#,
                .invalidSchedule, "task.schedule.end"
            ),
            (
                #"{"id":"a","title":"t","kind":"activity","schedule":{"start":"2026-9-1","end":"2026-09-10"}}"#,
                .invalidSchedule, "task.schedule.start"
            ),
            (#"{"id":"a","title":"t","kind":"activity","progress":100.5}"#, .invalidProgress, "task.progress"),
            (#"{"id":" ","title":"t","kind":"summary"}"#, .blankID, "task.id"),
        ]
        for (text, code, path) in cases {
            let error = failure(text)
            #expect(error?.code == code, "\(text)")
            #expect(error?.path == path, "\(text)")
        }
    }

    @Test("dependencies: a type and a lag, finish-to-start and 0 when absent, every member written")
    func dependencies() throws {
        func decode(_ text: String) throws -> TaskDependency { try TaskDependency(json: try JSONValue(parsing: text)) }
        let plain = try decode(#"{"predecessorID":"a","successorID":"b"}"#)
        #expect(plain == Make.link("a", "b"))
        #expect(try decode(#"{"predecessorID":"a","successorID":"b","type":"finish-to-start","lag":0}"#) == plain)
        let typed = try decode(#"{"predecessorID":"a","successorID":"b","type":"start-to-start","lag":-2.0}"#)
        #expect(typed == TaskDependency(predecessorID: "a", successorID: "b", type: .startToStart, lag: -2))
        #expect(plain.json == #"{"predecessorID":"a","successorID":"b","type":"finish-to-start","lag":0}"#)
        #expect(try decode(typed.json) == typed)
        // Another type string, a fractional or out-of-range lag: invalidDependency; a wrong JSON type: badMessage.
        let cases: [(String, RejectionCode, String)] = [
            (#""type":"start-to-begin""#, .invalidDependency, "type"), (#""lag":1.5"#, .invalidDependency, "lag"),
            (#""lag":1001"#, .invalidDependency, "lag"), (#""lag":-1001"#, .invalidDependency, "lag"),
            (#""type":3"#, .badMessage, "type"), (#""lag":"2""#, .badMessage, "lag"),
        ]
        for (member, code, path) in cases {
            do {
                _ = try decode(#"{"predecessorID":"a","successorID":"b","# + member + "}")
                Issue.record("\(member) was accepted")
            } catch let failure as DecodingFailure {
                #expect(failure.code == code && failure.path == path, "\(member): \(failure)")
            }
        }
    }

    @Test("summary values encode null dates without bounds and round-trip")
    func summaryValues() throws {
        let values = [
            SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0),
            SummaryValues(
                start: Make.date("2026-09-08"), end: Make.date("2026-09-20"), lastDate: Make.date("2026-09-19"),
                progress: 37.5),
        ]
        for value in values {
            var writer = JSONWriter()
            value.encodeJSON(into: &writer)
            #expect(try SummaryValues(json: try JSONValue(parsing: writer.bytes)) == value)
        }
        var writer = JSONWriter()
        values[0].encodeJSON(into: &writer)
        #expect(writer.string == #"{"start":null,"end":null,"lastDate":null,"progress":0}"#)
    }
}
