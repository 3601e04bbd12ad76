import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanServer
import PlanStore
import PlanTestSupport
import Testing

// Plans as the server holds them: loaded and left, their presence, and a big one's snapshot.

@Suite("Server: plans in memory", .database)
struct PlanLifetimeTests {
    @Test("a plan created while the server runs just works; an idle plan leaves memory and is loaded fresh")
    func lifetime() async throws {
        let server = try ServerProcess.start(arguments: ["--idle-plan-seconds", "1"])
        let fixture = try PlanFixture.make()  // created after the server started
        let client = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { client.close() }
        #expect(try await client.subscribe(fixture.plan).version == 0)
        client.connection.unsubscribe(fixture.plan)
        // Wait (bounded) until the server reports no plan in memory.
        var loaded = "?"
        for _ in 0..<100 {
            loaded =
                shell("curl -s http://127.0.0.1:\(server.port)/metrics | grep '^chronosketch_loaded_plans '").output
            if loaded.hasSuffix(" 0") { break }
            try await Task.sleep(for: .milliseconds(100))  // polling an HTTP endpoint, not synchronizing
        }
        #expect(loaded == "chronosketch_loaded_plans 0")
        // A change made meanwhile by another writer is there when the plan is loaded again.
        let release = fixture.document.state.tasks["release"]!
        try TestDatabase.commitOutside(
            .replace(previous: release, proposed: release.with(title: "Launch")), to: fixture.plan, baseVersion: 0,
            state: fixture.document.state)
        let copy = try await client.subscribe(fixture.plan)
        #expect(copy.version == 1 && copy["release"]?.title == "Launch")
    }
}

@Suite("Server: presence", .database)
struct PresenceTests {
    @Test("a newcomer gets presence once, at once; the others get the coalesced update")
    func presence() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let first = try TestClient(
            url: server.url, token: fixture.editorToken, name: "first", transport: SharedTransport.instance)
        let second = try TestClient(
            url: server.url, token: fixture.viewerToken, name: "second", transport: SharedTransport.instance)
        defer {
            first.close()
            second.close()
        }
        try await first.ready()
        _ = try await first.subscribe(fixture.plan)
        _ = try await first.expect("presence") { if case .presence(_, 1, _) = $0 { true } else { false } }
        try await second.ready()
        _ = try await second.subscribe(fixture.plan)
        guard case .presence(_, 2, let sessions) = try await second.expect("presence") else {
            Issue.record("the newcomer's presence should count 2")
            return
        }
        // Editors first.
        #expect(sessions.map(\.client) == ["first", "second"])
        // The first subscriber hears of the newcomer with the next coalesced update …
        _ = try await first.expect("presence", within: 5) { if case .presence(_, 2, _) = $0 { true } else { false } }
        // … which the newcomer, already up to date, does not get again.
        second.connection.sendRaw(ClientMessage.unwatch(watch: "marker").bytes)
        let next = await second.inbox.next(within: 5) { event in
            if case .message(let message) = event { return ["presence", "error"].contains(message.typeName) }
            return false
        }
        guard case .message(let message)? = next else {
            Issue.record("no answer to the marker")
            return
        }
        #expect(message.typeName == "error", "a second presence reached the newcomer")
    }
}

@Suite("Server: large plans", .database)
struct LargePlanTests {
    @Test("a snapshot of 20,000 tasks arrives whole (written in fragments) and equals the stored plan")
    func largeSnapshot() async throws {
        var tasks = Demo.document.state.tasks.tasks
        for number in 0..<20000 {
            tasks.append(
                try GanttTask(
                    id: "big-\(number)", title: "Task number \(number)", parentID: number % 2 == 0 ? "impl" : nil,
                    kind: .activity(
                        schedule: try TaskSchedule(start: Demo.date("2026-09-01"), days: 1 + number % 30),
                        progress: Double(number % 101))))
        }
        var document = Demo.document
        document.state.tasks = try TaskCollection(tasks, dependencies: Demo.document.state.tasks.dependencies)
        let fixture = try PlanFixture.make(document)
        let server = try ServerProcess.start()
        let viewers = try (0..<3).map { _ in
            try TestClient(url: server.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        }
        defer { for viewer in viewers { viewer.close() } }
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        let expected = PlanSnapshot(plan: fixture.plan, version: 0, document: stored.document)
        for viewer in viewers { try await viewer.ready() }
        // All ask at once: one encoding (on a worker, the plan is large) serves them all.
        for viewer in viewers { viewer.connection.subscribe(fixture.plan) }
        for viewer in viewers {
            _ = try await viewer.expect("snapshot", within: 30)
            #expect(viewer.connection.copy(of: fixture.plan)?.snapshot == expected)
        }
        // A subscriber joining while edits go on still converges: the snapshot (encoded off the
        // hub) is followed by every change confirmed meanwhile.
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let late = try TestClient(url: server.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        defer {
            editor.close()
            late.close()
        }
        try await editor.ready()
        try await late.ready()
        var last = ""
        for number in 0..<20 {
            if number == 5 { late.connection.subscribe(fixture.plan) }
            let task = try GanttTask(id: "late-\(number)", title: "Late", kind: .activity(schedule: nil, progress: 0))
            last = editor.connection.propose(.add(task), plan: fixture.plan, baseVersion: 0)
        }
        #expect(try await editor.answer(to: last, within: 30).ackVersion == 20)
        _ = try await late.expect("confirmed", within: 30) {
            if case .confirmed(_, 20, _, _, _, _, _) = $0 { true } else { false }
        }
        let final = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(
            late.connection.copy(of: fixture.plan)?.snapshot
                == PlanSnapshot(plan: fixture.plan, version: 20, document: final.document))
    }
}
