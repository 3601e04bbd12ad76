import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// `history`, `fetch` and baselines through a real server and PostgreSQL (protocol.md §9).
@Suite("Server: history, time travel and baselines", .serialized, .database)
struct HistoryTests {
    @Test("history pages the log newest first: limit, before, more, logStart; each entry as it was confirmed")
    func paging() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        var titles: [String] = []
        for index in 1...7 {
            let spec = scene.copy["spec"]!
            titles.append("Spec \(index)")
            try await scene.commit(.replace(previous: spec, proposed: spec.with(title: titles.last!)))
        }
        let undone = try await scene.commit(.undo(version: 7))
        let first = try #require(try await scene.history(limit: 3).historyPage)
        #expect(first.entries.map(\.version) == [8, 7, 6])
        #expect(first.more && first.logStart == 0)
        let second = try #require(try await scene.history(before: 6, limit: 3).historyPage)
        #expect(second.entries.map(\.version) == [5, 4, 3] && second.more)
        let last = try #require(try await scene.history(before: 3, limit: 3).historyPage)
        #expect(last.entries.map(\.version) == [2, 1] && !last.more)
        let all = try #require(try await scene.history().historyPage)
        #expect(all.entries.map(\.version) == Array((1...8).reversed()) && !all.more)
        // Each entry: the confirmed's mutation, time and changes; the op as confirmed.
        for entry in all.entries {
            guard
                case .confirmed(_, _, let id, let user, let changes, let at, let undoes) = try await scene.confirmed(
                    entry.version)
            else { continue }
            #expect(entry.mutationID == id && entry.user == user && entry.user == scene.fixture.editor)
            #expect(entry.at == at && !at.isEmpty)
            #expect(entry.undoes == undoes)
            #expect(try JSONValue(parsing: Array(entry.changesJSON.utf8)) == JSONValue(parsing: changes.bytes))
        }
        #expect(all.entries.first?.undoes == 7 && all.entries.first?.version == undone)
        #expect(all.entries.last?.opJSON?.contains(#""title":"Spec 1""#) == true)
        #expect(zip(all.entries, all.entries.dropFirst()).allSatisfy { $0.at >= $1.at })
    }

    @Test("history and fetch refuse bad limits, versions outside the log and users who cannot read the plan")
    func refusals() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        try await scene.commit(.replace(previous: spec, proposed: spec.with(title: "S")))
        #expect(try await scene.history(limit: 0).errorCode == .badMessage)
        #expect(try await scene.history(limit: 501).errorCode == .badMessage)
        #expect(try await scene.history(limit: 500).historyPage?.entries.count == 1)
        #expect(try await scene.fetch(2).errorCode == .historyUnavailable)
        #expect(try await scene.fetch(-1).errorCode == .historyUnavailable)
        let stranger = try await TestClient.connected(to: scene.server, token: scene.fixture.strangerToken)
        defer { stranger.close() }
        #expect(try await scene.history(client: stranger).errorCode == .unknownPlan)
        #expect(try await scene.fetch(0, client: stranger).errorCode == .unknownPlan)
        // Written by hand: a limit that is not a number, a version missing.
        let ref = TestDatabase.unique("raw")
        scene.editor.connection.sendRaw(
            Array(#"{"type":"history","plan":"\#(scene.plan)","limit":"ten","ref":"\#(ref)"}"#.utf8))
        #expect(try await scene.editor.nextMessage(matching: ref).errorCode == .badMessage)
        scene.editor.connection.sendRaw(Array(#"{"type":"fetch","plan":"\#(scene.plan)","ref":"\#(ref)-2"}"#.utf8))
        #expect(try await scene.editor.nextMessage(matching: "\(ref)-2").errorCode == .badMessage)
        // None of it touched the plan or the editor's subscription.
        let fetched = try await scene.fetch(1).snapshotCopy
        #expect(
            fetched == scene.copy,
            "\(String(describing: fetched.map { ServerMessage.snapshot($0.snapshot).json }))\n\(ServerMessage.snapshot(scene.copy.snapshot).json)"
        )
    }

    @Test("fetch rebuilds every version of a randomized run from checkpoints and the log, also after a crash")
    func fetchEveryVersion() async throws {
        var run = RandomHistoryRun(seed: 15)
        let scene = try await HistoryScene(arguments: ["--checkpoint-every", "4"], document: run.document)
        defer { scene.close() }
        for step in 0..<60 {
            try await run.step(scene)
            if step == 30 { try await scene.restart(crash: true) }
        }
        let current = scene.copy.version
        #expect(current > 30, "most random ops were confirmed")
        #expect(run.inverses.count > 30)
        for version in 0...current {
            guard let expected = scene.copies[version] else { continue }
            let answer = try await scene.fetch(version)
            #expect(answer.isHistoricalSnapshot, "version \(version): \(answer)")
            #expect(answer.snapshotCopy == expected, "version \(version)")
        }
        // A fetched snapshot does not replace the subscribed copy, nor start a subscription.
        #expect(scene.copy.version == current)
        #expect(try await scene.fetch(current + 1).errorCode == .historyUnavailable)
    }

    @Test("baselines: set (moved when the name exists), removed, checked, in snapshots and changes")
    func baselines() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        let spec = scene.copy["spec"]!
        try await scene.commit(.replace(previous: spec, proposed: spec.with(title: "S")))
        let set = try await scene.commit(.baselineSet(name: "Q3 commitment", version: nil))
        #expect(scene.copy.snapshot.baselines.map(\.name) == ["Q3 commitment"])
        #expect(scene.copy.snapshot.baselines.first?.version == set - 1, "the version it was judged against")
        guard case .confirmed(_, _, _, _, let changes, let at, _) = try await scene.confirmed(set) else { return }
        #expect(changes.baselines?.first?.at == at)
        let moved = try await scene.commit(.baselineSet(name: "Q3 commitment", version: 0))
        try await scene.commit(.baselineSet(name: "Beta", version: moved))
        #expect(scene.copy.snapshot.baselines.map(\.version).sorted() == [0, moved])
        #expect(try await scene.propose(.baselineRemove(name: "Nope")).rejectionCode == .staleBaseline)
        #expect(try await scene.propose(.baselineSet(name: "Beta", version: 99)).rejectionCode == .badMessage)
        for name in ["", "   ", String(repeating: "x", count: 129)] {
            let id = TestDatabase.unique("bad")
            var writer = JSONWriter()
            writer.string(name)
            let answer = try await scene.editor.proposeRaw(
                id: id, plan: scene.plan, baseVersion: scene.copy.version,
                op: #"{"type":"baseline.set","name":\#(writer.string)}"#)
            #expect(answer.rejectionCode == .badMessage, "\(answer)")
        }
        try await scene.commit(.baselineRemove(name: "Q3 commitment"))
        #expect(scene.copy.snapshot.baselines.map(\.name) == ["Beta"])
        // A new subscriber's snapshot carries them; a fetch of the past has the list as it was.
        let fresh = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { fresh.close() }
        #expect(try await fresh.subscribe(scene.plan) == scene.copy)
        #expect(try await scene.fetch(set).snapshotCopy?.snapshot.baselines.map(\.name) == ["Q3 commitment"])
    }

    @Test("--log-keep never trims a version a baseline names; once removed, the log moves on")
    func baselineHoldsTheLog() async throws {
        let scene = try await HistoryScene(arguments: ["--log-keep", "3", "--checkpoint-every", "2"])
        defer { scene.close() }
        var version = 0
        func rename() async throws {
            let spec = scene.copy["spec"]!
            version = try await scene.commit(.replace(previous: spec, proposed: spec.with(title: "S\(version)")))
        }
        try await rename()
        try await rename()
        try await scene.commit(.baselineSet(name: "kept", version: 2))
        for _ in 0..<15 { try await rename() }
        let page = try #require(try await scene.history(limit: 1).historyPage)
        #expect(page.logStart <= 2 && page.logStart >= 0)
        #expect(try await scene.fetch(2).snapshotCopy == scene.copies[2])
        try await scene.commit(.baselineRemove(name: "kept"))
        let fresh = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        defer { fresh.close() }
        #expect(try await fresh.subscribe(scene.plan) == scene.copy)
        for _ in 0..<15 { try await rename() }
        let later = try #require(try await scene.history(limit: 500).historyPage)
        #expect(later.logStart > 2)
        #expect(later.entries.last?.version == later.logStart)
        #expect(try await scene.fetch(2).errorCode == .historyUnavailable)
        #expect(try await scene.undo(2).rejectionCode == .historyUnavailable)
        let oldest = try await scene.fetch(later.logStart)
        #expect(oldest.snapshotCopy == scene.copies[later.logStart], "\(oldest)")
    }

    @Test("plan export --version and plan history read the same past as the wire, from the command line")
    func commandLine() async throws {
        let scene = try await HistoryScene(arguments: ["--checkpoint-every", "2"])
        defer { scene.close() }
        for title in ["One", "Two", "Three"] {
            let spec = scene.copy["spec"]!
            try await scene.commit(.replace(previous: spec, proposed: spec.with(title: title)))
        }
        try await scene.commit(.undo(version: 3))
        let export = try await GrantEndToEndTests.command("plan export \(scene.plan) --version 2")
        #expect(export.status == 0, "\(export.output)")
        let exported = try PlanDocument(json: try JSONValue(parsing: Array(export.output.utf8)))
        #expect(exported.state.tasks.task(withID: "spec")?.title == "Two")
        #expect(export.output.hasPrefix(#"{"id":"\#(scene.plan)","version":2,"#))
        let history = try await GrantEndToEndTests.command("plan history \(scene.plan) --since 1")
        #expect(history.status == 0, "\(history.output)")
        let lines = history.output.split(separator: "\n")
        let page = try #require(try await scene.history().historyPage)
        #expect(lines.count == 3)
        for (line, entry) in zip(lines, page.entries.reversed().dropFirst()) {
            #expect(try JSONValue(parsing: Array(line.utf8)) == JSONValue(parsing: entry.bytes))
        }
        let missing = try await GrantEndToEndTests.command("plan export \(scene.plan) --version 9")
        #expect(missing.status == 1 && missing.output.contains("cannot be rebuilt"), "\(missing.output)")
        let unknown = try await GrantEndToEndTests.command("plan history no-such-plan")
        #expect(unknown.status == 1 && unknown.output.contains("no plan"), "\(unknown.output)")
    }
}
