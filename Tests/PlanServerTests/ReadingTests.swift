import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanServer
import PlanStore
import PlanTestSupport
import Testing

@Suite("Server: session and reading", .database)
struct ReadingTests {
    @Test("hello → welcome with limits; subscribe → snapshot with summaries, then presence")
    func helloAndSubscribe() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let client = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { client.close() }
        let copy = try await client.subscribe(fixture.plan)
        #expect(copy.version == 0)
        #expect(copy.tasks.map(\.id) == ["design", "spec", "review", "impl", "build", "release"])
        #expect(copy.summaries["design"]?.progress == 10)
        #expect(copy.summaries["design"]?.start == Demo.date("2026-09-08"))
        let presence = try await client.expect("presence")
        guard case .presence(_, let count, let sessions) = presence else { throw HarnessError("unexpected message") }
        #expect(count == 1 && sessions.first?.user == fixture.editor)
    }

    @Test("a wrong token gets unauthenticated and close 1008; so does a message before hello")
    func unauthenticated() async throws {
        let server = try ServerProcess.start()
        let client = try TestClient(url: server.url, token: "cs_wrong", transport: SharedTransport.instance)
        let error = try await client.expect("error")
        #expect(error == .error(code: .unauthenticated, message: "unknown token"))
        #expect(try await client.expectDisconnect() == 1008)
    }

    @Test("plans without a role are unknownPlan, whether they exist or not; ref is echoed")
    func unknownPlan() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let stranger = try await TestClient.connected(to: server, token: fixture.strangerToken)
        defer { stranger.close() }
        stranger.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan, ref: "r1").bytes)
        let first = try await stranger.expect("error")
        stranger.connection.sendRaw(ClientMessage.subscribe(plan: "no-such-plan", ref: "r2").bytes)
        let second = try await stranger.expect("error")
        guard case .error(let code1, _, let ref1) = first, case .error(let code2, _, let ref2) = second else {
            throw HarnessError("unexpected message")
        }
        #expect(code1 == .unknownPlan && code2 == .unknownPlan)
        #expect(ref1 == "r1" && ref2 == "r2")
        // A grant made while the server runs takes effect without a restart.
        let name = TestDatabase.unique("late")
        let token = try TestDatabase.store.createUser(name)
        try TestDatabase.store.grant(user: name, plan: fixture.plan, role: .viewer)
        let late = try await TestClient.connected(to: server, token: token)
        defer { late.close() }
        #expect(try await late.subscribe(fixture.plan).version == 0)
    }

    /// Subscribes `editor` and renames the plan's release `times` times, one ack (version) each.
    static func renameRelease(times: Int, by editor: TestClient, in plan: String) async throws {
        var release = try await editor.subscribe(plan)["release"]!
        for index in 1...times {
            let renamed = release.with(title: "Release \(index)")
            #expect(
                try await editor.propose(.replace(previous: release, proposed: renamed), plan: plan).ackVersion == index
            )
            release = renamed
        }
    }

    @Test("resume with since: the missed confirmed, then resumed; since = current: just resumed")
    func resume() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        try await Self.renameRelease(times: 3, by: editor, in: fixture.plan)
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        viewer.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan, since: 1).bytes)
        let two = try await viewer.expect("confirmed")
        let three = try await viewer.expect("confirmed")
        let resumed = try await viewer.expect("resumed")
        guard case .confirmed(_, let v2, _, _, _, _, _) = two,
            case .confirmed(_, let v3, _, _, let changes, _, _) = three
        else {
            return
        }
        #expect(v2 == 2 && v3 == 3)
        #expect(changes.upsert.first?.title == "Release 3")
        #expect(resumed == .resumed(plan: fixture.plan, version: 3, role: .viewer))
        viewer.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan, since: 3).bytes)
        #expect(try await viewer.expect("resumed") == .resumed(plan: fixture.plan, version: 3, role: .viewer))
    }

    @Test("resume after a server restart is served from the log, not a snapshot")
    func resumeFromLog() async throws {
        let fixture = try PlanFixture.make()
        var server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        let copy = try await editor.subscribe(fixture.plan)
        let spec = copy["spec"]!
        let proposed = spec.with(title: "Spec v2")
        #expect(
            try await editor.propose(.replace(previous: spec, proposed: proposed), plan: fixture.plan).ackVersion == 1)
        editor.close()
        server.terminate()
        server = try ServerProcess.start()
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        viewer.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan, since: 0).bytes)
        let first = await viewer.inbox.next(within: 10) { event in
            if case .message(let message) = event { return ["confirmed", "snapshot"].contains(message.typeName) }
            return false
        }
        guard case .message(.confirmed(_, let version, _, _, let changes, _, _))? = first else {
            Issue.record("expected confirmed from the log, got \(String(describing: first))")
            return
        }
        #expect(version == 1 && changes.upsert.first?.title == "Spec v2")
        #expect(try await viewer.expect("resumed") == .resumed(plan: fixture.plan, version: 1, role: .viewer))
    }

    @Test("--log-keep 5: from further back a resume gets a snapshot, within the kept versions the missed confirmed")
    func logKeep() async throws {
        let fixture = try PlanFixture.make()
        var server = try ServerProcess.start(arguments: ["--log-keep", "5"])
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        try await Self.renameRelease(times: 12, by: editor, in: fixture.plan)
        editor.close()
        // What a subscriber resuming from `since` gets first, then the versions of the confirmed up
        // to `resumed` (none after a snapshot).
        func resume(_ viewer: TestClient, since: Int) async throws -> (first: String, confirmed: [Int]) {
            viewer.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan, since: since).bytes)
            var confirmed: [Int] = []
            while true {
                let event = await viewer.inbox.next(within: 10) { event in
                    if case .message(let message) = event {
                        return ["confirmed", "snapshot", "resumed"].contains(message.typeName)
                    }
                    return false
                }
                switch event {
                case .message(.snapshot(let snapshot, _))?:
                    #expect(snapshot.version == 12 && confirmed.isEmpty)
                    return ("snapshot", confirmed)
                case .message(.confirmed(_, let version, _, _, _, _, _))?: confirmed.append(version)
                case .message(.resumed(_, let version, _, _))?:
                    #expect(version == 12)
                    return ("resumed", confirmed)
                default: throw HarnessError("no answer to since \(since)")
                }
            }
        }
        // Versions 8…12 are kept (the log starts at 7). Memory may reach further back: from it, the
        // missed confirmed; after a restart, from the log, and a snapshot from before its start.
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        #expect(try await resume(viewer, since: 7) == ("resumed", [8, 9, 10, 11, 12]))
        #expect(try await resume(viewer, since: 1) == ("resumed", Array(2...12)))
        viewer.close()
        server.terminate()
        server = try ServerProcess.start(arguments: ["--log-keep", "5"])
        let again = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { again.close() }
        #expect(try await resume(again, since: 7) == ("resumed", [8, 9, 10, 11, 12]))
        #expect(try await resume(again, since: 6) == ("snapshot", []))
        #expect(try await resume(again, since: 1) == ("snapshot", []))
        // The rows before the start go (deleted by the first server, or by the second on loading the
        // plan); the row at the start stays, for its undo: 7…12.
        let connection = try PGConnection(conninfo: TestDatabase.url)
        var logged = -1
        for _ in 0..<100 {
            logged =
                try connection.query("SELECT count(*) FROM mutations WHERE plan_id = $1", [fixture.plan]).int(0, 0)
                ?? -1
            if logged == 6 { break }
            try await Task.sleep(for: .milliseconds(50))  // polling the database, not synchronizing
        }
        #expect(logged == 6)
    }

    @Test(
        "--log-keep refuses anything but a count of versions", .timeLimit(.minutes(1)),
        arguments: ["-1", "many", "1e3"])
    func logKeepRefused(value: String) {
        let code = ServerCommands.main(
            arguments: ["serve", "--log-keep", value, "--port", "0"], environment: ["DATABASE_URL": TestDatabase.url])
        #expect(code == 2)
    }

    @Test("unsubscribe stops the stream; unsubscribe and unwatch of unknown ones are notSubscribed")
    func unsubscribe() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        _ = try await viewer.subscribe(fixture.plan)
        viewer.connection.sendRaw(ClientMessage.unsubscribe(plan: fixture.plan).bytes)
        viewer.connection.sendRaw(ClientMessage.unsubscribe(plan: fixture.plan, ref: "again").bytes)
        let error = try await viewer.expect("error")
        guard case .error(let code, _, let ref) = error else { throw HarnessError("unexpected message") }
        #expect(code == .notSubscribed && ref == "again")
        viewer.connection.sendRaw(ClientMessage.unwatch(watch: "nope").bytes)
        guard case .error(let code2, _, _) = try await viewer.expect("error") else {
            throw HarnessError("unexpected message")
        }
        #expect(code2 == .notSubscribed)
        // An edit after unsubscribing does not reach the viewer.
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let copy = try await editor.subscribe(fixture.plan)
        let review = copy["review"]!
        _ = try await editor.propose(.replace(previous: review, proposed: review.with(title: "R")), plan: fixture.plan)
        // A later request proves the stream is quiet: its answer comes first.
        viewer.connection.sendRaw(ClientMessage.unwatch(watch: "marker").bytes)
        _ = try await viewer.expect("error")
        let leftovers = await viewer.inbox.drain()
        #expect(!leftovers.contains { if case .message(.confirmed) = $0 { return true } else { return false } })
    }

    @Test("query and watch pages follow seed 003; a watch gets a fresh page only when its answer changes")
    func queryAndWatch() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let query = try TimelineQuery(
            start: Demo.time("2026-09-09T10:00"), end: Demo.time("2026-09-16T00:00"), resourceIDs: ["room-1"])
        editor.connection.sendRaw(ClientMessage.query(plan: fixture.plan, query: query, ref: "q").bytes)
        guard case .page(_, let watchID, _, _, let page, let ref) = try await editor.expect("page") else {
            throw HarnessError("unexpected message")
        }
        #expect(watchID == nil && ref == "q")
        #expect(page.entries.map(\.id) == ["e1"])  // starts before the query: included, unclipped
        #expect(page.entries.first?.start == Demo.time("2026-09-09T09:00"))
        editor.connection.watch(fixture.plan, query: query, id: "w1")
        _ = try await editor.expect("page") {
            if case .page(_, "w1", _, _, _, _) = $0 { return true } else { return false }
        }

        // A change outside the watched window and resources: no page.
        let e2 = Demo.document.state.timeline.entry("e2")!
        let a2 = Demo.document.state.timeline.assignment("a2")!
        let retitled = TimelineAssignedEntry(entry: e2.with(title: "Retro!"), assignment: a2)
        let answer = try await editor.propose(
            .timelineApply(original: TimelineAssignedEntry(entry: e2, assignment: a2), proposed: retitled),
            plan: fixture.plan)
        #expect(answer.ackVersion == 1)
        // A change that moves e2 into the window on room-1: a fresh page with it.
        let moved = TimelineAssignedEntry(
            entry: try e2.with(title: "Retro!").with(
                start: Demo.time("2026-09-10T14:00"), end: Demo.time("2026-09-10T15:00")),
            assignment: a2.with(resourceID: "room-1"))
        #expect(
            try await editor.propose(.timelineApply(original: retitled, proposed: moved), plan: fixture.plan).ackVersion
                == 2)
        let fresh = try await editor.expect("page") {
            if case .page(_, "w1", _, _, _, _) = $0 { return true } else { return false }
        }
        guard case .page(_, _, let version, _, let freshPage, _) = fresh else {
            throw HarnessError("unexpected message")
        }
        #expect(version == 2)
        #expect(Set(freshPage.entries.map(\.id)) == ["e1", "e2"])
        // Bad queries: unknown resource, too long.
        let unknown = try TimelineQuery(start: query.start, end: query.end, resourceIDs: ["room-9"])
        editor.connection.sendRaw(ClientMessage.query(plan: fixture.plan, query: unknown).bytes)
        guard case .error(let code, _, _) = try await editor.expect("error") else {
            throw HarnessError("unexpected message")
        }
        #expect(code == .badQuery)
        editor.connection.sendRaw(
            Array(
                #"{"type":"query","plan":"\#(fixture.plan)","query":{"start":"2026-01-01T00:00","end":"2027-02-06T00:01","resourceIDs":["room-1"]}}"#
                    .utf8))
        guard case .error(let code2, _, _) = try await editor.expect("error") else {
            throw HarnessError("unexpected message")
        }
        #expect(code2 == .badQuery)
    }

    @Test("/healthz answers ok while the database answers; /metrics is Prometheus text")
    func http() async throws {
        let server = try ServerProcess.start()
        let health = shell("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\(server.port)/healthz")
        #expect(health.output == "200")
        let metrics = shell("curl -s http://127.0.0.1:\(server.port)/metrics")
        #expect(metrics.output.contains("# TYPE chronosketch_connections gauge"))
        #expect(metrics.output.contains("chronosketch_commit_seconds_bucket"))
    }
}
