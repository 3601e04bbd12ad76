import ChronoSketchCore
import PlanProtocol
import Testing

private typealias F = Fixture

/// A propose around `op` JSON text.
private func propose(_ op: String) -> String {
    #"{"type":"propose","id":"p1","plan":"demo","baseVersion":0,"op":\#(op)}"#
}

/// `count` copies of `unit`.
private func text(_ unit: String, _ count: Int) -> String {
    String(repeating: unit, count: count)
}

@Suite("Protocol limits")
struct ProtocolLimitsTests {
    @Test("the defaults are the contract's and encode as welcome.limits")
    func defaults() throws {
        let limits = ProtocolLimits()
        #expect(limits.maxMessageBytes == 1_048_576)
        #expect(limits.maxDepth == 32)
        #expect(limits.maxIDLength == 128)
        #expect(limits.maxTitleLength == 1000)
        #expect(limits.maxTasksPerPlan == 200_000)
        #expect(limits.maxQueueBytes == 8_388_608)
        #expect(limits.maxProposalsPerSecond == 200)
        #expect(limits.maxWatchesPerConnection == 64)
        #expect(limits.maxAssignmentsPerEntry == 1000)
        #expect(limits.maxUserQueueBytes == 134_217_728)
        #expect(limits.writeTimeoutSeconds == 30)
        var writer = JSONWriter()
        limits.encodeJSON(into: &writer)
        #expect(
            writer.string
                == #"{"maxMessageBytes":1048576,"maxDepth":32,"maxIDLength":128,"maxTitleLength":1000,"#
                + #""maxTasksPerPlan":200000,"maxQueueBytes":8388608,"maxProposalsPerSecond":200,"#
                + #""maxWatchesPerConnection":64,"maxAssignmentsPerEntry":1000,"maxUserQueueBytes":134217728,"#
                + #""writeTimeoutSeconds":30}"#)
        let custom = ProtocolLimits(
            maxMessageBytes: 4096, maxIDLength: 16, maxProposalsPerSecond: 5, maxWatchesPerConnection: 3,
            maxAssignmentsPerEntry: 7)
        var customWriter = JSONWriter()
        custom.encodeJSON(into: &customWriter)
        #expect(try ProtocolLimits(json: try JSONValue(parsing: customWriter.bytes)) == custom)
        // Members a server does not report keep their defaults.
        #expect(try ProtocolLimits(json: parse(#"{"maxDepth":8,"future":1}"#)) == ProtocolLimits(maxDepth: 8))
        #expect(throws: DecodingFailure.self) { try ProtocolLimits(json: parse(#"{"maxDepth":-1}"#)) }
    }

    @Test("ids count Unicode scalars: 1…maxIDLength")
    func idLengths() {
        let limits = ProtocolLimits.standard
        #expect(!limits.isValidID(""))
        #expect(limits.isValidID(text("a", 128)))
        #expect(!limits.isValidID(text("a", 129)))
        // "é" as e + combining acute: one character, two scalars.
        #expect(limits.isValidID(text("e\u{301}", 64)))
        #expect(!limits.isValidID(text("e\u{301}", 65)))
        #expect(limits.isValidID(text("🇩🇪", 64)))
        #expect(!limits.isValidID(text("🇩🇪", 64) + "x"))
        #expect(limits.isValidTitle(text("ü", 1000)))
        #expect(!limits.isValidTitle(text("ü", 1001)))
    }

    @Test("plan, watch and proposal ids over the limit are refused; at the limit they are fine")
    func requestIDs() {
        let longest = text("p", 128)
        let tooLong = text("p", 129)
        #expect(decoded(#"{"type":"subscribe","plan":"\#(longest)"}"#) == .subscribe(plan: longest))
        #expect(
            decodingError(#"{"type":"subscribe","plan":"\#(tooLong)"}"#)
                == .error(code: .badMessage, message: "plan: is longer than 128 Unicode scalars", ref: nil))
        #expect(
            decodingError(#"{"type":"unwatch","watch":"\#(tooLong)"}"#)
                == .error(code: .badMessage, message: "watch: is longer than 128 Unicode scalars", ref: nil))
        #expect(decoded(#"{"type":"unwatch","watch":"\#(longest)"}"#) == .unwatch(watch: longest))
        #expect(
            decodingError(#"{"type":"hello","token":"t","client":"\#(tooLong)"}"#)
                == .error(code: .badMessage, message: "client: is longer than 128 Unicode scalars", ref: nil))
        let small = ProtocolLimits(maxIDLength: 4)
        #expect(decoded(#"{"type":"subscribe","plan":"demo"}"#, limits: small) != nil)
        #expect(decodingError(#"{"type":"subscribe","plan":"demos"}"#, limits: small) != nil)
    }

