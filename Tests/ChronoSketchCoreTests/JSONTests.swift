import Testing

@testable import ChronoSketchCore

@Suite("JSON parsing and writing")
struct JSONTests {
    @Test("parses every kind of value")
    func parses() throws {
        let value = try JSONValue(
            parsing: #"{"a":[1,-2.5,1e3,true,false,null],"b":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#)
        #expect(
            value
                == .object([
                    "a": .array([.number(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null]),
                    "b": .string("x\"\\/\u{8}\u{c}\n\r\té😀"),
                ]))
    }

    @Test(
        "rejects what RFC 8259 does not allow",
        arguments: [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", "'a'", "{a:1}", "[1 2]",
            "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"abc", "1 2", "NaN", "Infinity", "1e999", "// x",
        ])
    func rejects(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("rejects invalid UTF-8 and says so")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        do {
            _ = try JSONValue(parsing: bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.isInvalidUTF8)
        }
    }

    @Test("limits nesting depth")
    func depth() throws {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        let fine = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep, maxDepth: 32) }
        var nested = JSONValue.array([])
        for _ in 1..<32 { nested = .array([nested]) }
        #expect(try JSONValue(parsing: fine, maxDepth: 32) == nested)
        do {
            _ = try JSONValue(parsing: deep, maxDepth: 32)
        } catch {
            #expect(error.isTooDeep)
        }
    }

    @Test("writer output parses back to the same value")
    func writerRoundTrip() throws {
        let value = JSONValue.object([
            "n": .number(37.5), "i": .number(12), "s": .string("quote \" backslash \\ \n \u{1} é"),
            "a": .array([.null, .bool(true), .object([:])]),
        ])
        var writer = JSONWriter()
        writer.value(value)
        #expect(try JSONValue(parsing: writer.bytes) == value)
        #expect(writer.string.contains("\"i\":12,"))
        #expect(writer.string.contains("\\u0001"))
    }

    @Test("integers and dates are written digit by digit exactly as their text: signs, zeros, padding, extremes")
    func digits() throws {
        var writer = JSONWriter()
        writer.beginArray()
        for value in [0, 7, -7, 10, 1_000_000, -120, Int.max, Int.min] { writer.number(value) }
        for value in [0.0, 100, -3, 62.5, 9_007_199_254_740_992] { writer.number(value) }
        for text in ["0001-01-01", "2020-12-31", "9999-12-31", "2026-09-08"] { writer.date(try CivilDate(text)) }
        writer.endArray()
        let expected =
            "[0,7,-7,10,1000000,-120,\(Int.max),\(Int.min),0,100,-3,62.5,9007199254740992,"
            + #""0001-01-01","2020-12-31","9999-12-31","2026-09-08"]"#
        #expect(writer.string == expected)
        for day in stride(from: 1, to: 3_652_059, by: 9_973) {
            let date = CivilDate(uncheckedDayNumber: day)
            #expect(try CivilDate(date.description) == date)
            #expect(date.description.count == 10)
        }
    }

    @Test("a repeated name keeps its last value, in small objects and in indexed large ones", arguments: [3, 40])
    func repeatedNames(count: Int) throws {
        let members = (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let value = try JSONValue(parsing: "{\(members),\"k1\":\"again\",\"k0\":null}")
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.count == count)
        #expect(object["k1"] == .string("again"))
        #expect(object["k0"] == .null)
        #expect(object["k\(count - 1)"] == .number(Double(count - 1)))
        #expect(object["absent"] == nil)
        #expect(object.keys == (0..<count).map { "k\($0)" })
    }

    @Test("objects are equal and hash alike whatever their member order; removing a member finds the rest")
    func objectEquality() throws {
        let forward = try JSONValue(parsing: #"{"a":1,"b":[true],"c":{"d":null}}"#)
        let backward = try JSONValue(parsing: #"{"c":{"d":null},"b":[true],"a":1}"#)
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != (try JSONValue(parsing: #"{"a":1,"b":[true],"c":{"d":0}}"#)))
        #expect(forward != (try JSONValue(parsing: #"{"a":1,"b":[true]}"#)))
        var large = JSONObject()
        for index in 0..<30 { large["m\(index)"] = .number(Double(index)) }
        large["m3"] = nil
        large["m20"] = nil
        #expect(large.count == 28)
        #expect(large["m3"] == nil && large["m21"] == .number(21) && large["m29"] == .number(29))
        #expect(large == JSONObject(Dictionary(uniqueKeysWithValues: large.map { ($0.key, $0.value) })))
    }
}

@Suite("JSON strings policy")
struct TextPolicyTests {
    @Test("a string with U+0000 is refused where it is read, naming the field; other scalars are kept")
    func nul() throws {
        let value = try JSONValue(parsing: Array(#"{"a":"x\u0000y","b":"\u202Eevil\u200F","c":"😀"}"#.utf8))
        let object = try JSONObjectReader(value)
        #expect(throws: DecodingFailure(path: "a", reason: "must not contain U+0000 (NUL)")) {
            try object.string("a")
        }
        #expect(throws: DecodingFailure(path: "a", reason: "must not contain U+0000 (NUL)")) {
            try object.optionalString("a")
        }
        #expect(try object.string("b") == "\u{202E}evil\u{200F}")
        #expect(try object.string("c") == "😀")
        #expect(TextPolicy.problem("plain") == nil)
    }
}
