import PlanTestSupport
import Testing

@testable import PlanStore

@Suite("PGValue: array parameters in PostgreSQL's binary format")
struct PGValueTests {
    @Test("the layout: one dimension, a has-nulls flag, the element type, lengths (-1 for NULL) and bytes")
    func layout() {
        let bytes = PGValue.binaryArray(["ab", nil, "é"], .json)
        let int32s = stride(from: 0, to: 20, by: 4).map { offset in
            bytes[offset..<offset + 4].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        }
        // ndim, has nulls, element OID (json), size, lower bound
        #expect(int32s == [1, 1, 114, 3, 1])
        #expect(Array(bytes[20...]) == [0, 0, 0, 2, 97, 98, 255, 255, 255, 255, 0, 0, 0, 2, 0xC3, 0xA9])
        // An empty array has no dimensions.
        #expect(PGValue.binaryArray([], .text) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25])
    }

    @Test(
        "text and json arrays arrive element for element: quotes, backslashes, braces, commas, NULLs, empty strings",
        .database)
    func roundTrip() throws {
        let awkward: [String?] = [
            #"{"a":"b \"c\" \\ d"}"#, nil, "", "NULL", "{x,y}", #"\"#, "emoji 🗓️ and ümlauts",
            String(repeating: "z", count: 70_000),
        ]
        let json: [String?] = [#"{"a":[1,2,{"b":"\"q\""}]}"#, nil, "[]", #""\\u00e9""#]
        let connection = try PGConnection(conninfo: TestDatabase.url)
        let results = try connection.transaction([
            PGStatement(
                "SELECT value, value IS NULL FROM unnest($1::text[]) WITH ORDINALITY AS t(value, n) ORDER BY n",
                values: [.array(awkward, of: .text)]),
            PGStatement(
                "SELECT value::text FROM unnest($1::json[]) WITH ORDINALITY AS t(value, n) ORDER BY n",
                values: [.array(json, of: .json)]),
            PGStatement("SELECT cardinality($1::text[])", values: [.array([], of: .text)]),
        ])
        #expect((0..<results[0].rowCount).map { results[0].string($0, 0) } == awkward)
        #expect((0..<results[1].rowCount).map { results[1].string($0, 0) } == json)
        #expect(results[2].string(0, 0) == "0")
    }

    @Test(
        "an element that is not JSON is refused by the database, and an element holding NUL before sending", .database)
    func refusals() throws {
        let connection = try PGConnection(conninfo: TestDatabase.url)
        #expect(throws: StoreError.self) {
            try connection.transaction([
                PGStatement("SELECT cardinality($1::json[])", values: [.array(["{not json"], of: .json)])
            ])
        }
        do {
            _ = try connection.transaction([
                PGStatement("SELECT cardinality($1::text[])", values: [.array(["a\u{0}b"], of: .text)])
            ])
            Issue.record("an element holding NUL was sent")
        } catch {
            guard case .invalid(let message) = error else {
                Issue.record("expected .invalid, got \(error)")
                return
            }
            #expect(message.contains("NUL"))
        }
        // The connection is still usable.
        #expect(try connection.query("SELECT 1").string(0, 0) == "1")
    }
}
