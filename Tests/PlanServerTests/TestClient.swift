import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// A PlanConnection for tests, with awaitable messages.
final class TestClient: Sendable {
    let connection: PlanConnection
    let inbox = Inbox<PlanConnection.Event>()

    init(
        url: String, token: String, name: String = "test", reconnect: Bool = false, transport: ClientTransport,
        liveness: (ping: UInt16, hangup: UInt16) = (10, 25)
    ) throws {
        var options = PlanConnection.Options(url: url, token: token, clientName: name, reconnect: reconnect)
        options.pingSeconds = liveness.ping
        options.hangupSeconds = liveness.hangup
        connection = try PlanConnection(options: options, transport: transport)
        let inbox = self.inbox
        let events = connection.events
        Task {
            for await event in events { await inbox.append(event) }
        }
        connection.start()
    }

    /// A client of `server` with `token` on the shared transport, past its welcome (closed again
    /// when the welcome does not come).
    static func connected(to server: ServerProcess, token: String) async throws -> TestClient {
        let client = try TestClient(url: server.url, token: token, transport: SharedTransport.instance)
        do {
            try await client.ready()
        } catch {
            client.close()
            throw error
        }
        return client
    }

    /// Waits for the welcome.
    func ready(within seconds: Double = 10) async throws {
        // A failed attempt of a client that tries again (a server still starting) is not the end.
        let event = await inbox.next(within: seconds) {
            if case .welcome = $0 { return true }
            if case .disconnected(_, _, willReconnect: false) = $0 { return true }
            return false
        }
        guard case .welcome = event else { throw HarnessError("no welcome: \(String(describing: event))") }
    }

    /// The next server message of `type` (skipping others), or a failure after `seconds`.
    func expect(
        _ type: String, within seconds: Double = 10,
        where match: @escaping @Sendable (ServerMessage) -> Bool = { _ in true }
    )
        async throws -> ServerMessage
    {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return message.typeName == type && match(message) }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no \(type) within \(seconds) s") }
        return message
    }

    /// The next disconnection.
    func expectDisconnect(within seconds: Double = 10) async throws -> UInt16? {
        let event = await inbox.next(within: seconds) {
            if case .disconnected = $0 { return true }
            return false
        }
        guard case .disconnected(let code, _, _)? = event else { throw HarnessError("still connected") }
        return code
    }

    /// Sends a proposal and waits for its answer (ack or rejected).
    func propose(_ operation: PlanOperation, plan: String, id: String? = nil, baseVersion: Int? = nil) async throws
        -> ServerMessage
    {
        let proposalID = connection.propose(operation, plan: plan, id: id, baseVersion: baseVersion)
        return try await answer(to: proposalID)
    }

    /// Waits for the ack or rejected of a proposal id.
    func answer(to proposalID: String, within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            switch event {
            case .message(.ack(let id, _, _, _, _)), .message(.rejected(let id, _, _, _, _, _, _)):
                return id == proposalID
            default: return false
            }
        }
        guard case .message(let message)? = event else { throw HarnessError("no answer to \(proposalID)") }
        return message
    }

    /// Subscribes and waits for the copy to arrive.
    /// Subscribes and waits for the snapshot (`seconds` bounds the wait: a big plan's load and
    /// encoding beside a busy suite take longer than a small one's).
    func subscribe(_ plan: String, within seconds: Double = 10) async throws -> ClientPlanCopy {
        connection.subscribe(plan)
        _ = try await expect("snapshot", within: seconds) { $0.plan == plan }
        return connection.copy(of: plan)!
    }

    func close() { connection.close() }
}

/// One client transport shared by a test's clients.
enum SharedTransport {
    static let instance: ClientTransport = try! ClientTransport()
}

extension ServerMessage {
    /// The rejection code of a `rejected`, else nil.
    var rejectionCode: RejectionCode? {
        if case .rejected(_, _, let code, _, _, _, _) = self { return code }
        return nil
    }

    /// The version of an `ack`, else nil.
    var ackVersion: Int? {
        if case .ack(_, _, let version, _, _) = self { return version }
        return nil
    }
}
