import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanServer
import PlanStore
import PlanTestSupport
import Synchronization
import Testing

/// The limits that bound what one connection can cost the others (issue 12 §3).
@Suite("Server: per-connection limits and fairness", .database)
struct LimitsTests {
    /// The `welcome.limits` a fresh connection with `token` receives.
    static func welcomeLimits(_ server: ServerProcess, token: String) async throws -> ProtocolLimits {
        let client = try TestClient(url: server.url, token: token, transport: SharedTransport.instance)
        defer { client.close() }
        let event = await client.inbox.next(within: 10) {
            if case .welcome = $0 { return true } else { return false }
        }
        guard case .welcome(_, _, let limits)? = event else { throw HarnessError("no welcome") }
        return limits
    }

    static let week = try! TimelineQuery(
        start: Demo.time("2026-09-07T00:00"), end: Demo.time("2026-09-14T00:00"), resourceIDs: ["room-1"])

    @Test("welcome.limits announces maxWatchesPerConnection 64 and maxAssignmentsPerEntry 1000 by default")
    func defaults() async throws {
        let fixture = try PlanFixture.make()
        // (The test harness's servers wait longer for write progress than the default.)
        let server = try ServerProcess.start(arguments: ["--write-timeout-seconds", "30"])
        let limits = try await Self.welcomeLimits(server, token: fixture.viewerToken)
        #expect(limits == .standard)
        #expect(limits.maxWatchesPerConnection == 64 && limits.maxAssignmentsPerEntry == 1000)
    }

    @Test("every --max-* option is enforced as configured and announced in welcome.limits")
    func options() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: [
            "--max-message-bytes", "500000", "--max-queue-bytes", "4000000", "--max-proposals-per-second", "77",
            "--max-tasks-per-plan", "1234", "--max-watches-per-connection", "5", "--max-assignments-per-entry", "9",
            "--max-user-queue-bytes", "3000000", "--write-timeout-seconds", "45",
        ])
        let limits = try await Self.welcomeLimits(server, token: fixture.viewerToken)
        #expect(
            limits
                == ProtocolLimits(
                    maxMessageBytes: 500_000, maxTasksPerPlan: 1234, maxQueueBytes: 4_000_000,
                    maxProposalsPerSecond: 77, maxWatchesPerConnection: 5, maxAssignmentsPerEntry: 9,
                    maxUserQueueBytes: 3_000_000, writeTimeoutSeconds: 45))
    }

    @Test(
        "a --max-* option that is not a positive count is refused", .timeLimit(.minutes(1)),
        arguments: ["--max-watches-per-connection", "--max-assignments-per-entry"])
    func badOption(name: String) {
        for value in ["0", "-3", "many"] {
            let code = ServerCommands.main(
                arguments: ["serve", name, value, "--port", "0"], environment: ["DATABASE_URL": TestDatabase.url])
            #expect(code == 2, "\(name) \(value)")
        }
    }

    @Test("a watch beyond maxWatchesPerConnection gets error tooLarge; replacing or unwatching frees nothing wrongly")
    func watchLimit() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--max-watches-per-connection", "3"])
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        func watch(_ id: String) async throws -> ServerMessage {
            viewer.connection.sendRaw(
                ClientMessage.watch(plan: fixture.plan, query: Self.week, watch: id, ref: "r-\(id)").bytes)
            let answer = await viewer.inbox.next(within: 10) { event in
                guard case .message(let message) = event else { return false }
                switch message {
                case .page(_, _, _, _, _, "r-\(id)"), .error(_, _, "r-\(id)"): return true
                default: return false
                }
            }
            guard case .message(let message)? = answer else { throw HarnessError("no answer to watch \(id)") }
            return message
        }
        for id in ["w1", "w2", "w3"] { #expect(try await watch(id).typeName == "page") }
        guard case .error(let code, _, _) = try await watch("w4") else { throw HarnessError("w4 was accepted") }
        #expect(code == .tooLarge)
        // Re-sending a watch id the connection holds replaces that watch: no new one.
        #expect(try await watch("w2").typeName == "page")
        viewer.connection.sendRaw(ClientMessage.unwatch(watch: "w1").bytes)
        #expect(try await watch("w4").typeName == "page")
        guard case .error(let again, _, _) = try await watch("w5") else { throw HarnessError("w5 was accepted") }
        #expect(again == .tooLarge)
        // The refused watch was not registered: unwatching it is notSubscribed.
        viewer.connection.sendRaw(ClientMessage.unwatch(watch: "w5", ref: "u5").bytes)
        guard case .error(let unknown, _, "u5") = try await viewer.expect("error") else {
            throw HarnessError("unexpected message")
        }
        #expect(unknown == .notSubscribed)
    }

    /// A `timeline.add` of a new entry on room-1 with `count` assignments.
    static func bigEntry(_ id: String, count: Int) -> PlanOperation {
        let entry = try! TimelineEntry(
            id: id, title: "Town hall", start: Demo.time("2026-09-10T09:00"), end: Demo.time("2026-09-10T10:00"))
        let assignments = (0..<count).map {
            try! TimelineAssignment(id: "\(id)-a\($0)", entryID: id, resourceID: "room-1")
        }
        return .timelineAdd(entry: entry, assignments: assignments)
    }

    @Test(
        "a timeline.add beyond maxAssignmentsPerEntry is rejected tooLarge, as a decision; at the limit it is confirmed"
    )
    func assignmentLimit() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let limit = ProtocolLimits.standard.maxAssignmentsPerEntry
        let tooMany = try await editor.propose(Self.bigEntry("big", count: limit + 1), plan: fixture.plan, id: "p-big")
        #expect(tooMany.rejectionCode == .tooLarge)
        // A decision: the same id is answered the same way again.
        let again = try await editor.propose(Self.bigEntry("big", count: 1), plan: fixture.plan, id: "p-big")
        #expect(again.rejectionCode == .tooLarge)
        let atLimit = try await editor.propose(Self.bigEntry("full", count: limit), plan: fixture.plan)
        #expect(atLimit.ackVersion == 1)

        let strict = try ServerProcess.start(arguments: ["--max-assignments-per-entry", "2"])
        let other = try await TestClient.connected(to: strict, token: fixture.editorToken)
        defer { other.close() }
        #expect(
            try await other.propose(Self.bigEntry("three", count: 3), plan: fixture.plan).rejectionCode == .tooLarge)
        #expect(
            try await other.propose(Self.bigEntry("two", count: 2), plan: fixture.plan, baseVersion: 1).ackVersion == 2)
    }
}
