import ChronoSketchCore
import PlanProtocol
import Testing

/// The `schedule` request and answer on the wire (scheduling.md §6).
@Suite("schedule messages")
struct ScheduleMessageTests {
    func decoded(_ text: String) -> Result<ClientMessage, ClientMessageError> {
        Result { () throws(ClientMessageError) in try ClientMessage.decode(text) }
    }

    @Test("a request: version and ids optional, echoed ref; wrong shapes are badMessage naming the field")
    func request() throws {
        #expect(
            try decoded(#"{"type":"schedule","plan":"demo","ids":["design","build"],"ref":"s1"}"#).get()
                == .schedule(plan: "demo", version: nil, ids: ["design", "build"], ref: "s1"))
        let full = ClientMessage.schedule(plan: "demo", version: 14, ids: nil, ref: "s2")
        #expect(full.json == #"{"type":"schedule","plan":"demo","version":14,"ref":"s2"}"#)
        #expect(try decoded(full.json).get() == full)
        for (text, field) in [
            (#"{"type":"schedule","plan":"demo","ids":[1],"ref":"r"}"#, "ids[0]"),
            (#"{"type":"schedule","plan":"demo","ids":"design","ref":"r"}"#, "ids"),
            (#"{"type":"schedule","plan":"demo","version":-1,"ref":"r"}"#, "version"),
            (#"{"type":"schedule","ref":"r"}"#, "plan"),
        ] {
            guard case .failure(.error(let code, let message, let ref)) = decoded(text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(code == .badMessage && message.hasPrefix(field + ":") && ref == "r", "\(text): \(message)")
        }
    }

    @Test("an answer: finish, and per task late dates, slack and critical; it decodes back")
    func answer() throws {
        let figures = ScheduleFigures.Task(
            lateStart: try CivilDate("2026-09-18"), lateFinish: try CivilDate("2026-09-22"), slack: 7)
        let answer = ScheduleAnswer(
            plan: "demo", version: 14, finish: try CivilDate("2026-10-01"),
            tasks: [ScheduleAnswer.Row(id: "design", figures: figures)])
        let message = ServerMessage.schedule(answer, ref: "s1")
        #expect(
            message.json
                == #"{"type":"schedule","plan":"demo","version":14,"finish":"2026-10-01","tasks":{"design":"#
                + #"{"lateStart":"2026-09-18","lateFinish":"2026-09-22","slack":7,"critical":false}},"ref":"s1"}"#)
        #expect(try ServerMessage.decode(Array(message.json.utf8)) == message)
        let empty = ServerMessage.schedule(ScheduleAnswer(plan: "p", version: 0, finish: nil, tasks: []))
        #expect(empty.json == #"{"type":"schedule","plan":"p","version":0,"finish":null,"tasks":{}}"#)
    }
}
