import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

/// One randomized run: random operations (mostly valid) on a server-side `PlanState`, and a
/// `ClientPlanCopy` that sees only the wire: the initial snapshot's bytes and each `confirmed`
/// frame's bytes (sometimes batched).
private struct ConvergenceRun {
    var operations: RandomPlanOperations
    var version = 0

    init(seed: UInt64) { operations = RandomPlanOperations(seed: seed) }

    var state: PlanState {
        get { operations.state }
        set { operations.state = newValue }
    }

    mutating func operation() -> PlanOperation? { operations.operation() }
    mutating func chance(_ percent: Int) -> Bool { operations.chance(percent) }

    /// The server's fresh snapshot of the current state.
    func snapshot() -> PlanSnapshot {
        PlanSnapshot(plan: "demo", version: version, document: PlanDocument(title: "Random plan", state: state))
    }
}

@Suite("Convergence: a client copy follows confirmed changes to the server's state")
struct ConvergenceRandomizedTests {
    @Test("random ops: after every confirmed frame the copy equals a fresh snapshot", arguments: [1, 2, 3, 4, 5, 6])
    func converges(seed: UInt64) throws {
        var run = ConvergenceRun(seed: seed)
        // Start from a plan with some content, then take the snapshot off the wire.
        for _ in 0..<30 {
            if let operation = run.operation() { _ = try? run.state.apply(operation) }
        }
        run.version = 7
        let snapshotFrame = ServerMessage.snapshot(run.snapshot()).bytes
        guard case .snapshot(let received, _)? = try ServerMessage.decodeFrame(snapshotFrame).first else {
            Issue.record("no snapshot")
            return
        }
        var copy = ClientPlanCopy(received)
        #expect(copy.snapshot == run.snapshot())

        var pending: [[UInt8]] = []
        var expected: [PlanSnapshot] = []
        var confirmedCount = 0
        var kinds: Set<String> = []
        for step in 0..<400 {
            guard let operation = run.operation() else { continue }
            let change: PlanChange
            do {
                change = try run.state.apply(operation)
            } catch {
                continue
            }
            guard !change.isNoop else { continue }
            run.version += 1
            confirmedCount += 1
            kinds.insert(operation.typeName)
            let changes = PlanChanges(after: run.state, change: change)
            #expect(try PlanChanges(parsing: changes.bytes) == changes)
            pending.append(
                ServerMessage.confirmedBytes(
                    plan: "demo", version: run.version, mutation: MutationStamp(id: "m\(step)", user: "alice"),
                    changesJSON: changes.bytes))
            expected.append(run.snapshot())
            // Deliver one frame now and then, batched like a busy server does.
            guard run.chance(60) else { continue }
            try deliver(&pending, expecting: &expected, to: &copy, "seed \(seed) step \(step)")
        }
        try deliver(&pending, expecting: &expected, to: &copy, "seed \(seed) end")
        #expect(copy.snapshot == run.snapshot())
        #expect(confirmedCount > 150)
        #expect(kinds.count == 9, "\(kinds.sorted())")
    }

    /// Sends the pending frames as one, applies each message to the copy and compares it with the
    /// server's snapshot at that version.
    private func deliver(
        _ pending: inout [[UInt8]], expecting expected: inout [PlanSnapshot], to copy: inout ClientPlanCopy,
        _ context: String
    ) throws {
        guard !pending.isEmpty else { return }
        let messages = try ServerMessage.decodeFrame(ServerMessage.frame(joining: pending))
        #expect(messages.count == pending.count)
        for message in messages {
            try copy.apply(message)
            let snapshot = expected.removeFirst()
            #expect(copy.snapshot == snapshot, "\(context)")
        }
        pending = []
    }
}
