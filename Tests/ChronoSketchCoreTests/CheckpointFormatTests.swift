import Testing

@testable import ChronoSketchCore

/// The store's checkpoint format: every kind of task, the timeline and baselines read back equal;
/// the import shape (checkpoints written before the format) still reads; broken columns are refused.
@Suite("Checkpoint format")
struct CheckpointFormatTests {
    static let document: PlanDocument = {
        let tasks = [
            Make.summary("g"),
            Make.activity("a", parent: "g", "2026-09-08", "2026-09-11", progress: 62.5, title: "A \"1\""),
            Make.activity("u", parent: "g", progress: 10), Make.milestone("m", "0001-01-01"),
            Make.activity("z", "9999-12-30", "9999-12-31", progress: 100),
        ]
        let collection = try! TaskCollection(tasks, dependencies: [Make.link("a", "m"), Make.link("u", "z")])
        return PlanDocument(
            title: "Checkpoint",
            state: PlanState(
                tasks: collection, timeline: TimelineFixtures.sample(),
                baselines: [PlanBaseline(name: "Q3", version: 4, at: "2026-12-01T10:00:00.000Z")]))
    }()

    @Test("every field reads back; the import shape reads too")
    func roundTrip() throws {
        let checkpoint = Self.document.checkpointJSON
        #expect(String(decoding: checkpoint, as: UTF8.self).hasPrefix(#"{"format":2,"title":"Checkpoint","ids":["#))
        #expect(try PlanDocument(checkpoint: checkpoint) == Self.document)
        #expect(try PlanDocument(checkpoint: Self.document.bytes) == Self.document)
        let empty = PlanDocument(title: "", state: PlanState(tasks: TaskCollection(), timeline: TimelineData()))
        #expect(try PlanDocument(checkpoint: empty.checkpointJSON) == empty)
    }

    @Test(
        "broken columns are refused with the column named",
        arguments: [
            (#""kinds":"saama""#, #""kinds":"saamx""#, "kinds"), (#""starts":[-1,"#, #""starts":["x","#, "starts"),
            (#""format":2"#, #""format":3"#, "format"), (#""to":["m","z"]"#, #""to":["m"]"#, "to"),
            (#""parents":[null,"g","g",null,null]"#, #""parents":[null,"g","g",null]"#, "parents"),
            (#""parents":[null,"g","g",null,null]"#, #""parents":[null,"g","g",null,"a"]"#, "ids"),
        ])
    func refused(original: String, broken: String, path: String) {
        let text = String(decoding: Self.document.checkpointJSON, as: UTF8.self)
        #expect(text.contains(original), "the fixture changed: \(text)")
        let bytes = Array(text.replacingFirst(original, with: broken).utf8)
        #expect {
            try PlanDocument(checkpoint: bytes)
        } throws: { error in
            (error as? DecodingFailure)?.path.hasPrefix(path) == true
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }

    fileprivate func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
