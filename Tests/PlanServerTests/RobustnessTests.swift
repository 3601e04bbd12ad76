import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@Suite("Server: concurrency, crashes and slow readers", .database)
struct RobustnessTests {
    /// A random op built from the current copy: mostly valid, sometimes stale.
    static func randomOperation(_ copy: ClientPlanCopy, number: Int, random: inout SplitMix64) -> PlanOperation {
        let tasks = copy.tasks
        let task = tasks[Int.random(in: 0..<tasks.count, using: &random)]
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            return .add(
                try! GanttTask(
                    id: "n\(number)", title: "New \(number)", parentID: Bool.random(using: &random) ? "impl" : nil,
                    kind: .activity(schedule: nil, progress: Double(number % 100))))
        case 1:
            let siblings = tasks.filter { $0.parentID == task.parentID && $0.id != task.id }
            guard let target = siblings.randomElement(using: &random) else { fallthrough }
            return .reorder(
                previous: task, relativeTo: target, position: Bool.random(using: &random) ? .before : .after)
        case 2:
            guard case .activity(let schedule, _) = task.kind else { fallthrough }
            return .replace(
                previous: task, proposed: task.with(kind: .activity(schedule: schedule, progress: Double(number % 101)))
            )
        default:
            return .replace(previous: task, proposed: task.with(title: "\(task.title.prefix(20)) \(number)"))
        }
    }

    @Test("random concurrent proposals: contiguous versions; replaying the stream equals the final snapshot")
    func convergence() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let recorder = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { recorder.close() }
        let initial = try await recorder.subscribe(fixture.plan)
        let writers = try (0..<4).map { _ in
            try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        }
        defer { for writer in writers { writer.close() } }
        var confirmedCount = 0
        try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    try await writer.ready()
                    _ = try await writer.subscribe(fixture.plan)
                    var random = SplitMix64(seed: UInt64(index + 1))
                    var acks = 0
                    for step in 0..<40 {
                        let copy = writer.connection.copy(of: fixture.plan)!
                        let operation = Self.randomOperation(copy, number: index * 1000 + step, random: &random)
                        let answer = try await writer.propose(operation, plan: fixture.plan)
                        if answer.ackVersion != nil, case .ack(_, _, _, false, _) = answer { acks += 1 }
                    }
                    return acks
                }
            }
            for try await acks in group { confirmedCount += acks }
        }
        #expect(confirmedCount > 40)
        // The recorder saw every version exactly once, in order.
        var replay = initial
        var versions: [Int] = []
        while versions.count < confirmedCount {
            let message = try await recorder.expect("confirmed")
            guard case .confirmed(_, let version, _, _, let changes, _, _) = message else { continue }
            versions.append(version)
            try replay.apply(version: version, changes: changes)
        }
        #expect(versions == Array(1...confirmedCount))
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(stored.version == confirmedCount)
        #expect(replay.snapshot == PlanSnapshot(plan: fixture.plan, version: stored.version, document: stored.document))
        #expect(recorder.connection.copy(of: fixture.plan) == replay)
    }

    @Test("two server processes on one database: changes cross over, proposals stay serialized")
    func twoProcesses() async throws {
        let fixture = try PlanFixture.make()
        let first = try ServerProcess.start(arguments: ["--instance", "one"])
        let second = try ServerProcess.start(arguments: ["--instance", "two"])
        let a = try TestClient(url: first.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let b = try TestClient(url: second.url, token: fixture.editorToken, transport: SharedTransport.instance)
        defer {
            a.close()
            b.close()
        }
        try await a.ready()
        try await b.ready()
        let copy = try await a.subscribe(fixture.plan)
        _ = try await b.subscribe(fixture.plan)
        let spec = copy["spec"]!
        let renamed = spec.with(title: "from one")
        #expect(try await a.propose(.replace(previous: spec, proposed: renamed), plan: fixture.plan).ackVersion == 1)
        guard case .confirmed(_, 1, _, _, let changes, _, _) = try await b.expect("confirmed") else {
            Issue.record("no confirmed on the second server")
            return
        }
        #expect(changes.upsert == [renamed])
        // Both propose from the same original at once: exactly one wins, on either server.
        let review = copy["review"]!
        async let fromA = a.propose(.replace(previous: review, proposed: review.with(title: "A")), plan: fixture.plan)
        async let fromB = b.propose(.replace(previous: review, proposed: review.with(title: "B")), plan: fixture.plan)
        let answers = try await [fromA, fromB]
        #expect(answers.filter { $0.ackVersion != nil }.count == 1)
        #expect(answers.compactMap(\.rejectionCode) == [.staleTask])
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(stored.version == 2)
        // Both subscribers end at the same version with the same data.
        _ = try await a.expect("confirmed") { if case .confirmed(_, 2, _, _, _, _, _) = $0 { true } else { false } }
        _ = try await b.expect("confirmed") { if case .confirmed(_, 2, _, _, _, _, _) = $0 { true } else { false } }
        #expect(a.connection.copy(of: fixture.plan) == b.connection.copy(of: fixture.plan))
        #expect(
            a.connection.copy(of: fixture.plan)?.snapshot
                == PlanSnapshot(plan: fixture.plan, version: 2, document: stored.document))
    }

    @Test(
        "another process committed and moved the log start past this one: it reloads, subscribers get a snapshot, watchers a page"
    )
    func trimmedElsewhere() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        let copy = try await viewer.subscribe(fixture.plan)
        let query = try TimelineQuery(
            start: Demo.time("2026-09-01T00:00"), end: Demo.time("2026-10-01T00:00"), resourceIDs: ["room-1"])
        viewer.connection.watch(fixture.plan, query: query, id: "w")
        _ = try await viewer.expect("page") { if case .page(_, "w", 0, _, _, _) = $0 { true } else { false } }
        let release = copy["release"]!
        let launched = release.with(title: "Launch")
        // Its own log row is already behind the start: following the log cannot work.
        let state = try TestDatabase.commitOutside(
            .replace(previous: release, proposed: launched), to: fixture.plan, baseVersion: 0,
            state: fixture.document.state, logStart: 1)
        guard case .snapshot(let snapshot, _) = try await viewer.expect("snapshot") else {
            throw HarnessError("unexpected message")
        }
        var expected = PlanSnapshot(
            plan: fixture.plan, version: 1, document: PlanDocument(title: fixture.document.title, state: state))
        expected.role = .viewer
        #expect(snapshot == expected)
        #expect(snapshot.tasks.first { $0.id == "release" } == launched)
        _ = try await viewer.expect("page") { if case .page(_, "w", 1, _, _, _) = $0 { true } else { false } }
    }

    @Test("SIGKILL in the middle of a stream: every acknowledged edit survives; re-sent proposals apply once")
    func crash() async throws {
        let fixture = try PlanFixture.make()
        var server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        _ = try await editor.subscribe(fixture.plan)
        var ids: [String] = []
        for number in 0..<150 {
            let task = try GanttTask(
                id: "k\(number)", title: "Crash \(number)", kind: .activity(schedule: nil, progress: 0))
            ids.append(editor.connection.propose(.add(task), plan: fixture.plan))
        }
        var acknowledged: [String: Int] = [:]
        while acknowledged.count < 20 {
            guard case .ack(let id, _, let version, _, _) = try await editor.expect("ack") else { continue }
            acknowledged[id] = version
        }
        server.crash()
        // Every acknowledged add is stored.
        let afterCrash = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        for (id, _) in acknowledged {
            let number = ids.firstIndex(of: id)!
            #expect(afterCrash.document.state.tasks["k\(number)"] != nil, "acknowledged \(id) lost")
        }
        // Restart; a reconnecting client re-sends what was not answered, with the same ids.
        server = try ServerProcess.start()
        let again = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { again.close() }
        for (number, id) in ids.enumerated() {
            let task = try GanttTask(
                id: "k\(number)", title: "Crash \(number)", kind: .activity(schedule: nil, progress: 0))
            let answer = try await again.propose(.add(task), plan: fixture.plan, id: id)
            if let version = acknowledged[id] { #expect(answer.ackVersion == version, "\(id) answered differently") }
            #expect(answer.ackVersion != nil, "\(id): \(answer)")
        }
        let final = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(final.version == 150)
        #expect(final.document.state.tasks.count == Demo.document.state.tasks.count + 150)
    }

    @Test("a reader that stops reading is closed with 1013 and released; the others get everything")
    func slowReader() async throws {
        // A plan whose snapshot is large (~300 KB), so a few unread snapshots pass the queue cap.
        let fixture = try StalledReaderTests.bigPlan()
        let server = try ServerProcess.start(arguments: ["--max-queue-bytes", "2000000"])
        let stalled = try RawWebSocket(port: server.port, receiveBuffer: 4096, timeoutSeconds: nil)
        try await offThePool {
            try stalled.handshake()
            try stalled.send(#"{"type":"hello","token":"\#(fixture.viewerToken)"}"#)
            _ = try stalled.readText(containing: "welcome")
            // Ask for many snapshots and read none of them.
            for _ in 0..<40 { try stalled.send(#"{"type":"subscribe","plan":"\#(fixture.plan)"}"#) }
        }

        let watcher = try TestClient(url: server.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        defer {
            watcher.close()
            editor.close()
        }
        try await watcher.ready()
        _ = try await watcher.subscribe(fixture.plan)
        try await editor.ready()
        var last = ""
        for number in 0..<50 {
            let task = try GanttTask(
                id: "s\(number)", title: "edit \(number)", kind: .activity(schedule: nil, progress: 0))
            last = editor.connection.propose(.add(task), plan: fixture.plan)
        }
        #expect(try await editor.answer(to: last, within: 60).ackVersion == 50)
        _ = try await watcher.expect("confirmed", within: 60) {
            if case .confirmed(_, 50, _, _, _, _, _) = $0 { true } else { false }
        }
        #expect(watcher.connection.copy(of: fixture.plan)?.version == 50)
        // The stalled reader was cut off: the server says 1013 (the close frame itself may not fit
        // into a socket nobody reads, so the reader sees 1013 or just the end of the stream).
        let code = try await offThePool { try stalled.readUntilClose() }
        #expect(code == 1013 || code == nil)
        #expect(server.log.contains("closed with 1013"))
    }

    @Test(
        "SIGTERM: in-flight work finishes, every connection is closed with 1001 (one service thread or three)",
        arguments: [1, 3])
    func gracefulShutdown(serviceThreads: Int) async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--service-threads", String(serviceThreads)])
        // As many clients as threads: connections go round the threads, so each serves one.
        var clients: [TestClient] = []
        for _ in 0..<serviceThreads {
            let client = try await TestClient.connected(to: server, token: fixture.viewerToken)
            _ = try await client.subscribe(fixture.plan)
            clients.append(client)
        }
        #expect(server.terminate() == 0)
        for client in clients { #expect(try await client.expectDisconnect() == 1001) }
    }
}
