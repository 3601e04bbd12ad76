import Glibc
import SystemSupport
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

    @Test("only the elements kept by the root's rule are kept, with their text; the rest is still checked")
    func keeping() throws {
        let text = """
            <Project xmlns="http://schemas.microsoft.com/project">
              <Tasks>
                <Task>
                  <UID> 1 </UID>
                  <TimephasedData><Value>PT8H</Value><Deep><Deeper/></Deep></TimephasedData>
                </Task>
              </Tasks>
              <ExtendedAttributes><ExtendedAttribute><FieldID>1</FieldID></ExtendedAttribute></ExtendedAttributes>
            </Project>
            """
        let kept: Set<String> = ["Project", "Tasks", "Task", "UID"]
        let root = try XMLReader.parse(Array(text.utf8)) { $0 == "Project" ? kept : nil }
        #expect(root.children.map(\.name) == ["Tasks"])
        let task = try #require(root.child("Tasks")?.child("Task"))
        #expect(task.children.map(\.name) == ["UID"] && task.value("UID") == " 1 ")
        // The indentation between elements is nobody's text; every element shares one namespace.
        #expect(root.text.isEmpty && task.text.isEmpty && task.namespace == root.namespace)
        // Whatever is not kept is still read: a truncated or over-deep part is refused.
        #expect(throws: XMLReadError.self) {
            try XMLReader.parse(Array("<Project><Other><x></Other></Project>".utf8)) { _ in kept }
        }
        let deep =
            "<Project>" + String(repeating: "<a>", count: XMLReader.maxDepth)
            + String(repeating: "</a>", count: XMLReader.maxDepth)
            + "</Project>"
        #expect(throws: XMLReadError.self) { try XMLReader.parse(Array(deep.utf8)) { _ in kept } }
    }

    @Test("the MS Project importer keeps every element its sources read")
    func msProjectElementsKept() throws {
        // The importer's sources, beside the tests in this checkout.
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let directory = "/\(root)/Sources/PlanInterchange/MSProject"
        guard let handle = opendir(directory) else { throw XMLReadError(message: "no \(directory)", line: 0) }
        defer { closedir(handle) }
        var read: Set<String> = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(".swift") else { continue }
            let source = try Files.readText("\(directory)/\(name)")
            for match in source.matches(of: /"([A-Z][A-Za-z]*)"/) { read.insert(String(match.output.1)) }
        }
        #expect(read.count > 30)
        #expect(
            read.subtracting(MSProjectImport.elementsRead).isEmpty, "\(read.subtracting(MSProjectImport.elementsRead))")
    }
}
