import ChronoSketchCore
import PlanProtocol
import Testing

private typealias F = Fixture

@Suite("Client messages: the contract's examples")
struct ClientMessageDecodingTests {
    static let queryJSON = #"{"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["room-1"]}"#
    static let query = F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-1"])

    @Test("hello, subscribe, resume, unsubscribe, query, watch and unwatch decode as written in protocol.md")
    func requests() {
        #expect(
            decoded(#"{"type":"hello","token":"s3cret","client":"plan/1.0"}"#)
                == .hello(token: "s3cret", client: "plan/1.0"))
        #expect(decoded(#"{"type":"subscribe","plan":"demo"}"#) == .subscribe(plan: "demo"))
        #expect(decoded(#"{"type":"subscribe","plan":"demo","since":9}"#) == .subscribe(plan: "demo", since: 9))
        #expect(decoded(#"{"type":"unsubscribe","plan":"demo"}"#) == .unsubscribe(plan: "demo"))
        #expect(
            decoded(#"{"type":"query","plan":"demo","query":\#(Self.queryJSON)}"#)
                == .query(plan: "demo", query: Self.query))
        #expect(
            decoded(#"{"type":"watch","plan":"demo","query":\#(Self.queryJSON),"watch":"w1"}"#)
                == .watch(plan: "demo", query: Self.query, watch: "w1"))
        #expect(decoded(#"{"type":"unwatch","watch":"w1"}"#) == .unwatch(watch: "w1"))
    }

