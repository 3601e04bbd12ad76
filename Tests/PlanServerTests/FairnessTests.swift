import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import SystemSupport
import Testing

@testable import PlanServer

/// One connection's flood must not keep the others waiting (issue 12 §3).
@Suite("Server: fairness under a flood", .database)
struct FairnessTests {
    /// The refs of the answers a connection received, in arrival order (broadcast pages have none).
    final class AnswerLog: Sendable {
        let refs = Locked<[String]>([])
        /// How many answers have arrived, after each one.
        let counts = AsyncStream<Int>.makeStream()

        func record(_ message: ServerMessage) {
            switch message {
            case .page(_, _, _, _, _, let ref?), .error(_, _, let ref?):
                counts.continuation.yield(
                    refs.withLock {
                        $0.append(ref); return $0.count
                    })
            default: break
            }
        }

        var count: Int { refs.withLock { $0.count } }
    }

    @Test(
        "thousands of watch and query requests from one viewer: another client's hello, subscribe and propose are answered, the flood in order",
        .timeLimit(.minutes(3)))
    func flood() async throws {
        // A plan of 3,000 tasks more than the demo's: loading it keeps the flooder's first request
        // (its subscription) waiting long enough for the flood to pile up behind it.
        let fixture = try StalledReaderTests.bigPlan()
        let server = try ServerProcess.start()
        let flooder = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { flooder.close() }
        let answers = AnswerLog()
        flooder.connection.observeMessages(exclusively: true) { answers.record($0) }
        flooder.connection.sendRaw(ClientMessage.subscribe(plan: fixture.plan).bytes)
        let query = try TimelineQuery(
            start: Demo.time("2026-09-01T00:00"), end: Demo.time("2026-10-01T00:00"), resourceIDs: ["room-1", "room-2"])
        let count = 6000
        // Watches cycle through 100 ids: beyond the 64 allowed some are refused (tooLarge), the
        // rest replace themselves; every request carries its number as ref.
        for index in 0..<count {
            let ref = "f\(index)"
            let message: ClientMessage =
                index % 2 == 0
                ? .watch(plan: fixture.plan, query: query, watch: "w\(index % 100)", ref: ref)
                : .query(plan: fixture.plan, query: query, ref: ref)
            flooder.connection.sendRaw(message.bytes)
        }
        // Meanwhile a second client connects, subscribes and proposes.
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let copy = try await editor.subscribe(fixture.plan)
        let review = copy["review"]!
        let answer = try await editor.propose(
            .replace(previous: review, proposed: review.with(title: "Reviewed")), plan: fixture.plan)
        #expect(answer.ackVersion == 1)

        for await received in answers.counts.stream where received >= count { break }
        let refs = answers.refs.withLock { $0 }
        #expect(refs.count == count)
        #expect(refs == (0..<count).map { "f\($0)" }, "the flood's answers left in request order")
        // The flood yielded its turn (the viewer's first request waited for its role lookup and the
        // plan's load, so the others queued up behind it and were handled a bounded number per turn).
        let metrics = shell("curl -s http://127.0.0.1:\(server.port)/metrics").output
        let yielded = metrics.split(separator: "\n").first { $0.hasPrefix("chronosketch_yielded_turns_total ") }
        #expect((yielded?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0, "\(yielded ?? "no metric")")
    }
}

@Suite("Server: bounded intake", .database)
struct IntakeTests {
    @Test(
        "with the hub's backlog bound at 2 messages, a flood of 3,000 queries is read in pauses and answered whole, in order",
        .timeLimit(.minutes(2)))
    func pausedReading() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--max-intake-backlog", "2"])
        let client = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { client.close() }
        let answers = FairnessTests.AnswerLog()
        client.connection.observeMessages(exclusively: true) { answers.record($0) }
        let query = try TimelineQuery(
            start: Demo.time("2026-09-01T00:00"), end: Demo.time("2026-10-01T00:00"), resourceIDs: ["room-1"])
        let count = 3000
        for index in 0..<count {
            client.connection.sendRaw(ClientMessage.query(plan: fixture.plan, query: query, ref: "q\(index)").bytes)
        }
        for await received in answers.counts.stream where received >= count { break }
        #expect(answers.refs.withLock { $0 } == (0..<count).map { "q\($0)" })
        let metrics = shell("curl -s http://127.0.0.1:\(server.port)/metrics").output
        let pauses = metrics.split(separator: "\n").first { $0.hasPrefix("chronosketch_intake_pauses_total ") }
        #expect((pauses?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0, "\(pauses ?? "no metric")")
        #expect(metrics.contains("\nchronosketch_intake_backlog 0\n"), "the backlog is empty again")
    }
}

@Suite("Hub turns: bounded work per session and turn")
struct TurnBudgetTests {
    @Test("a turn allows at most maxRequests requests, and none after maxBytes of answers but the first")
    func budget() {
        var byCount = TurnBudget(maxRequests: 3, maxBytes: 1000)
        var counted: [Bool] = []
        for _ in 0..<5 { counted.append(byCount.take(answeredBytes: 0)) }
        #expect(counted == [true, true, true, false, false])
        var byBytes = TurnBudget(maxRequests: 100, maxBytes: 1000)
        let big = [byBytes.take(answeredBytes: 0), byBytes.take(answeredBytes: 5000)]
        #expect(big == [true, false], "no second request once the first answered with more than the budget")
        var first = TurnBudget(maxRequests: 100, maxBytes: 1000)
        let firstRuns = first.take(answeredBytes: 5000)
        #expect(firstRuns, "the first request always runs")
        var small = TurnBudget(maxRequests: 100, maxBytes: 1000)
        var answers: [Bool] = []
        for bytes in [0, 400, 999, 1000] { answers.append(small.take(answeredBytes: bytes)) }
        #expect(answers == [true, true, true, false])
    }

    @Test("the request queue is first in, first out across its compactions")
    func queue() {
        var queue = RequestQueue<Int>()
        #expect(queue.isEmpty && queue.first == nil)
        var expected = 0
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(100 + round * 7) {
                queue.append(next)
                next += 1
            }
            for _ in 0..<(90 + round * 5) where !queue.isEmpty {
                #expect(queue.first == expected)
                #expect(queue.removeFirst() == expected)
                expected += 1
            }
            #expect(queue.count == next - expected)
        }
        while !queue.isEmpty {
            #expect(queue.removeFirst() == expected)
            expected += 1
        }
        #expect(expected == next && queue.count == 0)
        queue.append(1)
        queue.removeAll()
        #expect(queue.isEmpty)
    }
}
