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
}
