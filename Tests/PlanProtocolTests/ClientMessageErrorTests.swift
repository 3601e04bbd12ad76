import ChronoSketchCore
import PlanProtocol
import Testing

private typealias F = Fixture

/// A propose around `op` JSON text.
private func propose(_ op: String, id: String = #""p1""#, plan: String = #""demo""#, baseVersion: String = "12")
    -> String
{
    #"{"type":"propose","id":\#(id),"plan":\#(plan),"baseVersion":\#(baseVersion),"op":\#(op),"ref":"r"}"#
}

private let addSpec = #"{"type":"add","task":{"id":"spec","title":"Spec","kind":"activity"}}"#

@Suite("Client messages: how the server answers bad input")
struct ClientMessageErrorTests {
    @Test("text that is not valid UTF-8 closes with 1007, inside or outside strings")
    func invalidUTF8() {
        let inString = Array(#"{"type":"hello","token":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        let afterValue = Array(#"{"type":"hello","token":"t"}"#.utf8) + [0xC3]
        let overlong = Array(#"{"type":"hello","token":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        let surrogate = Array(#"{"type":"hello","token":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)
        for bytes in [inString, afterValue, overlong, surrogate, [0xFE]] {
            let error = decodingError(bytes)
            #expect(error == .invalidUTF8)
            #expect(error?.closesConnection == true)
            #expect(error?.answer(version: nil) == nil)
        }
    }

    @Test("a frame over maxMessageBytes closes with 1009")
    func tooLarge() {
        let text = #"{"type":"hello","token":"0123456789"}"#
        let limits = ProtocolLimits(maxMessageBytes: text.utf8.count - 1)
        let error = decodingError(text, limits: limits)
        #expect(error == .tooLarge(byteCount: text.utf8.count, limit: text.utf8.count - 1))
        #expect(error?.closesConnection == true)
        #expect(decoded(text, limits: ProtocolLimits(maxMessageBytes: text.utf8.count)) != nil)
    }

    @Test("text that is not JSON, or not an object, is badMessage without a ref")
    func notJSON() {
        for text in [#"{"type":"hello","#, "", "hello", #"{"type":"hello",}"#, "[1,2]", #""hello""#, "null", "12"] {
            let error = decodingError(text)
            guard case .error(let code, let message, let ref)? = error else {
                Issue.record("\(text): \(String(describing: error))")
                continue
            }
            #expect(code == .badMessage, "\(text)")
            #expect(ref == nil)
            #expect(!message.isEmpty)
            #expect(error?.closesConnection == false)
        }
        #expect(
            decodingError("[1,2]")
                == .error(code: .badMessage, message: "$: expected an object, found an array", ref: nil))
    }

    @Test("nesting deeper than maxDepth is badMessage; exactly maxDepth is fine")
    func depth() {
        func message(arrays: Int) -> String {
            #"{"type":"hello","token":"t","x":"# + String(repeating: "[", count: arrays)
                + String(repeating: "]", count: arrays) + "}"
        }
        #expect(decoded(message(arrays: 31)) == .hello(token: "t", client: ""))
        #expect(
            decodingError(message(arrays: 32))
                == .error(
                    code: .badMessage, message: "the message nests arrays and objects deeper than 32 levels", ref: nil))
        let shallow = ProtocolLimits(maxDepth: 3)
        #expect(decodingError(message(arrays: 3), limits: shallow) != nil)
        #expect(decoded(message(arrays: 2), limits: shallow) != nil)
    }

    @Test("a proposal nesting too deep whose id can be read is settled: rejected badMessage with its id and ref")
    func deepProposal() {
        let reason = "the message nests arrays and objects deeper than 4 levels"
        let limits = ProtocolLimits(maxDepth: 4)
        let deepPropose = propose(#"{"type":"add","task":{"id":"x","title":"x","kind":"activity","z":[[[]]]}}"#)
        #expect(
            decodingError(deepPropose, limits: limits)
                == .rejected(id: "p1", plan: "demo", code: .badMessage, message: reason, ref: "r"))
        // Far deeper than any stack would take, and brackets inside strings that do not count.
        let abyss = String(repeating: "[", count: 200_000) + #""]]]""# + String(repeating: "]", count: 200_000)
        #expect(
            decodingError(propose(abyss), limits: limits)
                == .rejected(id: "p1", plan: "demo", code: .badMessage, message: reason, ref: "r"))
        // Not a proposal: an error that echoes the ref; no readable id: an error too.
        let deepHello = #"{"type":"hello","token":"t","ref":"h","x":[[[[[[]]]]]]}"#
        #expect(decodingError(deepHello, limits: limits) == .error(code: .badMessage, message: reason, ref: "h"))
        #expect(
            decodingError(propose(abyss, id: "7"), limits: limits)
                == .error(code: .badMessage, message: reason, ref: "r"))
        // Unbalanced below the limit is not JSON at all.
        #expect(decodingError(propose("[[[[[[[}]]]]]]"), limits: limits)?.ref == nil)
    }

    @Test("a missing or non-string type is badMessage naming type; an unknown type is unsupported; refs echo")
    func types() {
        #expect(
            decodingError(#"{"plan":"demo","ref":"r1"}"#)
                == .error(code: .badMessage, message: "type: is missing", ref: "r1"))
        #expect(
            decodingError(#"{"type":7,"ref":"r2"}"#)
                == .error(code: .badMessage, message: "type: expected a string, found a number", ref: "r2"))
        #expect(
            decodingError(#"{"type":"fetchAll","ref":"r3"}"#)
                == .error(code: .unsupported, message: #"unknown message type "fetchAll""#, ref: "r3"))
        #expect(
            decodingError(#"{"type":"Hello"}"#)
                == .error(code: .unsupported, message: #"unknown message type "Hello""#, ref: nil))
        let long = String(repeating: "x", count: 100)
        #expect(decodingError(#"{"type":"\#(long)"}"#)?.message.count ?? 0 < 90)
        // A ref that is not a string (or too long) is not echoed.
        #expect(decodingError(#"{"type":"nope","ref":5}"#)?.ref == nil)
        #expect(decodingError(#"{"type":"nope","ref":"\#(String(repeating: "r", count: 129))"}"#)?.ref == nil)
        #expect(decodingError(#"{"type":"nope","ref":"\#(String(repeating: "r", count: 128))"}"#)?.ref?.count == 128)
    }

    @Test("wrong field types are badMessage naming the field, with the ref")
    func fieldTypes() {
        let cases: [(String, String)] = [
            (#"{"type":"hello","ref":"r"}"#, "token: is missing"),
            (#"{"type":"hello","token":1,"ref":"r"}"#, "token: expected a string, found a number"),
            (
                #"{"type":"hello","token":"t","client":[],"ref":"r"}"#,
                "client: expected a string or null, found an array"
            ),
            (#"{"type":"subscribe","ref":"r"}"#, "plan: is missing"),
            (#"{"type":"subscribe","plan":7,"ref":"r"}"#, "plan: expected a string, found a number"),
            (#"{"type":"subscribe","plan":"","ref":"r"}"#, "plan: must not be empty"),
            (#"{"type":"subscribe","plan":"demo","since":-1,"ref":"r"}"#, "since: must not be negative"),
            (#"{"type":"subscribe","plan":"demo","since":1.5,"ref":"r"}"#, "since: expected an integer"),
            (#"{"type":"subscribe","plan":"demo","since":"9","ref":"r"}"#, "since: expected a number, found a string"),
            (#"{"type":"subscribe","plan":"demo","since":1e300,"ref":"r"}"#, "since: expected an integer"),
            (#"{"type":"unsubscribe","plan":null,"ref":"r"}"#, "plan: expected a string, found null"),
            (#"{"type":"query","plan":"demo","ref":"r"}"#, "query: is missing"),
            (#"{"type":"query","plan":"demo","query":[],"ref":"r"}"#, "query: expected an object, found an array"),
            (
                #"{"type":"query","plan":"demo","query":{"start":1,"end":"2026-09-15T00:00","resourceIDs":[]},"ref":"r"}"#,
                "query.start: expected a string, found a number"
            ),
            (
                #"{"type":"query","plan":"demo","query":{"start":"2026-09-08T00:00","end":"2026-09-15T00:00"},"ref":"r"}"#,
                "query.resourceIDs: is missing"
            ),
            (
                #"{"type":"query","plan":"demo","query":{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":[1]},"ref":"r"}"#,
                "query.resourceIDs[0]: expected a string, found a number"
            ),
            (
                #"{"type":"watch","plan":"demo","query":{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":[]},"ref":"r"}"#,
                "watch: is missing"
            ),
            (#"{"type":"unwatch","watch":"","ref":"r"}"#, "watch: must not be empty"),
            (#"{"type":"unwatch","watch":"w1","ref":5}"#, "ref: expected a string or null, found a number"),
        ]
        for (text, message) in cases {
            let expectedRef: String? = text.contains(#""ref":"r""#) ? "r" : nil
            #expect(decodingError(text) == .error(code: .badMessage, message: message, ref: expectedRef), "\(text)")
        }
    }

    @Test("a well-formed query with unacceptable values is badQuery naming the field")
    func badQueries() {
        func query(_ start: String, _ end: String, _ ids: String) -> String {
            #"{"type":"watch","plan":"demo","watch":"w","query":{"start":"\#(start)","end":"\#(end)","resourceIDs":\#(ids)},"ref":"q"}"#
        }
        let cases: [(String, String)] = [
            (query("2026-09-08T00:00", "2026-09-08T00:00", "[]"), "query.end"),
            (query("2026-09-08T00:00", "2026-09-07T00:00", "[]"), "query.end"),
            (query("2026-09-08T00:00", "2027-10-14T00:01", "[]"), "query.end"),
            (query("2026-09-08T00:00", "2026-09-08T24:00", "[]"), "query.end"),
            (query("2026-02-30T00:00", "2026-09-08T10:00", "[]"), "query.start"),
            (query("2026-09-08T00:00:00", "2026-09-09T00:00", "[]"), "query.start"),
            (query("2026-09-08T00:00", "2026-09-09T00:00", #"["room-1","room-1"]"#), "query.resourceIDs[1]"),
            (query("2026-09-08T00:00", "2026-09-09T00:00", #"["room-1"," "]"#), "query.resourceIDs[1]"),
            (
                query("2026-09-08T00:00", "2026-09-09T00:00", #"["\#(String(repeating: "r", count: 129))"]"#),
                "query.resourceIDs[0]"
            ),
        ]
        for (text, path) in cases {
            guard case .error(let code, let message, let ref)? = decodingError(text) else {
                Issue.record("\(text) did not fail with an error")
                continue
            }
            #expect(code == .badQuery, "\(text)")
            #expect(message.hasPrefix(path + ": "), "\(message)")
            #expect(ref == "q")
        }
        // Exactly 400 days is fine.
        #expect(decoded(query("2026-09-08T00:00", "2027-10-13T00:00", "[]")) != nil)
    }

    @Test("a propose without a readable id gets an error, never a rejection")
    func proposeWithoutID() {
        let cases: [(String, String)] = [
            (#"{"type":"propose","plan":"demo","baseVersion":1,"op":\#(addSpec),"ref":"r"}"#, "id: is missing"),
            (propose(addSpec, id: "42"), "id: expected a string, found a number"),
            (propose(addSpec, id: "null"), "id: expected a string, found null"),
            (propose(addSpec, id: #""""#), "id: must not be empty"),
            (
                propose(addSpec, id: "\"\(String(repeating: "i", count: 129))\""),
                "id: is longer than 128 Unicode scalars"
            ),
        ]
        for (text, message) in cases {
            #expect(decodingError(text) == .error(code: .badMessage, message: message, ref: "r"), "\(text)")
        }
    }

    @Test("a propose with a readable id is rejected with badMessage naming the field, with its id and plan")
    func malformedProposals() {
        let cases: [(String, String?, String)] = [
            (#"{"type":"propose","id":"p1","baseVersion":1,"op":\#(addSpec),"ref":"r"}"#, nil, "plan: is missing"),
            (propose(addSpec, plan: "3"), nil, "plan: expected a string, found a number"),
            (
                propose(addSpec, plan: "\"\(String(repeating: "d", count: 129))\""), nil,
                "plan: is longer than 128 Unicode scalars"
            ),
            (
                #"{"type":"propose","id":"p1","plan":"demo","op":\#(addSpec),"ref":"r"}"#, "demo",
                "baseVersion: is missing"
            ),
            (propose(addSpec, baseVersion: "-1"), "demo", "baseVersion: must not be negative"),
            (propose(addSpec, baseVersion: "1.5"), "demo", "baseVersion: expected an integer"),
            (propose(addSpec, baseVersion: "1e20"), "demo", "baseVersion: expected an integer"),
            (propose(addSpec, baseVersion: #""12""#), "demo", "baseVersion: expected a number, found a string"),
            (#"{"type":"propose","id":"p1","plan":"demo","baseVersion":1,"ref":"r"}"#, "demo", "op: is missing"),
            (propose("[]"), "demo", "op: expected an object, found an array"),
            (propose(#"{"type":"rename"}"#), "demo", #"op.type: unknown op type "rename""#),
            (propose(#"{"kind":"add"}"#), "demo", "op.type: is missing"),
            (propose(#"{"type":"add"}"#), "demo", "op.task: is missing"),
            (
                propose(#"{"type":"add","task":{"id":"x","title":"x","kind":"task"}}"#), "demo",
                #"op.task.kind: expected "activity", "milestone" or "summary", found "task""#
            ),
            (
                propose(
                    #"{"type":"reorder","previous":\#(F.spec.json),"relativeTo":\#(F.spec.json),"position":"above"}"#),
                "demo", #"op.position: expected "before" or "after", found "above""#
            ),
            (
                propose(
                    #"{"type":"timeline.add","entry":{"id":"e","title":"t","start":"2026-09-09T09:00","end":"2026-09-09T10:00"}}"#
                ),
                "demo", "op.assignments: is missing"
            ),
            (
                #"{"type":"propose","id":"p1","plan":"demo","baseVersion":1,"op":\#(addSpec),"ref":false}"#, "demo",
                "ref: expected a string or null, found a boolean"
            ),
            // Scheduling (scheduling.md §1, §2, §5): wrong JSON types, an unknown mode, restores sent.
            (
                propose(#"{"type":"settings.replace","previous":{},"proposed":{"scheduling":"auto"}}"#), "demo",
                #"op.proposed.scheduling: expected "manual" or "automatic", found "auto""#
            ),
            (
                propose(#"{"type":"settings.replace","previous":{"calendar":{"workingDays":["1"]}},"proposed":{}}"#),
                "demo", "op.previous.calendar.workingDays[0]: expected a number, found a string"
            ),
            (
                propose(#"{"type":"link","dependency":{"predecessorID":"a","successorID":"b","lag":"1"}}"#), "demo",
                "op.dependency.lag: expected a number, found a string"
            ),
            (
                propose(#"{"type":"replace","previous":\#(F.spec.json),"proposed":\#(F.spec.json),"restores":[]}"#),
                "demo", "op.restores: restores are built only by undo"
            ),
        ]
        for (text, plan, message) in cases {
            let expectedRef: String? = text.contains(#""ref":"r""#) ? "r" : nil
            let error = decodingError(text)
            #expect(
                error == .rejected(id: "p1", plan: plan, code: .badMessage, message: message, ref: expectedRef),
                "\(text)")
            #expect(error?.closesConnection == false)
        }
    }

    @Test("a propose whose values break domain rules is rejected with the value's own code")
    func valueCodes() {
        let cases: [(String, RejectionCode, String)] = [
            (
                #"{"type":"add","task":{"id":"x","title":"x","kind":"activity","schedule":{"start":"2026-02-30","end":"2026-03-02"}}}"#,
                .invalidSchedule, "op.task.schedule.start"
            ),
            (
                #"{"type":"add","task":{"id":"x","title":"x","kind":"activity","schedule":{"start":"2026-03-02","end":"2026-03-02"}}}"#,
                .invalidSchedule, "op.task.schedule.end"
            ),
            (
                #"{"type":"add","task":{"id":"x","title":"x","kind":"activity","progress":150}}"#, .invalidProgress,
                "op.task.progress"
            ),
            (
                #"{"type":"add","task":{"id":"x","title":"x","kind":"milestone","date":"0000-01-01"}}"#,
                .invalidSchedule, "op.task.date"
            ),
            (#"{"type":"add","task":{"id":"  ","title":"x","kind":"summary"}}"#, .blankID, "op.task.id"),
            (
                #"{"type":"link","dependency":{"predecessorID":"a","successorID":"b","type":"start-to-begin"}}"#,
                .invalidDependency, "op.dependency.type"
            ),
            (
                #"{"type":"relink","previous":{"predecessorID":"a","successorID":"b"},"#
                    + #""proposed":{"predecessorID":"a","successorID":"b","lag":0.5}}"#,
                .invalidDependency, "op.proposed.lag"
            ),
            (
                #"{"type":"settings.replace","previous":{},"proposed":{"calendar":{"workingDays":[]}}}"#,
                .invalidCalendar, "op.proposed.calendar"
            ),
            (
                #"{"type":"settings.replace","previous":{},"proposed":{"calendar":{"holidays":["2026-02-30"]}}}"#,
                .invalidCalendar, "op.proposed.calendar.holidays[0]"
            ),
            (
                #"{"type":"timeline.remove","entry":{"id":"e","title":"t","start":"2026-09-09T09:00","end":"2026-09-09T24:00"}}"#,
                .invalidInterval, "op.entry.end"
            ),
            (
                #"{"type":"timeline.remove","entry":{"id":"e","title":"t","start":"2026-09-09T09:00","end":"2026-09-09T08:00"}}"#,
                .invalidInterval, "op.entry.end"
            ),
        ]
        for (op, code, path) in cases {
            guard case .rejected(let id, let plan, let actualCode, let message, let ref)? = decodingError(propose(op))
            else {
                Issue.record("\(op) was not rejected")
                continue
            }
            #expect(id == "p1")
            #expect(plan == "demo")
            #expect(actualCode == code, "\(op)")
            #expect(message.hasPrefix(path + ": "), "\(message)")
            #expect(ref == "r")
        }
    }

    @Test("answers: an error becomes an error message, a rejection a rejected message with the judged version")
    func answers() {
        let error = ClientMessageError.error(code: .badQuery, message: "query.end: …", ref: "q")
        #expect(error.answer(version: 3) == .error(code: .badQuery, message: "query.end: …", ref: "q"))
        let rejection = ClientMessageError.rejected(
            id: "p1", plan: "demo", code: .invalidSchedule, message: "m", ref: nil)
        #expect(
            rejection.answer(version: 12)
                == .rejected(id: "p1", plan: "demo", code: .invalidSchedule, message: "m", version: 12))
        let planless = ClientMessageError.rejected(id: "p1", plan: nil, code: .badMessage, message: "m", ref: "r")
        #expect(
            planless.answer(version: 12)
                == .rejected(id: "p1", plan: nil, code: .badMessage, message: "m", version: nil, ref: "r"))
        #expect(
            planless.answer(version: 12)?.json
                == #"{"type":"rejected","id":"p1","code":"badMessage","message":"m","ref":"r"}"#)
        #expect(ClientMessageError.invalidUTF8.description.hasPrefix("close 1007"))
        guard case .error(.badMessage, _, nil)? = ClientMessageError.binaryFrame.answer(version: nil) else {
            Issue.record("a binary frame is not answered with badMessage")
            return
        }
    }

    @Test("numbers beyond the double range are not JSON this server reads: an error without a ref")
    func hugeNumbers() {
        let text = propose(addSpec, baseVersion: "1e400")
        guard case .error(let code, _, let ref)? = decodingError(text) else {
            Issue.record("1e400 did not fail with an error")
            return
        }
        #expect(code == .badMessage)
        #expect(ref == nil)
        #expect(decoded(propose(addSpec, baseVersion: "9007199254740992")) != nil)
    }
}
