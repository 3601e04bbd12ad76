import ChronoSketchCore
import PlanProtocol
import Testing

/// The shapes of protocol.md §9–§10 on the wire: requests, answers, the confirmed undo.
@Suite("History messages: the contract's shapes")
struct HistoryMessageTests {
    static func decoded(_ text: String) -> Result<ClientMessage, ClientMessageError> {
        Result { () throws(ClientMessageError) in try ClientMessage.decode(text) }
    }

    static func errorCode(_ text: String) -> ProtocolErrorCode? {
        guard case .failure(.error(let code, _, _)) = decoded(text) else { return nil }
        return code
    }

    @Test("history: before and limit optional, limit 1…500; fetch: a version is required")
    func requests() throws {
        #expect(
            try Self.decoded(#"{"type":"history","plan":"demo"}"#).get()
                == .history(plan: "demo", before: nil, limit: nil))
        #expect(
            try Self.decoded(#"{"type":"history","plan":"demo","before":40,"limit":500,"ref":"h"}"#).get()
                == .history(plan: "demo", before: 40, limit: 500, ref: "h"))
        for limit in ["0", "501", "-1", "\"5\"", "1.5"] {
            #expect(Self.errorCode(#"{"type":"history","plan":"demo","limit":\#(limit)}"#) == .badMessage, "\(limit)")
        }
        #expect(Self.errorCode(#"{"type":"history"}"#) == .badMessage)
        #expect(
            try Self.decoded(#"{"type":"fetch","plan":"demo","version":7}"#).get()
                == .fetch(plan: "demo", version: 7))
        #expect(Self.errorCode(#"{"type":"fetch","plan":"demo"}"#) == .badMessage)
        #expect(Self.errorCode(#"{"type":"fetch","plan":"demo","version":"7"}"#) == .badMessage)
        for message: ClientMessage in [
            .history(plan: "demo", before: 3, limit: 2, ref: "r"), .history(plan: "p", before: nil, limit: nil),
            .fetch(plan: "demo", version: 0, ref: "f"),
        ] {
            #expect(try ClientMessage.decode(message.bytes) == message)
        }
    }

    @Test("a history page and a confirmed undo are written as the contract shows, and read back")
    func answers() throws {
        let entry = HistoryEntry(
            version: 39, at: "2026-12-01T10:00:00.250Z", mutationID: "c1-7", user: "bob",
            opJSON: #"{"type":"undo","version":37,"undoes":37}"#, changesJSON: #"{"upsert":[]}"#)
        let page = ServerMessage.history(plan: "demo", entries: [entry], logStart: 1, more: true, ref: "h")
        #expect(
            page.json
                == #"{"type":"history","plan":"demo","entries":[{"version":39,"at":"2026-12-01T10:00:00.250Z","#
                + #""mutation":{"id":"c1-7","user":"bob","undoes":37},"op":{"type":"undo","version":37,"undoes":37},"#
                + #""changes":{"upsert":[]}}],"logStart":1,"more":true,"ref":"h"}"#)
        // Read back: the same JSON (an op's members may come back in another order).
        let back = try ServerMessage.decode(page.bytes)
        #expect(try JSONValue(parsing: back.bytes) == JSONValue(parsing: page.bytes))
        #expect(entry.undoes == 37)
        let undo = ServerMessage.confirmed(
            plan: "demo", version: 40, mutationID: "c1-8", user: "bob", changes: PlanChanges(),
            at: "2026-12-01T10:00:01.000Z", undoes: 37)
        let object = members(undo.bytes)
        #expect(object["at"] == .string("2026-12-01T10:00:01.000Z"))
        #expect(object["mutation"] == parse(#"{"id":"c1-8","user":"bob","undoes":37}"#))
        #expect(try ServerMessage.decode(undo.bytes) == undo)
        // A confirmed without time or undo (an older server) still reads.
        let plain = try ServerMessage.decode(
            Array(#"{"type":"confirmed","plan":"p","version":1,"mutation":{"id":"a","user":"u"},"changes":{}}"#.utf8))
        #expect(plain == .confirmed(plan: "p", version: 1, mutationID: "a", user: "u", changes: PlanChanges()))
    }

    @Test("a fetched snapshot says historical and carries the baselines; a client copy does not take it")
    func historicalSnapshot() throws {
        let baseline = PlanBaseline(name: "Q3", version: 2, at: "2026-12-01T09:00:00.000Z")
        let live = PlanSnapshot(plan: "p", version: 3, title: "T", baselines: [baseline])
        var past = live
        past.version = 2
        past.historical = true
        let object = members(ServerMessage.snapshot(past).bytes)
        #expect(object["historical"] == .bool(true))
        #expect(object["baselines"] == parse(#"[{"name":"Q3","version":2,"at":"2026-12-01T09:00:00.000Z"}]"#))
        #expect(members(ServerMessage.snapshot(live).bytes)["historical"] == nil)
        #expect(try ServerMessage.decode(ServerMessage.snapshot(past).bytes) == .snapshot(past))
        var copy = ClientPlanCopy(live)
        #expect(try copy.apply(.snapshot(past)) == false)
        #expect(copy.version == 3)
    }
}