    @Test("every op of the table in protocol.md §5 decodes inside a propose")
    func proposals() {
        let design = F.design.json
        let moved = F.design.with(title: "Design v2").json
        let entry = #"{"id":"e1","title":"Workshop","start":"2026-09-09T09:00","end":"2026-09-09T12:30"}"#
        let later = #"{"id":"e1","title":"Workshop","start":"2026-09-09T10:00","end":"2026-09-09T13:30"}"#
        let a1 = #"{"id":"a1","entryID":"e1","resourceID":"room-1"}"#
        let a1moved = #"{"id":"a1","entryID":"e1","resourceID":"room-2"}"#
        let link = #"{"predecessorID":"design","successorID":"build"}"#
        let cases: [(String, PlanOperation)] = [
            (
                #"{"type":"replace","previous":\#(design),"proposed":\#(moved)}"#,
                .replace(previous: F.design, proposed: F.design.with(title: "Design v2"))
            ),
            (#"{"type":"add","task":\#(F.spec.json)}"#, .add(F.spec)),
            (
                #"{"type":"reorder","previous":\#(design),"relativeTo":\#(F.build.json),"position":"after"}"#,
                .reorder(previous: F.design, relativeTo: F.build, position: .after)
            ),
            (#"{"type":"remove","previous":\#(F.release.json)}"#, .remove(previous: F.release)),
            (
                #"{"type":"link","dependency":\#(link)}"#,
                .link(TaskDependency(predecessorID: "design", successorID: "build"))
            ),
            (
                #"{"type":"unlink","dependency":{"predecessorID":"design","successorID":"build","type":"finish-to-start"}}"#,
                .unlink(TaskDependency(predecessorID: "design", successorID: "build"))
            ),
            (
                #"{"type":"timeline.apply","original":{"entry":\#(entry),"assignment":\#(a1)},"proposed":{"entry":\#(later),"assignment":\#(a1moved)}}"#,
                .timelineApply(
                    original: TimelineAssignedEntry(
                        entry: F.entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop"),
                        assignment: F.assignment("a1", "e1", "room-1")),
                    proposed: TimelineAssignedEntry(
                        entry: F.entry("e1", "2026-09-09T10:00", "2026-09-09T13:30", title: "Workshop"),
                        assignment: F.assignment("a1", "e1", "room-2")))
            ),
            (
                #"{"type":"timeline.add","entry":\#(entry),"assignments":[\#(a1)]}"#,
                .timelineAdd(
                    entry: F.entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop"),
                    assignments: [F.assignment("a1", "e1", "room-1")])
            ),
            (
                #"{"type":"timeline.remove","entry":\#(entry)}"#,
                .timelineRemove(entry: F.entry("e1", "2026-09-09T09:00", "2026-09-09T12:30", title: "Workshop"))
            ),
        ]
        for (op, operation) in cases {
            let text = #"{"type":"propose","id":"c7-000042","plan":"demo","baseVersion":12,"op":\#(op)}"#
            #expect(
                decoded(text) == .propose(id: "c7-000042", plan: "demo", baseVersion: 12, operation: operation),
                "\(operation.typeName)")
        }
    }

    @Test("the §3 task examples decode inside an add, with absent parentID and progress as null and 0")
    func taskExamples() {
        let examples = [
            #"{"id":"design","title":"Design","parentID":"phase-1","kind":"activity","schedule":{"start":"2026-09-08","end":"2026-09-10"},"progress":25}"#,
            #"{"id":"spec","title":"Spec","kind":"activity","progress":0}"#,
            #"{"id":"release","title":"Release","kind":"milestone","date":"2026-10-01"}"#,
            #"{"id":"phase-1","title":"Phase 1","kind":"summary"}"#,
        ]
        let expected = [F.design, F.spec, F.release, F.phase1]
        for (example, task) in zip(examples, expected) {
            let text =
                #"{"type":"propose","id":"p","plan":"demo","baseVersion":0,"op":{"type":"add","task":\#(example)}}"#
            #expect(decoded(text) == .propose(id: "p", plan: "demo", baseVersion: 0, operation: .add(task)))
        }
        let nullParent = #"{"id":"spec","title":"Spec","parentID":null,"kind":"activity"}"#
        let text =
            #"{"type":"propose","id":"p","plan":"demo","baseVersion":0,"op":{"type":"add","task":\#(nullParent)}}"#
        #expect(decoded(text) == .propose(id: "p", plan: "demo", baseVersion: 0, operation: .add(F.spec)))
    }

    @Test("a string ref is kept on every request; unknown fields are ignored; a null since is absent")
    func refsAndUnknownFields() {
        #expect(
            decoded(#"{"type":"hello","token":"t","ref":"r1","extra":{"a":[1,2]}}"#)
                == .hello(token: "t", client: "", ref: "r1"))
        #expect(
            decoded(#"{"type":"subscribe","plan":"demo","since":null,"ref":""}"#) == .subscribe(plan: "demo", ref: ""))
        #expect(decoded(#"{"type":"unwatch","watch":"w1","ref":null}"#) == .unwatch(watch: "w1"))
        let message = decoded(#"{"ref":"r9","type":"unsubscribe","plan":"demo","x":1}"#)
        #expect(message?.ref == "r9")
        #expect(message?.plan == "demo")
        #expect(message?.typeName == "unsubscribe")
        #expect(decoded(#"{"type":"subscribe","plan":"demo","since":0}"#) == .subscribe(plan: "demo", since: 0))
    }

    @Test("every client message encodes to compact JSON that decodes back to it")
    func roundTrips() {
        let messages: [ClientMessage] = [
            .hello(token: "tök\"en", client: "plan/1.0", ref: "r"),
            .hello(token: "t", client: ""),
            .subscribe(plan: "demo"),
            .subscribe(plan: "demo", since: 9, ref: "r2"),
            .unsubscribe(plan: "demo"),
            .query(plan: "demo", query: ClientMessageDecodingTests.query, ref: "q"),
            .watch(plan: "demo", query: ClientMessageDecodingTests.query, watch: "w1"),
            .unwatch(watch: "w1", ref: "u"),
            .propose(id: "c7-000042", plan: "demo", baseVersion: 12, operation: .add(F.design), ref: "p"),
            .propose(
                id: "c7-000043", plan: "demo", baseVersion: 0,
                operation: .reorder(previous: F.design, relativeTo: F.build, position: .before)),
        ]
        for message in messages {
            #expect(decoded(message.json) == message)
        }
        #expect(
            ClientMessage.subscribe(plan: "demo", since: 9).json == #"{"type":"subscribe","plan":"demo","since":9}"#)
        #expect(
            ClientMessage.watch(plan: "demo", query: ClientMessageDecodingTests.query, watch: "w1", ref: "r").json
                == #"{"type":"watch","plan":"demo","query":\#(Self.queryJSON),"watch":"w1","ref":"r"}"#)
        #expect(
            ClientMessage.propose(id: "c1", plan: "demo", baseVersion: 3, operation: .remove(previous: F.spec)).json
                == #"{"type":"propose","id":"c1","plan":"demo","baseVersion":3,"op":{"type":"remove","previous":\#(F.spec.json)}}"#
        )
    }
}
