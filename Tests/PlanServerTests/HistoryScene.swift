import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// A server (started with `arguments`), a fresh demo plan and its editor, subscribed: the
/// editor's copy follows every confirmed version, and `copies` keeps it at each version the
/// scene committed.
final class HistoryScene: @unchecked Sendable {
    let fixture: PlanFixture
    let arguments: [String]
    private(set) var server: ServerProcess
    private(set) var editor: TestClient
    /// The editor's copy at every version this scene saw confirmed (0: the created plan).
    private(set) var copies: [Int: ClientPlanCopy] = [:]

    init(arguments: [String] = [], document: PlanDocument = Demo.document) async throws {
        fixture = try PlanFixture.make(document)
        self.arguments = arguments
        server = try ServerProcess.start(arguments: arguments)
        editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        let copy = try await editor.subscribe(fixture.plan)
        copies[copy.version] = copy
    }

    func close() { editor.close() }

    /// Stops the server (SIGKILL when `crash`, else SIGTERM), runs `whileStopped`, starts it again
    /// on its port and subscribes a new editor connection; the copies seen so far are kept.
    func restart(crash: Bool, whileStopped: () throws -> Void = {}) async throws {
        editor.close()
        if crash { server.crash() } else { server.terminate() }
        try whileStopped()
        server = try ServerProcess.restart(port: server.port, arguments: arguments)
        editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        _ = try await editor.subscribe(plan)
    }

    /// The `confirmed` of `version` the editor received.
    func confirmed(_ version: Int) async throws -> ServerMessage {
        let event = await editor.inbox.first(within: 10) { event in
            if case .message(let message) = event { return message.confirmedVersion == version }
            return false
        }
        guard case .message(let message)? = event?.event else { throw HarnessError("no confirmed \(version)") }
        return message
    }

    var plan: String { fixture.plan }

    /// The editor's current copy.
    var copy: ClientPlanCopy { editor.connection.copy(of: plan)! }

    /// Proposes `operation` against the copy's version and returns the answer; an ack's version is
    /// remembered with the copy it produced (the `confirmed` reaches the proposer before its ack).
    @discardableResult
    func propose(_ operation: PlanOperation) async throws -> ServerMessage {
        let answer = try await editor.propose(operation, plan: plan)
        if let version = answer.ackVersion, answer.isAckWithChange { copies[version] = copy }
        return answer
    }

    /// Proposes `operation` and expects it confirmed; returns its version.
    @discardableResult
    func commit(_ operation: PlanOperation, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let answer = try await propose(operation)
        guard let version = answer.ackVersion, answer.isAckWithChange else {
            Issue.record("not confirmed: \(answer)", sourceLocation: sourceLocation)
            throw HarnessError("\(operation.typeName) not confirmed")
        }
        return version
    }

    /// Proposes an undo of `version` written as the wire has it.
    func undo(_ version: Int) async throws -> ServerMessage {
        try await propose(.undo(version: version))
    }

    /// Sends `request` with a fresh ref and returns the answer carrying that ref.
    func ask(_ request: (String) -> ClientMessage, client: TestClient? = nil) async throws -> ServerMessage {
        let client = client ?? editor
        let ref = TestDatabase.unique("ref")
        client.connection.sendRaw(request(ref).bytes)
        return try await client.nextMessage(matching: ref)
    }

    /// A `history` page.
    func history(before: Int? = nil, limit: Int? = nil, client: TestClient? = nil) async throws -> ServerMessage {
        try await ask({ .history(plan: self.plan, before: before, limit: limit, ref: $0) }, client: client)
    }

    /// A `fetch` of `version`.
    func fetch(_ version: Int, client: TestClient? = nil) async throws -> ServerMessage {
        try await ask({ .fetch(plan: self.plan, version: version, ref: $0) }, client: client)
    }
}

extension TestClient {
    /// The next message carrying `ref` (the answer to one request).
    func nextMessage(matching ref: String, within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return message.ref == ref }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no answer to \(ref)") }
        return message
    }
}

extension ServerMessage {
    /// An `ack` that took a version (not a no-op).
    var isAckWithChange: Bool {
        if case .ack(_, _, _, false, _) = self { return true }
        return false
    }

    /// The code of an `error`, else nil.
    var errorCode: ProtocolErrorCode? {
        switch self {
        case .error(let code, _, _), .planError(let code, _, _): code
        default: nil
        }
    }

    /// The copy a `snapshot` describes (as a live one: `historical` cleared), else nil.
    var snapshotCopy: ClientPlanCopy? {
        guard case .snapshot(var snapshot, _) = self else { return nil }
        snapshot.historical = false
        return ClientPlanCopy(snapshot)
    }

    /// Whether it is a `snapshot` marked `historical`.
    var isHistoricalSnapshot: Bool {
        if case .snapshot(let snapshot, _) = self { return snapshot.historical }
        return false
    }

    /// The entries, log start and `more` of a `history` answer, else nil.
    var historyPage: (entries: [HistoryEntry], logStart: Int, more: Bool)? {
        if case .history(_, let entries, let logStart, let more, _) = self { return (entries, logStart, more) }
        return nil
    }
}

extension TimelinePage {
    /// The entry `id` with its first assignment on this page.
    func assigned(_ id: String) throws -> TimelineAssignedEntry {
        guard let entry = entries.first(where: { $0.id == id }),
            let assignment = assignments.first(where: { $0.entryID == id })
        else { throw HarnessError("no entry \(id) on the page") }
        return TimelineAssignedEntry(entry: entry, assignment: assignment)
    }
}

/// A random run against a scene: `RandomPlanOperations` proposes ops against its own copy of the
/// state (which follows what the server confirmed), and now and then an undo of a recent
/// version, whose local effect is the same inverse the server builds.
struct RandomHistoryRun {
    var operations: RandomPlanOperations
    /// The op that reverts each version this run confirmed.
    var inverses: [Int: PlanOperation] = [:]

    init(seed: UInt64) { operations = RandomPlanOperations(seed: seed) }

    /// The plan the run starts from (empty, four resources).
    var document: PlanDocument { PlanDocument(title: "Random history", state: operations.state) }

    /// Proposes one random op (a fifth of them undos) and follows the state when it is confirmed.
    mutating func step(_ scene: HistoryScene) async throws {
        let version = scene.copy.version
        let recent = inverses.keys.filter { $0 > version - 6 }
        if operations.chance(20), let target = operations.chance(50) ? recent.max() : recent.min() {
            let answer = try await scene.undo(target)
            guard answer.isAckWithChange, let ack = answer.ackVersion else { return }
            let local = operations.state.undoOperation(from: inverses[target]!)
            inverses[ack] = operations.state.inverse(of: local)
            _ = try? operations.state.apply(local)
            return
        }
        guard let operation = operations.operation() else { return }
        let answer = try await scene.propose(operation)
        guard answer.isAckWithChange, let ack = answer.ackVersion else { return }
        inverses[ack] = operations.state.inverse(of: operation)
        _ = try? operations.state.apply(operation)
    }
}
