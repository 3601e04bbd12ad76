import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

/// Where the history starts (protocol.md §9, §10): `logStart` is the oldest version `fetch` can
/// rebuild, also for a log written before history was kept, and an undo of it is judged.
@Suite("Server: the log's start", .serialized, .database)
struct HistoryLogStartTests {
    /// Proposes a rename of the task `index` steps along the demo plan's six, so that a version's
    /// task is not touched again by the next five.
    static func rename(_ index: Int, in scene: HistoryScene) async throws -> Int {
        let ids = ["design", "spec", "review", "impl", "build", "release"]
        let task = scene.copy[ids[index % ids.count]]!
        return try await scene.commit(.replace(previous: task, proposed: task.with(title: "\(task.id) \(index)")))
    }

    @Test("a log from before migration 005 (no undo, no checkpoint) is listed, starts where fetch can rebuild")
    func upgradedLog() async throws {
        let scene = try await HistoryScene()
        defer { scene.close() }
        for index in 1...5 { _ = try await Self.rename(index, in: scene) }
        // What 005 (and 007) leave of a log written before it: the op, no inverse (not even one to
        // form from the op), no checkpoint.
        try await scene.restart(crash: false) {
            let connection = try PGConnection(conninfo: TestDatabase.url)
            _ = try connection.transaction([
                PGStatement(
                    "UPDATE mutations SET inverse = NULL, inverse_from_op = false WHERE plan_id = $1", [scene.plan]),
                PGStatement("DELETE FROM checkpoints WHERE plan_id = $1", [scene.plan]),
            ])
        }
        let page = try #require(try await scene.history().historyPage)
        #expect(page.entries.map(\.version) == [5, 4, 3, 2, 1] && !page.more)
        #expect(page.logStart == 5, "the oldest version a fetch can rebuild: the checkpoint of the first load")
        // The op column always existed: the ops are listed as they were confirmed.
        #expect(page.entries.allSatisfy { $0.opJSON?.contains(#""type":"replace""#) == true })
        for version in 0..<5 {
            #expect(try await scene.fetch(version).errorCode == .historyUnavailable, "fetch \(version)")
            try await UndoTests.expectRejected(.undo(version: version), .historyUnavailable, in: scene)
        }
        // logStart itself is readable (its checkpoint is written off the load's path: asked again
        // until it is there), and its row holds no undo.
        var fetched: ServerMessage?
        for _ in 0..<200 where fetched?.isHistoricalSnapshot != true { fetched = try await scene.fetch(5) }
        #expect(fetched?.snapshotCopy == scene.copies[5])
        try await UndoTests.expectRejected(.undo(version: 5), .historyUnavailable, in: scene)
        // Versions after the upgrade are undone and fetched as any.
        let next = try await Self.rename(6, in: scene)
        #expect(try await scene.fetch(next).snapshotCopy == scene.copies[next])
        let undone = try await scene.commit(.undo(version: next))
        #expect(scene.copy.tasks == scene.copies[5]?.tasks)
        #expect(try #require(try await scene.history(limit: 1).historyPage).entries.first?.undoes == next)
        #expect(undone == next + 1)
    }

    @Test("undo of the version at logStart is judged (the log keeps its row); of the one below, historyUnavailable")
    func undoAtLogStart() async throws {
        let scene = try await HistoryScene(arguments: ["--log-keep", "3", "--checkpoint-every", "2"])
        defer { scene.close() }
        for index in 1...12 { _ = try await Self.rename(index, in: scene) }
        // A restart: the undo is built from the log, not from memory.
        try await scene.restart(crash: false)
        let page = try #require(try await scene.history(limit: 500).historyPage)
        let start = page.logStart
        #expect(start > 5 && start < 12, "logStart \(start)")
        #expect(page.entries.last?.version == start, "the row at the log's start is listed (it can be undone)")
        #expect(try await scene.fetch(start).snapshotCopy == scene.copies[start])
        #expect(try await scene.fetch(start - 1).errorCode == .historyUnavailable)
        try await UndoTests.expectRejected(.undo(version: start - 1), .historyUnavailable, in: scene)
        let before = try #require(scene.copies[start - 1])
        let undone = try await scene.commit(.undo(version: start))
        let renamed = try #require(scene.copies[start]?.tasks.first { before[$0.id] != $0 })
        #expect(scene.copy[renamed.id] == before[renamed.id], "the rename of version \(start) reverted")
        #expect(try #require(try await scene.history(limit: 1).historyPage).entries.first?.undoes == start)
        #expect(undone == 13)
    }
}
