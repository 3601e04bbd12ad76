import ChronoSketchCore
import Testing

@testable import PlanInterchange

/// The import path as a stream (interchange.md §11): a file read in chunks of any size gives the
/// plan it gives whole, the rows of MS Project's tables are handed over as they close and never
/// kept as a document, and the limits hold across chunks.
@Suite("Interchange: streaming import")
struct StreamingImportTests {
    static let files = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Files/"
    static let mspdiFiles = [
        "sample.xml", "task-dates-project2019-mspdi.xml", "calendar-recurring-exceptions-project2016-mspdi.xml",
        "mspdinulltasks.xml", "mspdirelations.xml",
    ]

    /// `bytes` in chunks of `sizes` taken in turn, as a chunk source.
    static func chunks(of bytes: [UInt8], sizes: [Int]) -> () -> [UInt8]? {
        var offset = 0
        var turn = 0
        return {
            guard offset < bytes.count else { return nil }
            let size = sizes[turn % sizes.count]
            turn += 1
            defer { offset = min(bytes.count, offset + size) }
            return Array(bytes[offset..<min(bytes.count, offset + size)])
        }
    }

    @Test("records are handed over as they close, with their insides, and left out of the tree")
    func records() throws {
        let text = """
            <Project xmlns="http://schemas.microsoft.com/project"><Name>P</Name>
              <Tasks><Task><UID>1</UID><PredecessorLink><PredecessorUID>2</PredecessorUID></PredecessorLink></Task>
              <Task><UID>2</UID></Task></Tasks>
              <Calendars><Calendar><UID>1</UID></Calendar></Calendars>
            </Project>
            """
        var handed: [XMLElement] = []
        let reader = try XMLReader(
            select: { _ in XMLSelection(records: ["Task"]) }, record: { handed.append($0) })
        try Array(text.utf8).withUnsafeBytes { try reader.feed($0, isFinal: true) }
        let root = try reader.root()
        #expect(handed.map { $0.value("UID") } == ["1", "2"])
        #expect(handed[0].child("PredecessorLink")?.value("PredecessorUID") == "2")
        #expect(root.child("Tasks")?.children.isEmpty == true)
        // Only elements two levels down are records: a Calendar's UID stays in the tree.
        #expect(root.child("Calendars")?.child("Calendar")?.value("UID") == "1")
    }

    @Test("an error thrown for a record stops the reading and is what the reader throws")
    func recordError() throws {
        struct Stop: Error {}
        var handed = 0
        let reader = try XMLReader(
            select: { _ in XMLSelection(records: ["Task"]) },
            record: { _ in
                handed += 1
                throw Stop()
            })
        let text = "<Project><Tasks><Task/><Task/><Task/></Tasks></Project>"
        #expect(throws: Stop.self) { try Array(text.utf8).withUnsafeBytes { try reader.feed($0, isFinal: true) } }
        #expect(handed == 1)
    }

    @Test(
        "MS Project's own files read in chunks of any size give the plan the whole document gives",
        arguments: mspdiFiles)
    func chunked(name: String) throws {
        let bytes = try TestFiles.read(Self.files + "mpxj/" + name)
        // The whole document through the tree, the way the tests of the mapping read it.
        let whole = try MSProjectImport.plan(from: try XMLReader.parse(bytes))
        for sizes in [[bytes.count], [4096], [1, 7, 64, 1000, 3]] {
            let streamed = try PlanImport.read(chunks: Self.chunks(of: bytes, sizes: sizes))
            #expect(streamed.document == whole.document, "chunks of \(sizes)")
            #expect(streamed.warnings == whole.warnings, "chunks of \(sizes)")
        }
    }

    @Test("GanttProject and our JSON read in small chunks give the plan they give whole")
    func otherFormats() throws {
        let gan = try TestFiles.read(Self.files + "ganttproject/HouseBuildingSample.gan")
        let wholeGan = try PlanImport.read(gan)
        #expect(try PlanImport.read(chunks: Self.chunks(of: gan, sizes: [5, 97])).document == wholeGan.document)
        let json = wholeGan.document.bytes
        let wholeJSON = try PlanImport.read(json)
        #expect(try PlanImport.read(chunks: Self.chunks(of: json, sizes: [2, 31])).document == wholeJSON.document)
        #expect(wholeJSON.document.state.tasks.count == wholeGan.document.state.tasks.count)
    }

    @Test("a byte-order mark and leading spaces split across chunks still show the format")
    func byteOrderMark() throws {
        let text = "\u{FEFF}\n  <Project xmlns=\"http://schemas.microsoft.com/project\"><Title>Marked</Title></Project>"
        let plan = try PlanImport.read(chunks: Self.chunks(of: Array(text.utf8), sizes: [1]))
        #expect(plan.document.title == "Marked")
        for text in ["", "  \n\t", "\u{FEFF}", "\u{FEFF} x"] {
            #expect(throws: ImportError.self) {
                try PlanImport.read(chunks: Self.chunks(of: Array(text.utf8), sizes: [1]))
            }
        }
    }

    @Test("the size limit is counted across chunks, and a source's error is a clear refusal")
    func limits() throws {
        let block = [UInt8](repeating: 0x20, count: 16 << 20)
        var sent = 0
        let endless: () -> [UInt8]? = {
            sent += 1
            return sent == 1 ? Array("<Project/>".utf8) : block
        }
        let tooLarge = #expect(throws: ImportError.self) { try PlanImport.read(chunks: endless) }
        #expect(tooLarge?.message.contains("tooLarge") == true)
        // The 10 bytes of the first chunk and 16 whole blocks pass 256 MiB: the 17th chunk is the last read.
        #expect(sent == 1 + PlanImport.maxBytes / block.count)
        struct Broken: Error, CustomStringConvertible { var description: String { "the disk went away" } }
        let failed = #expect(throws: ImportError.self) { try PlanImport.read(chunks: { throw Broken() }) }
        #expect(failed?.message.contains("the disk went away") == true)
    }
}
