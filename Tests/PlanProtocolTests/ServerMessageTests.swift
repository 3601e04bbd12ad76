import ChronoSketchCore
import PlanProtocol
import Testing

private typealias F = Fixture

/// Decodes one server message, recording an issue when it fails.
private func roundTrip(_ message: ServerMessage, sourceLocation: SourceLocation = #_sourceLocation) -> ServerMessage? {
    do {
        return try ServerMessage.decode(message.bytes)
    } catch {
        Issue.record("\(message.json) does not decode: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("Server messages: the contract's shapes")
struct ServerMessageTests {
    static let query = F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-1"])

    @Test("welcome, error, resumed, ack, rejected and presence encode exactly as protocol.md writes them")
    func exactShapes() {
        let welcome = ServerMessage.welcome(session: "s-1", user: "alice", server: "plan-server/0.1", limits: .standard)
        #expect(
            welcome.json
                == #"{"type":"welcome","session":"s-1","user":"alice","protocol":1,"server":"plan-server/0.1","limits":{"#
                + #""maxMessageBytes":1048576,"maxDepth":32,"maxIDLength":128,"maxTitleLength":1000,"#
                + #""maxTasksPerPlan":200000,"maxQueueBytes":8388608,"maxProposalsPerSecond":200,"#
                + #""maxWatchesPerConnection":64,"maxAssignmentsPerEntry":1000,"maxUserQueueBytes":134217728,"#
                + #""writeTimeoutSeconds":30}}"#)
        #expect(
            ServerMessage.error(code: .badMessage, message: "type: is missing", ref: "r1").json
                == #"{"type":"error","code":"badMessage","message":"type: is missing","ref":"r1"}"#)
        #expect(
            ServerMessage.error(code: .unauthenticated, message: "hello first").json
                == #"{"type":"error","code":"unauthenticated","message":"hello first"}"#)
        #expect(
            ServerMessage.resumed(plan: "demo", version: 12).json == #"{"type":"resumed","plan":"demo","version":12}"#)
        #expect(
            ServerMessage.ack(id: "c7-000042", plan: "demo", version: 13).json
                == #"{"type":"ack","id":"c7-000042","plan":"demo","version":13}"#)
        #expect(
            ServerMessage.ack(id: "c7-000042", plan: "demo", version: 12, noop: true).json
                == #"{"type":"ack","id":"c7-000042","plan":"demo","version":12,"noop":true}"#)
        #expect(
            ServerMessage.rejected(
                id: "c7-000042", plan: "demo", code: .staleTask, message: "task \"design\" changed", version: 12
            ).json
                == #"{"type":"rejected","id":"c7-000042","plan":"demo","code":"staleTask","message":"task \"design\" changed","version":12}"#
        )
        let presence = ServerMessage.presence(
            plan: "demo", count: 3,
            sessions: [
                PresenceSession(session: "s-1", user: "alice", client: "plan/1.0"),
                PresenceSession(session: "s-2", user: "bob", client: ""),
            ])
        #expect(
            presence.json
                == #"{"type":"presence","plan":"demo","count":3,"sessions":[{"session":"s-1","user":"alice","client":"plan/1.0"},"#
                + #"{"session":"s-2","user":"bob","client":""}]}"#)
    }

    @Test("a snapshot has title, tasks in order, dependencies, resources, summaries and baselines, no timeline entries")
    func snapshot() throws {
        let document = F.demoDocument()
        let message = ServerMessage.snapshot(PlanSnapshot(plan: "demo", version: 12, document: document))
        let object = members(message.bytes)
        #expect(
            Set(object.keys) == [
                "type", "plan", "version", "title", "settings", "tasks", "dependencies", "resources", "summaries",
                "baselines",
            ])
        #expect(object["type"] == .string("snapshot"))
        #expect(object["plan"] == .string("demo"))
        #expect(object["version"] == .number(12))
        #expect(object["title"] == .string("Demo"))
        guard case .array(let tasks)? = object["tasks"] else {
            Issue.record("no tasks")
            return
        }
        #expect(try tasks.map { try GanttTask(json: $0) } == document.state.tasks.tasks)
        #expect(
            object["dependencies"]
                == parse(#"[{"predecessorID":"design","successorID":"build","type":"finish-to-start","lag":0}]"#))
        #expect(
            object["settings"]
                == parse(#"{"scheduling":"manual","calendar":{"workingDays":[1,2,3,4,5,6,7],"holidays":[]}}"#))
        #expect(object["resources"] == parse(#"[{"id":"room-1","label":"Room 1"},{"id":"room-2","label":"Room 2"}]"#))
        // design 2026-09-08…10 at 25 %, build 2026-09-10…20 at 50 %.
        #expect(
            object["summaries"]
                == parse(
                    #"{"phase-1":{"start":"2026-09-08","end":"2026-09-20","lastDate":"2026-09-19","progress":37.5}}"#))
        #expect(
            message.json.contains(
                #""summaries":{"phase-1":{"start":"2026-09-08","end":"2026-09-20","lastDate":"2026-09-19","progress":37.5}}"#
            ))
        #expect(roundTrip(message) == message)
        // A summary without bounds has null dates.
        let empty = PlanSnapshot(
            plan: "p", version: 0, title: "", tasks: [F.phase1],
            summaries: ["phase-1": SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0)])
        #expect(
            ServerMessage.snapshot(empty).json
                == #"{"type":"snapshot","plan":"p","version":0,"title":"","#
                + #""settings":{"scheduling":"manual","calendar":{"workingDays":[1,2,3,4,5,6,7],"holidays":[]}},"#
                + #""tasks":[{"id":"phase-1","title":"Phase 1","kind":"summary"}],"#
                + #""dependencies":[],"resources":[],"summaries":{"phase-1":{"start":null,"end":null,"lastDate":null,"progress":0}},"baselines":[]}"#
        )
    }

    @Test("snapshot summaries follow the task order; values for other ids follow in id order and survive")
    func snapshotSummaryOrder() {
        let values = SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0)
        let snapshot = PlanSnapshot(
            plan: "p", version: 1, title: "t", tasks: [F.summary("b"), F.spec, F.summary("a")],
            summaries: ["a": values, "b": values, "z": values, "spec": values])
        let text = ServerMessage.snapshot(snapshot).json
        let order = ["\"b\":", "\"a\":", "\"spec\":{\"start\"", "\"z\":"].map { key in
            text.firstRange(of: key).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
        }
        #expect(order.allSatisfy { $0 >= 0 })
        #expect(order == order.sorted())
        #expect(roundTrip(.snapshot(snapshot)) == .snapshot(snapshot))
    }

    @Test("confirmed carries mutation id and user and the changes; pre-encoded changes give the same bytes")
    func confirmed() {
        let changes = PlanChanges(upsert: [F.spec], summaries: [:])
        let message = ServerMessage.confirmed(
            plan: "demo", version: 13, mutationID: "c7-000042", user: "alice", changes: changes)
        #expect(
            message.json
                == #"{"type":"confirmed","plan":"demo","version":13,"mutation":{"id":"c7-000042","user":"alice"},"#
                + #""changes":{"upsert":[{"id":"spec","title":"Spec","kind":"activity","progress":0}],"remove":[],"summaries":{}}}"#
        )
        #expect(
            ServerMessage.confirmedBytes(
                plan: "demo", version: 13, mutation: MutationStamp(id: "c7-000042", user: "alice"),
                changesJSON: changes.bytes)
                == message.bytes)
        #expect(roundTrip(message) == message)
        // Changes read back from a log in another layout still make a valid message.
        let spaced = Array(#"{ "upsert" : [], "remove" : ["spec"] }"#.utf8)
        let fromLog = ServerMessage.confirmedBytes(
            plan: "demo", version: 14, mutation: MutationStamp(id: "m", user: "bob"), changesJSON: spaced)
        #expect(
            (try? ServerMessage.decode(fromLog))
                == .confirmed(
                    plan: "demo", version: 14, mutationID: "m", user: "bob", changes: PlanChanges(remove: ["spec"])))
    }

    @Test("page holds plan, watch, version, query, entries and assignments; a query's answer has no watch")
    func page() {
        let page = TimelinePage(
            entries: [F.entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop")],
            assignments: [F.assignment("a1", "e1", "room-1")])
        let watched = ServerMessage.page(plan: "demo", watch: "w1", version: 12, query: Self.query, page: page)
        #expect(
            watched.json
                == #"{"type":"page","plan":"demo","watch":"w1","version":12,"#
                + #""query":{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["room-1"]},"#
                + #""entries":[{"id":"e1","title":"Workshop","start":"2026-09-09T09:00","end":"2026-09-09T12:30"}],"#
                + #""assignments":[{"id":"a1","entryID":"e1","resourceID":"room-1"}]}"#)
        let answer = ServerMessage.page(plan: "demo", version: 12, query: Self.query, page: TimelinePage(), ref: "q1")
        #expect(
            answer.json
                == #"{"type":"page","plan":"demo","version":12,"#
                + #""query":{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["room-1"]},"#
                + #""entries":[],"assignments":[],"ref":"q1"}"#)
        #expect(roundTrip(watched) == watched)
        #expect(roundTrip(answer) == answer)
    }

    @Test("every server message decodes back to itself, refs included")
    func roundTrips() {
        let messages: [ServerMessage] = [
            .welcome(session: "s", user: "u", server: "srv", limits: ProtocolLimits(maxDepth: 16), ref: "h"),
            .error(code: .notSubscribed, message: "no subscription to \"demo\"", ref: "r"),
            .snapshot(PlanSnapshot(plan: "demo", version: 1, document: F.demoDocument()), ref: "s"),
            .resumed(plan: "demo", version: 12, ref: "s2"),
            .ack(id: "p", plan: "demo", version: 4, noop: true, ref: "a"),
            .rejected(id: "p", plan: "demo", code: .rateLimited, message: "slow down", version: 4),
            .rejected(id: "p", plan: nil, code: .badMessage, message: "plan: is missing", version: nil, ref: "x"),
            .presence(plan: "demo", count: 0, sessions: []),
        ]
        for message in messages {
            #expect(roundTrip(message) == message, "\(message.typeName)")
            #expect(roundTrip(message)?.ref == message.ref)
        }
        for code in ProtocolErrorCode.allCases {
            #expect(roundTrip(.error(code: code, message: "m")) == .error(code: code, message: "m"))
        }
        for code in RejectionCode.allCases {
            let message = ServerMessage.rejected(id: "p", plan: "demo", code: code, message: "m", version: 1)
            #expect(roundTrip(message) == message)
        }
    }

    @Test("a frame is one message or an array of them in order; failures name the element")
    func batchedFrames() throws {
        let first = ServerMessage.confirmed(
            plan: "demo", version: 13, mutationID: "m1", user: "alice", changes: PlanChanges(remove: ["spec"]))
        let second = ServerMessage.ack(id: "m1", plan: "demo", version: 13)
        let third = ServerMessage.presence(
            plan: "demo", count: 1, sessions: [PresenceSession(session: "s", user: "alice", client: "c")])
        let frame = ServerMessage.frame(joining: [first.bytes, second.bytes, third.bytes])
        #expect(frame.first == UInt8(ascii: "["))
        #expect(try ServerMessage.decodeFrame(frame) == [first, second, third])
        #expect(ServerMessage.frame(joining: [second.bytes]) == second.bytes)
        #expect(try ServerMessage.decodeFrame(second.bytes) == [second])
        #expect(try ServerMessage.decodeFrame(Array("[]".utf8)) == [])
        let broken = ServerMessage.frame(joining: [second.bytes, Array(#"{"type":"ack","id":"x","plan":"p"}"#.utf8)])
        #expect(throws: DecodingFailure(path: "[1].version", reason: "is missing")) {
            try ServerMessage.decodeFrame(broken)
        }
        #expect(throws: DecodingFailure.self) { try ServerMessage.decodeFrame(Array(#"{"type":"gossip"}"#.utf8)) }
        #expect(throws: DecodingFailure.self) { try ServerMessage.decodeFrame(Array("[1".utf8)) }
        #expect(throws: DecodingFailure.self) {
            try ServerMessage.decodeFrame(Array(#"{"type":"error","code":"teapot","message":"m"}"#.utf8))
        }
    }

    @Test("a client reads messages with unknown fields and noop false")
    func tolerantReading() throws {
        let text = #"{"type":"ack","id":"p","plan":"demo","version":3,"noop":false,"extra":[1]}"#
        #expect(try ServerMessage.decode(Array(text.utf8)) == .ack(id: "p", plan: "demo", version: 3))
        let sparse = #"{"type":"snapshot","plan":"demo","version":0,"title":"T","tasks":[]}"#
        #expect(
            try ServerMessage.decode(Array(sparse.utf8))
                == .snapshot(PlanSnapshot(plan: "demo", version: 0, title: "T")))
    }
}
