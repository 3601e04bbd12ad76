import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import SystemSupport
import Testing

/// A subscriber's copy of a plan at every version it followed, built from the stream alone: the
/// first snapshot, then each `confirmed` (across reconnects, resumed with `since`).
final class StreamRecorder: Sendable {
    private struct State {
        var copy: ClientPlanCopy?
        var copies: [Int: ClientPlanCopy] = [:]
        var faults: [String] = []
    }

    let plan: String
    private let state = Locked(State())

    init(plan: String) { self.plan = plan }

    /// The copies by version.
    var copies: [Int: ClientPlanCopy] { state.withLock { $0.copies } }
    /// Messages that did not follow on (a gap, a snapshot in the middle): none expected.
    var faults: [String] { state.withLock { $0.faults } }

    /// Follows the plan on `client` (a new connection), from the version reached so far.
    func follow(on client: TestClient) {
        client.connection.observeMessages { [self] message in take(message) }
        let since = state.withLock { $0.copy?.version }
        client.connection.sendRaw(ClientMessage.subscribe(plan: plan, since: since).bytes)
    }

    private func take(_ message: ServerMessage) {
        state.withLock { state in
            switch message {
            case .snapshot(let snapshot, _) where snapshot.plan == plan && !snapshot.historical:
                if let copy = state.copy {
                    state.faults.append("a snapshot at \(snapshot.version) after \(copy.version)")
                }
                state.copy = ClientPlanCopy(snapshot)
            case .confirmed(let plan, let version, _, _, let changes, _, _) where plan == self.plan:
                guard var copy = state.copy, version > copy.version else { return }
                do {
                    try copy.apply(version: version, changes: changes)
                } catch {
                    return state.faults.append("confirmed \(version): \(error)")
                }
                state.copy = copy
            default:
                return
            }
            if let copy = state.copy { state.copies[copy.version] = copy }
        }
    }
}

/// SIGKILL between commits and their checkpoints (protocol.md §9.2): after restarts, `fetch` of
/// every version equals what a subscriber built from the stream.
@Suite("Server: history across crashes", .serialized, .database)
struct HistoryCrashTests {
    /// An editor renaming its own tasks in pipelined batches (each proposal names the value its
    /// previous one proposed, so most are confirmed even when answered late).
    struct Editor {
        let tasks: [String]
        var client: TestClient
        var values: [String: GanttTask] = [:]
        var counter = 0

        /// Reads its tasks' current values (after a restart: some in-flight ones may be committed).
        mutating func connect(_ server: ServerProcess, token: String, plan: String) async throws {
            client = try await TestClient.connected(to: server, token: token)
            let copy = try await client.subscribe(plan)
            for id in tasks { values[id] = copy[id] }
        }

        /// Sends `count` renames without waiting; returns their ids.
        mutating func send(_ count: Int, plan: String) -> [String] {
            (0..<count).map { _ in
                counter += 1
                let id = tasks[counter % tasks.count]
                let previous = values[id]!
                let proposed = previous.with(title: "\(id) \(counter)")
                values[id] = proposed
                return client.connection.propose(.replace(previous: previous, proposed: proposed), plan: plan)
            }
        }
    }

    @Test("--checkpoint-every 7, two editors, 600+ versions, SIGKILLs with proposals in flight: fetch(V) = stream(V)")
    func killsBetweenCommitAndCheckpoint() async throws {
        var random = SystemRandomNumberGenerator()
        let scene = try await HistoryScene(arguments: [
            "--checkpoint-every", "7", "--max-proposals-per-second", "100000",
        ])
        defer { scene.close() }
        let recorder = StreamRecorder(plan: scene.plan)
        var follower = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
        recorder.follow(on: follower)
        let token = scene.fixture.editorToken
        var editors = [
            Editor(tasks: ["spec", "review"], client: scene.editor),
            Editor(tasks: ["build", "release"], client: scene.editor),
        ]
        for index in editors.indices { try await editors[index].connect(scene.server, token: token, plan: scene.plan) }
        let database = try PGConnection(conninfo: TestDatabase.url)
        var kills = 0
        var lostCheckpoints = 0
        for round in 0..<32 {
            let sent = editors.indices.map { editors[$0].send(20, plan: scene.plan) }
            let killAfter = round % 3 == 2 ? Int.random(in: 0..<20, using: &random) : 20
            for (index, ids) in sent.enumerated() {
                for id in ids.prefix(killAfter) { _ = try await editors[index].client.answer(to: id) }
            }
            guard killAfter < 20 else { continue }
            kills += 1
            follower.close()
            for editor in editors { editor.client.close() }
            try await scene.restart(crash: true) {
                // A checkpoint due (7 versions after the last) but not written: killed in between.
                let row = try database.query(
                    "SELECT version - (SELECT max(version) FROM checkpoints WHERE plan_id = id) FROM plans WHERE id = $1",
                    [scene.plan])
                if try #require(row.int(0, 0)) >= 7 { lostCheckpoints += 1 }
            }
            follower = try await TestClient.connected(to: scene.server, token: scene.fixture.viewerToken)
            recorder.follow(on: follower)
            for index in editors.indices {
                try await editors[index].connect(scene.server, token: token, plan: scene.plan)
            }
        }
        defer {
            follower.close()
            for editor in editors { editor.client.close() }
        }
        // Every answer of the last round is in: the newest history entry is the current version.
        let current = try #require(try await scene.history(limit: 1).historyPage?.entries.first?.version)
        _ = await follower.inbox.first(within: 10) { event in
            guard case .message(let message) = event else { return false }
            if case .resumed(_, current, _, _) = message { return true }
            return message.confirmedVersion == current
        }
        let copies = recorder.copies
        #expect(current >= 600, "\(current) versions across \(kills) kills")
        #expect(recorder.faults.isEmpty, "\(recorder.faults)")
        #expect(copies.count == current + 1, "the subscriber followed every version")
        let checkpoints = try database.query("SELECT count(*) FROM checkpoints WHERE plan_id = $1", [scene.plan])
        print(
            "history crash run: \(current) versions, \(kills) kills (\(lostCheckpoints) between a commit and its checkpoint),"
                + " \(checkpoints.int(0, 0) ?? -1) checkpoints")
        for version in 0...current {
            let answer = try await scene.fetch(version)
            #expect(answer.snapshotCopy == copies[version], "version \(version)")
        }
    }
}
