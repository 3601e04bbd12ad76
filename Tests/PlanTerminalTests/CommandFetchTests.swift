import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import SystemSupport
import Testing

@testable import PlanTerminal

/// The scriptable commands fetch only what they need: what the server sent them is counted, and
/// a live snapshot (the whole plan) is what `propose`, `history` and a past version's `show` and
/// `chart` must not receive.
@Suite("Scriptable commands fetch only what they need", .serialized, .database)
struct CommandFetchTests {
    /// The type of every message a connection received (a fetched past version as
    /// "snapshot(historical)").
    final class Received: Sendable {
        private let types = Locked<[String]>([])
        func append(_ message: ServerMessage) {
            let type: String
            if case .snapshot(let snapshot, _) = message {
                type = snapshot.historical ? "snapshot(historical)" : "snapshot"
            } else {
                type = message.typeName
            }
            types.withLock { $0.append(type) }
        }
        var all: [String] { types.withLock { $0 } }
    }

    /// Runs `arguments` (a subcommand and its options) as `plan` would, in process, on `server`;
    /// the exit status and the types of the messages received.
    static func run(
        _ arguments: [String], plan: String, token: String, server: ServerProcess, operation: PlanOperation? = nil
    ) async throws -> (status: Int32, received: [String]) {
        let options = try PlanOptions(
            arguments: arguments + ["--server", server.url, "--token", token, "--plan", plan])
        let subcommand = try #require(options.subcommand)
        let connection = try PlanConnection(
            options: PlanConnection.Options(url: server.url, token: token, clientName: "test", reconnect: false),
            transport: TransportForCommands.instance)
        let received = Received()
        connection.observeMessages { received.append($0) }
        let session = CommandSession(connection: connection, plan: plan, options: options, operation: operation)
        let status = await session.run(subcommand)
        connection.close()
        return (status, received.all)
    }

    @Test("propose, history and a past version's show and chart get no live snapshot; live show still does")
    func noWholePlan() async throws {
        let plan = try samplePlan(titled: "Demo")
        let (_, token) = try planEditor(plan, "fetch")
        let server = try ServerProcess.start(databaseURL: TestDatabase.url)
        let spec = Sample.collection["spec"]!
        let progressed = spec.with(kind: .activity(schedule: spec.schedule, progress: 70))
        let proposed = try await Self.run(
            ["propose", "-"], plan: plan, token: token, server: server,
            operation: .replace(previous: spec, proposed: progressed))
        #expect(proposed.status == 0)
        #expect(!proposed.received.contains("snapshot"), "\(proposed.received)")
        #expect(proposed.received.contains("plans") && proposed.received.contains("ack"))

        let history = try await Self.run(["history"], plan: plan, token: token, server: server)
        #expect(history.status == 0)
        #expect(!history.received.contains("snapshot") && history.received.contains("history"), "\(history.received)")
        for command in [["show", "--version", "1"], ["chart", "--version", "0", "--start", "2026-09-07"]] {
            let past = try await Self.run(command, plan: plan, token: token, server: server)
            #expect(past.status == 0)
            #expect(past.received.contains("snapshot(historical)") && !past.received.contains("snapshot"))
        }
        // The control: what needs the live plan subscribes (the count would catch a change here too).
        let live = try await Self.run(["show"], plan: plan, token: token, server: server)
        #expect(live.status == 0 && live.received.contains("snapshot"))
    }

    @Test("a history whose words need titles by id (a link) asks for those tasks alone, and names them")
    func historyNeedsTitles() async throws {
        let plan = try samplePlan(titled: "Demo")
        let (_, token) = try planEditor(plan, "titles")
        let server = try ServerProcess.start(databaseURL: TestDatabase.url)
        let link = TaskDependency(predecessorID: "review", successorID: "release")
        let linked = try await Self.run(
            ["propose", "-"], plan: plan, token: token, server: server, operation: .link(link))
        #expect(linked.status == 0)
        let history = try await Self.run(["history"], plan: plan, token: token, server: server)
        #expect(history.status == 0, "\(history.received)")
        #expect(!history.received.contains("snapshot") && history.received.contains("tasks"), "\(history.received)")
        let binary = productsDirectory + "/plan"
        let text = try runProgram([binary, "history", "--server", server.url, "--token", token, "--plan", plan])
        #expect(text.output.contains("linked “Review” → “Release”"), "\(text.output)")
    }
}

/// One client transport for these tests (a stopped one is never released: see PlanCommand).
enum TransportForCommands {
    static let instance: ClientTransport = try! ClientTransport()
}
