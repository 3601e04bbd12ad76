import ChronoSketchCore
import PlanProtocol
import Testing

/// The `tasks` request and answer on the wire (docs/protocol.md, "Tasks by id").
@Suite("tasks messages")
struct TasksMessageTests {
    func decoded(_ text: String) -> Result<ClientMessage, ClientMessageError> {
        Result { () throws(ClientMessageError) in try ClientMessage.decode(text) }
    }

    @Test("a request: ids required, ref echoed; wrong shapes are badMessage naming the field")
    func request() throws {
        let request = ClientMessage.tasks(plan: "demo", ids: ["review", "release"], ref: "t1")
        #expect(request.json == #"{"type":"tasks","plan":"demo","ids":["review","release"],"ref":"t1"}"#)
        #expect(try decoded(request.json).get() == request)
        #expect(try decoded(#"{"type":"tasks","plan":"demo","ids":[]}"#).get() == .tasks(plan: "demo", ids: []))
        for (text, field) in [
            (#"{"type":"tasks","plan":"demo","ref":"r"}"#, "ids"),
            (#"{"type":"tasks","plan":"demo","ids":[7],"ref":"r"}"#, "ids[0]"),
            (#"{"type":"tasks","plan":"demo","ids":"review","ref":"r"}"#, "ids"),
            (#"{"type":"tasks","ids":["review"],"ref":"r"}"#, "plan"),
        ] {
            guard case .failure(.error(let code, let message, let ref)) = decoded(text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(code == .badMessage && message.hasPrefix(field + ":") && ref == "r", "\(text): \(message)")
        }
    }

    @Test("an answer: the tasks in the snapshot's shape, then the missing ids; it decodes back")
    func answer() throws {
        let schedule = try TaskSchedule(start: CivilDate("2026-09-08"), end: CivilDate("2026-09-10"))
        let task = try GanttTask(
            id: "review", title: "Review „quoted“", kind: .activity(schedule: schedule, progress: 25))
        let message = ServerMessage.tasks(plan: "demo", version: 12, tasks: [task], missing: ["gone"], ref: "t1")
        #expect(
            message.json
                == #"{"type":"tasks","plan":"demo","version":12,"tasks":[{"id":"review","title":"Review „quoted“","#
                + #""kind":"activity","schedule":{"start":"2026-09-08","end":"2026-09-10"},"progress":25}],"#
                + #""missing":["gone"],"ref":"t1"}"#)
        #expect(try ServerMessage.decode(Array(message.json.utf8)) == message)
        let bare = #"{"type":"tasks","plan":"demo","version":3,"tasks":[]}"#
        #expect(try ServerMessage.decode(Array(bare.utf8)) == .tasks(plan: "demo", version: 3, tasks: [], missing: []))
    }
}
