import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

extension WritingTests {
    @Suite("bursts and pipelined chains")
    struct Bursts {
        @Test("more than 200 proposals in a burst on one connection: the excess is rateLimited and never applied")
        func rateLimited() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let plan = scene.fixture.plan
            let count = 1000
            var operations: [String: PlanOperation] = [:]
            for index in 0..<count {
                let task = try GanttTask(
                    id: "burst-\(index)", title: "Burst \(index)", kind: .milestone(date: Demo.date("2026-10-02")))
                operations[task.id] = .add(task)
                scene.editor.connection.propose(.add(task), plan: plan, id: task.id, baseVersion: 0)
            }
            var acked: [String: Int] = [:]
            var limited: Set<String> = []
            for _ in 0..<count {
                switch try await scene.editor.nextAnswer() {
                case .ack(let id, _, let version, false, _): acked[id] = version
                case .rejected(let id, _, .rateLimited, _, _, _, _): limited.insert(id)
                case let other: Issue.record("unexpected answer \(other)")
                }
            }
            #expect(acked.count + limited.count == count)
            #expect(acked.count >= 200, "the first 200 fit the limit")
            #expect(!limited.isEmpty, "1000 proposals at once exceed 200 per second")
            // (The ack versions themselves are not checked here: see pipelinedChains.)
            let copy = try await scene.freshCopy()
            let burst = Set(copy.tasks.map(\.id).filter { $0.hasPrefix("burst-") })
            #expect(burst == Set(acked.keys))
            #expect(burst.isDisjoint(with: limited))
            #expect(copy.version == acked.count)

            // rateLimited is not a decision: the same id, re-sent on a fresh connection, is judged afresh.
            let retry = try #require(limited.sorted().first)
            let again = try TestClient(
                url: scene.server.url, token: scene.fixture.editorToken, transport: SharedTransport.instance)
            defer { again.close() }
            try await again.ready()
            // (baseVersion 0 and any ack version: after a burst the server's candidate version can be
            // wrong, see pipelinedChains; that is not what this test is about.)
            let answer = try await again.propose(operations[retry]!, plan: plan, id: retry, baseVersion: 0)
            #expect(answer.ackVersion != nil, "\(answer)")
            let after = try await scene.freshCopy()
            #expect(after[retry] != nil && after.version == acked.count + 1)
        }

        @Test(
            "chains of dependent proposals sent at once: each is acked in order with the version of its confirmed")
        func pipelinedChains() async throws {
            // The fault needs the server's own commit notification to overtake the commit's completion:
            // a race, so many chains run on many plans, round after round. The rule itself is a unit
            // test now (PlanOwnerOrderingTests: a NOTIFY during a commit, of that very commit): the
            // rounds here check it end to end, through real NOTIFYs, not by chance alone (forty of
            // them took a fifth of the whole suite's CPU).
            let server = try ServerProcess.start()
            for round in 1...6 {
                let problems = try await withThrowingTaskGroup(of: [String].self) { group in
                    for _ in 0..<12 {
                        group.addTask { try await Bursts.chain(190, on: server) }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                guard problems.isEmpty else {
                    Issue.record("round \(round): \(problems.count) problems, first \(problems.prefix(3))")
                    return
                }
            }
        }

        /// On a fresh plan: `count` renames of Review, each naming the previous one's result, sent at
        /// once. Returns what went wrong: every ack must carry the version its confirmed carries.
        static func chain(_ count: Int, on server: ServerProcess) async throws -> [String] {
            let fixture = try PlanFixture.make()
            let plan = fixture.plan
            let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
            defer { editor.close() }
            let copy = try await editor.subscribe(plan)
            let review = copy["review"]!
            for index in 0..<count {
                let previous = index == 0 ? review : review.with(title: "R\(index)")
                editor.connection.propose(
                    .replace(previous: previous, proposed: review.with(title: "R\(index + 1)")), plan: plan,
                    id: "chain-\(index)", baseVersion: 0)
            }
            var acks: [String: ServerMessage] = [:]
            var confirmed: [Int: String] = [:]
            while acks.count < count {
                switch try await editor.nextMessage() {
                case .confirmed(_, let version, let id, _, _, _, _): confirmed[version] = id
                case let answer where answer.proposalID != nil: acks[answer.proposalID!] = answer
                default: break
                }
            }
            return (0..<count).compactMap { index in
                let id = "chain-\(index)"
                guard acks[id] != .ack(id: id, plan: plan, version: index + 1) || confirmed[index + 1] != id else {
                    return nil
                }
                return
                    "\(id): answered \(String(describing: acks[id])); version \(index + 1) confirmed \(confirmed[index + 1] ?? "-")"
            }
        }
    }
}