    @Test("ids and titles inside ops over the limits reject the proposal with badMessage naming the field")
    func opLimits() {
        let longID = text("t", 129)
        let longTitle = text("T", 1001)
        let entry = #"{"id":"e1","title":"W","start":"2026-09-09T09:00","end":"2026-09-09T12:30"}"#
        let cases: [(String, String)] = [
            (#"{"type":"add","task":{"id":"\#(longID)","title":"x","kind":"summary"}}"#, "op.task.id"),
            (#"{"type":"add","task":{"id":"x","title":"\#(longTitle)","kind":"summary"}}"#, "op.task.title"),
            (
                #"{"type":"add","task":{"id":"x","title":"x","parentID":"\#(longID)","kind":"summary"}}"#,
                "op.task.parentID"
            ),
            (
                #"{"type":"replace","previous":\#(F.spec.json),"proposed":{"id":"spec","title":"\#(longTitle)","kind":"activity"}}"#,
                "op.proposed.title"
            ),
            (
                #"{"type":"reorder","previous":\#(F.spec.json),"relativeTo":{"id":"\#(longID)","title":"x","kind":"summary"},"position":"before"}"#,
                "op.relativeTo.id"
            ),
            (
                #"{"type":"link","dependency":{"predecessorID":"a","successorID":"\#(longID)"}}"#,
                "op.dependency.successorID"
            ),
            (
                #"{"type":"timeline.add","entry":{"id":"e1","title":"\#(longTitle)","start":"2026-09-09T09:00","end":"2026-09-09T12:30"},"assignments":[]}"#,
                "op.entry.title"
            ),
            (
                #"{"type":"timeline.add","entry":\#(entry),"assignments":[{"id":"a1","entryID":"e1","resourceID":"r"},{"id":"a2","entryID":"e1","resourceID":"\#(longID)"}]}"#,
                "op.assignments[1].resourceID"
            ),
            (
                #"{"type":"timeline.apply","original":{"entry":\#(entry),"assignment":{"id":"a1","entryID":"e1","resourceID":"r"}},"proposed":{"entry":\#(entry),"assignment":{"id":"\#(longID)","entryID":"e1","resourceID":"r"}}}"#,
                "op.proposed.assignment.id"
            ),
        ]
        for (op, path) in cases {
            #expect(
                decodingError(propose(op))
                    == .rejected(
                        id: "p1", plan: "demo", code: .badMessage,
                        message: "\(path): is longer than \(path.hasSuffix("title") ? 1000 : 128) Unicode scalars",
                        ref: nil),
                "\(path)")
        }
        // At the limits: accepted.
        let longest = text("t", 128)
        let longestTitle = text("ß", 1000)
        let op = #"{"type":"add","task":{"id":"\#(longest)","title":"\#(longestTitle)","kind":"summary"}}"#
        #expect(
            decoded(propose(op))
                == .propose(
                    id: "p1", plan: "demo", baseVersion: 0,
                    operation: .add(F.summary(longest, title: longestTitle))))
        // Custom limits apply.
        #expect(decodingError(propose(op), limits: ProtocolLimits(maxTitleLength: 999)) != nil)
    }

    @Test("the whole frame may be up to maxMessageBytes")
    func largeFrames() {
        let title = text("x", 900)
        var tasks: [String] = []
        for index in 0..<1000 { tasks.append(#"{"id":"t\#(index)","title":"\#(title)","kind":"summary"}"#) }
        let big = #"{"type":"hello","token":"t","padding":[\#(tasks.joined(separator: ","))]}"#
        #expect(big.utf8.count < 1 << 20)
        #expect(decoded(big) == .hello(token: "t", client: ""))
        let bigger = big + String(repeating: " ", count: (1 << 20) - big.utf8.count + 1)
        #expect(decodingError(bigger) == .tooLarge(byteCount: bigger.utf8.count, limit: 1 << 20))
    }
}
