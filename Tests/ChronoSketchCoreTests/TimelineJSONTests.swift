import Testing

@testable import ChronoSketchCore

private typealias F = TimelineFixtures

/// Parses `text` and decodes it with `decode`, returning the failure (nil when decoding succeeded).
private func failure(
    _ text: String, _ decode: (JSONValue) throws -> Any, sourceLocation: SourceLocation = #_sourceLocation
) -> DecodingFailure? {
    let json: JSONValue
    do {
        json = try JSONValue(parsing: text)
    } catch {
        Issue.record("test JSON does not parse: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    do {
        _ = try decode(json)
        Issue.record("decoding \(text) succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let failure as DecodingFailure {
        return failure
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The code and path of a failure, for compact expectations.
private func located(_ failure: DecodingFailure?) -> String? {
    failure.map { "\($0.code.rawValue) \($0.path)" }
}

@Suite("Timeline JSON round trips")
struct TimelineJSONRoundTripTests {
    @Test("values encode exactly as protocol.md §3 and decode back")
    func protocolExamples() throws {
        let resource = #"{"id":"room-1","label":"Room 1"}"#
        let entry = #"{"id":"e1","title":"Workshop","start":"2026-09-09T09:00","end":"2026-09-09T12:30"}"#
        let assignment = #"{"id":"a1","entryID":"e1","resourceID":"room-1"}"#
        let decodedResource = try TimelineResource(json: try JSONValue(parsing: resource))
        let decodedEntry = try TimelineEntry(json: try JSONValue(parsing: entry))
        let decodedAssignment = try TimelineAssignment(json: try JSONValue(parsing: assignment))
        #expect(decodedResource == (try TimelineResource(id: "room-1", label: "Room 1")))
        #expect(decodedEntry == F.sampleEntry("e1"))
        #expect(decodedAssignment == F.sampleAssignment("a1"))
        #expect(decodedResource.json == resource)
        #expect(decodedEntry.json == entry)
        #expect(decodedAssignment.json == assignment)
    }

    @Test("a query encodes exactly as protocol.md §4 and decodes back")
    func query() throws {
        let text = #"{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["room-1"]}"#
        let query = try TimelineQuery(json: try JSONValue(parsing: text))
        #expect(query == F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-1"]))
        #expect(query.json == text)
        let none = F.query("2026-09-08T00:00", "2026-09-15T00:00", [])
        #expect(try TimelineQuery(json: try JSONValue(parsing: none.json)) == none)
    }

    @Test("a page round-trips and its members embed in a page message")
    func page() throws {
        let query = F.query("2026-09-01T00:00", "2026-09-30T00:00", ["room-1", "room-2", "room-3"])
        let page = F.sample().page(for: query)
        #expect(page.assignments.count == 4)
        #expect(try TimelinePage(json: try JSONValue(parsing: page.json)) == page)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type")
        writer.string("page")
        writer.key("query")
        query.encodeJSON(into: &writer)
        page.encodeMembers(into: &writer)
        writer.endObject()
        let message = try JSONValue(parsing: writer.string)
        #expect(try TimelinePage(json: message) == page)
        let object = try JSONObjectReader(message)
        #expect(try TimelineQuery(json: try object.required("query"), path: "query") == query)
        #expect(TimelinePage().json == #"{"entries":[],"assignments":[]}"#)
    }

    @Test("an original/proposed pair round-trips")
    func assignedEntry() throws {
        let bar = F.sampleBar("a2")
        var writer = JSONWriter()
        bar.encodeJSON(into: &writer)
        #expect(try TimelineAssignedEntry(json: try JSONValue(parsing: writer.string)) == bar)
    }

    @Test("titles and labels with quotes, control characters and non-ASCII survive")
    func escaping() throws {
        let entry = F.entry("e\"1", "2026-09-09T09:00", "2026-09-09T10:00", title: "Tab\there\n\"Ü\" 👩‍💻 \\ \u{1}")
        #expect(try TimelineEntry(json: try JSONValue(parsing: entry.json)) == entry)
        let resource = try TimelineResource(id: "räum", label: "Raum \"Süd\"")
        #expect(try TimelineResource(json: try JSONValue(parsing: resource.json)) == resource)
    }
}

@Suite("Timeline JSON failures")
struct TimelineJSONFailureTests {
    let entry: (JSONValue) throws -> Any = { try TimelineEntry(json: $0) }
    let resource: (JSONValue) throws -> Any = { try TimelineResource(json: $0) }
    let assignment: (JSONValue) throws -> Any = { try TimelineAssignment(json: $0) }
    let query: (JSONValue) throws -> Any = { try TimelineQuery(json: $0, path: "query") }
    let page: (JSONValue) throws -> Any = { try TimelinePage(json: $0) }
    let pair: (JSONValue) throws -> Any = { try TimelineAssignedEntry(json: $0, path: "op.proposed") }

    @Test("a missing or mistyped member is badMessage naming it")
    func malformedShapes() {
        #expect(located(failure(#"[]"#, entry)) == "badMessage $")
        #expect(
            located(failure(#"{"title":"x","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}"#, entry))
                == "badMessage id")
        #expect(
            located(failure(#"{"id":"e","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}"#, entry))
                == "badMessage title")
        #expect(located(failure(#"{"id":"e","title":"x","end":"2026-09-09T10:00"}"#, entry)) == "badMessage start")
        #expect(located(failure(#"{"id":"e","title":"x","start":"2026-09-09T09:00"}"#, entry)) == "badMessage end")
        #expect(
            located(failure(#"{"id":7,"title":"x","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}"#, entry))
                == "badMessage id")
        #expect(
            located(failure(#"{"id":"e","title":null,"start":"2026-09-09T09:00","end":"2026-09-09T10:00"}"#, entry))
                == "badMessage title")
        #expect(
            located(failure(#"{"id":"e","title":"x","start":202609090900,"end":"2026-09-09T10:00"}"#, entry))
                == "badMessage start")
        #expect(located(failure(#"{"label":"x"}"#, resource)) == "badMessage id")
        #expect(located(failure(#"{"id":"r","label":["x"]}"#, resource)) == "badMessage label")
        #expect(located(failure(#"{"id":"a","resourceID":"r"}"#, assignment)) == "badMessage entryID")
        #expect(
            located(failure(#"{"id":"a","entryID":"e","resourceID":false}"#, assignment)) == "badMessage resourceID")
        #expect(located(failure(#""x""#, query)) == "badMessage query")
        #expect(
            located(failure(#"{"start":"2026-09-08T00:00","end":"2026-09-15T00:00"}"#, query))
                == "badMessage query.resourceIDs")
        #expect(
            located(failure(#"{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":"room-1"}"#, query))
                == "badMessage query.resourceIDs")
        #expect(
            located(failure(#"{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["a",1]}"#, query))
                == "badMessage query.resourceIDs[1]")
        #expect(located(failure(#"{"end":"2026-09-15T00:00","resourceIDs":[]}"#, query)) == "badMessage query.start")
        #expect(located(failure(#"{"entries":[]}"#, page)) == "badMessage assignments")
        #expect(located(failure(#"{"assignments":[]}"#, page)) == "badMessage entries")
        #expect(
            located(failure(#"{"entries":[],"assignments":[{"id":"a","entryID":"e"}]}"#, page))
                == "badMessage assignments[0].resourceID")
        #expect(located(failure(#"{"entries":[{"id":"e"}],"assignments":[]}"#, page)) == "badMessage entries[0].title")
        #expect(located(failure(#"{"entry":{"id":"e"}}"#, pair)) == "badMessage op.proposed.entry.title")
        #expect(
            located(
                failure(#"{"entry":{"id":"e","title":"","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}}"#, pair))
                == "badMessage op.proposed.assignment")
    }

    @Test("date-times that are not valid are invalidInterval")
    func invalidDateTimes() {
        let bad = [
            "2026-09-09T09:00:00", "2026-09-09T09:00Z", "2026-09-09T09:00+02:00", "2026-09-09T24:00",
            "2026-02-30T10:00", "2026-09-09 09:00", "2026-9-9T09:00", "2026-09-09T9:00", "2026-09-09T09:60",
            "0000-01-01T00:00", "", "2026-09-09",
        ]
        for text in bad {
            let asStart = #"{"id":"e","title":"x","start":"\#(text)","end":"2026-09-10T10:00"}"#
            #expect(located(failure(asStart, entry)) == "invalidInterval start", "\(text)")
            let asEnd = #"{"id":"e","title":"x","start":"2026-09-09T10:00","end":"\#(text)"}"#
            #expect(located(failure(asEnd, entry)) == "invalidInterval end", "\(text)")
            let inQuery = #"{"start":"\#(text)","end":"2026-09-15T00:00","resourceIDs":[]}"#
            #expect(located(failure(inQuery, query)) == "invalidInterval query.start", "\(text)")
        }
        let midnight = #"{"id":"e","title":"x","start":"2026-09-09T10:00","end":"2026-09-09T24:00"}"#
        let inPage = #"{"entries":[\#(midnight)],"assignments":[]}"#
        #expect(located(failure(inPage, page)) == "invalidInterval entries[0].end")
    }

    @Test("an end not after the start is invalidInterval at end")
    func endNotAfterStart() {
        for end in ["2026-09-09T10:00", "2026-09-09T09:59"] {
            let text = #"{"id":"e","title":"x","start":"2026-09-09T10:00","end":"\#(end)"}"#
            #expect(located(failure(text, entry)) == "invalidInterval end")
            let inPair = #"{"entry":\#(text),"assignment":{"id":"a","entryID":"e","resourceID":"r"}}"#
            #expect(located(failure(inPair, pair)) == "invalidInterval op.proposed.entry.end")
        }
    }

    @Test("blank ids are blankID at id")
    func blankIDs() {
        #expect(
            located(failure(#"{"id":" ","title":"x","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}"#, entry))
                == "blankID id")
        #expect(located(failure(#"{"id":"","label":"x"}"#, resource)) == "blankID id")
        #expect(located(failure(#"{"id":"\n","entryID":"e","resourceID":"r"}"#, assignment)) == "blankID id")
    }

    @Test("query value problems carry a code other than badMessage, naming the member")
    func queryValues() throws {
        #expect(
            located(failure(#"{"start":"2026-09-08T00:00","end":"2026-09-08T00:00","resourceIDs":[]}"#, query))
                == "invalidInterval query.end")
        #expect(
            located(failure(#"{"start":"2026-01-01T00:00","end":"2027-02-05T00:01","resourceIDs":[]}"#, query))
                == "invalidInterval query.end")
        let exactly = try TimelineQuery(
            json: try JSONValue(parsing: #"{"start":"2026-01-01T00:00","end":"2027-02-05T00:00","resourceIDs":[]}"#))
        #expect(exactly.start.minutes(to: exactly.end) == 400 * 1440)
        #expect(
            located(failure(#"{"start":"2026-09-08T00:00","end":"2026-09-09T00:00","resourceIDs":["r"," "]}"#, query))
                == "blankID query.resourceIDs[1]")
        #expect(
            located(
                failure(#"{"start":"2026-09-08T00:00","end":"2026-09-09T00:00","resourceIDs":["r","s","r"]}"#, query))
                == "duplicateID query.resourceIDs[2]")
    }
}
