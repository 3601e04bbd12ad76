import Testing

@testable import PlanInterchange

/// The XML reader: elements, namespaces, text with the predefined entities and character
/// references decoded, and every refusal with a message a user can act on.
@Suite("Interchange: reading XML")
struct XMLReaderTests {
    static func parse(_ text: String) throws(XMLReadError) -> XMLElement {
        try XMLReader.parse(Array(text.utf8))
    }

    static func refusal(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test("elements with namespace, attributes, decoded text and lines")
    func elements() throws {
        let root = try Self.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Project xmlns="http://schemas.microsoft.com/project">
              <Name>R&amp;D &#160;plan &lt;1&gt;</Name>
              <Tasks><Task a="x &quot;y&quot;"><UID>7</UID></Task></Tasks>
            </Project>
            """)
        #expect(root.name == "Project" && root.namespace == "http://schemas.microsoft.com/project")
        #expect(root.value("Name") == "R&D \u{A0}plan <1>")
        let task = try #require(root.child("Tasks")?.child("Task"))
        #expect(task.attributes["a"] == "x \"y\"" && task.integer("UID") == 7 && task.line == 4)
        #expect(try Self.parse("<project name='Zoë 計画'/>").attributes["name"] == "Zoë 計画")
    }

    @Test("refused: DOCTYPE, entity declarations, entity bombs, external entities, truncation, no root")
    func refusals() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <Project>&lol2;</Project>
            """
        #expect(Self.refusal(bomb).contains("DOCTYPE"))
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><p>&x;</p>
            """
        #expect(Self.refusal(external).contains("DOCTYPE"))
        #expect(Self.refusal("<!DOCTYPE p SYSTEM \"http://example.com/p.dtd\"><p/>").contains("DOCTYPE"))
        #expect(Self.refusal("<p>&undeclared;</p>").contains("well-formed"))
        let truncated = Self.refusal("<Project>\n<Tasks>\n<Task><UID>1</UI")
        #expect(truncated.contains("well-formed XML") && truncated.contains("line 3"))
        #expect(Self.refusal("").contains("XML"))
        #expect(Self.refusal("id,title\n1,x").contains("well-formed"))
        let deep =
            String(repeating: "<a>", count: XMLReader.maxDepth + 1)
            + String(repeating: "</a>", count: XMLReader.maxDepth + 1)
        #expect(Self.refusal(deep).contains("deeper"))
    }
}
