import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import SystemSupport
import Testing

/// `ClientTransport.get` and `PlanConnection.feed` against a real server: what the web client
/// downloads, over http:// and https:// (a self-signed certificate), and the calendar address.
@Suite("PlanClient: HTTP GETs and feed keys against a real server", .serialized, .database)
struct ClientHTTPTests {
    /// Never released (releasing a stopped transport races with its service thread).
    static let transport: ClientTransport = try! ClientTransport()

    /// A plan of `count` activities with a booking of its first task; a user with `role` on it.
    static func plan(tasks count: Int, role: PlanRole = .viewer) throws -> (plan: String, token: String) {
        let store = TestDatabase.store
        let plan = TestDatabase.unique("plan")
        let tasks = (0..<count).map { index in
            #"{"id":"t\#(index)","title":"Task \#(index) with a longer title","kind":"activity","#
                + #""schedule":{"start":"2026-09-07","end":"2026-09-10"},"progress":0}"#
        }
        let json =
            #"{"title":"Export","tasks":["# + tasks.joined(separator: ",")
            + #"],"resources":[{"id":"r1","label":"Room"}],"#
            + #""entries":[{"id":"e1","title":"Kick-off","start":"2026-09-07T09:00","end":"2026-09-07T10:00","taskID":"t0"}],"#
            + #""assignments":[{"id":"a1","entryID":"e1","resourceID":"r1"}]}"#
        try store.createPlan(id: plan, document: try PlanDocument(json: try JSONValue(parsing: Array(json.utf8))))
        let user = TestDatabase.unique("http")
        let token = try store.createUser(user)
        try store.grant(user: user, plan: plan, role: role)
        return (plan, token)
    }

    @Test("an export bigger than one read arrives whole; 401, 404 and an unreachable server")
    func export() async throws {
        let (plan, token) = try Self.plan(tasks: 400)
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        let endpoint = try #require(ClientTransport.Endpoint(url: server.url))
        let document = try await PlanDocumentDownload(plan: plan).fetch(
            on: Self.transport, endpoint: endpoint, token: token
        ).get()
        #expect(document.body.count > 40_000)
        let decoded = try PlanDocument(json: try JSONValue(parsing: document.body))
        #expect(decoded.state.tasks.tasks.count == 400)
        #expect(decoded.state.entryTasks[entry: "e1"] == "t0")
        #expect(document.fileName == "\(plan).json")
        #expect(document.contentType == "application/json")

        let stranger = try TestDatabase.store.createUser(TestDatabase.unique("stranger"))
        let none = await PlanDocumentDownload(plan: plan).fetch(on: Self.transport, endpoint: endpoint, token: stranger)
        #expect(none == .failure(.notFound))
        let refused = await PlanDocumentDownload(plan: plan).fetch(on: Self.transport, endpoint: endpoint, token: "x")
        #expect(refused == .failure(.unauthorized("the token is not valid")))
        let beyond = await PlanDocumentDownload(plan: plan, version: 9).fetch(
            on: Self.transport, endpoint: endpoint, token: token)
        #expect(beyond == .failure(.notFound))
        var closed = endpoint
        closed.port = 1
        let unreachable = await PlanDocumentDownload(plan: plan).fetch(
            on: Self.transport, endpoint: closed, token: token)
        guard case .failure(.unreachable) = unreachable else {
            Issue.record("expected unreachable, got \(unreachable)")
            return
        }
    }

    @Test("over https: trusted with the CA file or trustAnyCertificate, refused otherwise")
    func tls() async throws {
        let certificate = try TestCertificate.make("planclient-tls")
        defer { certificate.remove() }
        let (plan, token) = try Self.plan(tasks: 3)
        let server = try ServerProcess.start(
            arguments: ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
        defer { _ = server.terminate() }
        var endpoint = try #require(ClientTransport.Endpoint(url: "wss://127.0.0.1:\(server.port)/ws"))
        let download = PlanDocumentDownload(plan: plan, format: .csv)
        let untrusted = await download.fetch(on: Self.transport, endpoint: endpoint, token: token)
        guard case .failure(.unreachable) = untrusted else {
            Issue.record("a self-signed certificate was trusted: \(untrusted)")
            return
        }
        let withCA = try ClientTransport(caFile: certificate.certificatePath)
        _ = Unmanaged.passRetained(withCA)  // never released, as above
        let csv = try await download.fetch(on: withCA, endpoint: endpoint, token: token).get()
        #expect(String(decoding: csv.body, as: UTF8.self).hasPrefix("id,title,kind,parentID,start,end,progress\r\n"))
        endpoint.trustAnyCertificate = true
        let trusting = try await download.fetch(on: Self.transport, endpoint: endpoint, token: token).get()
        #expect(trusting.body == csv.body)
    }

    /// libwebsockets 4.1 files each TLS connection under an OpenSSL index that every new context
    /// replaced, so a handshake under way while another transport was created failed now and then
    /// ("can't get wsi from ssl privdata", "connect SSL err 1"); `TLSIndexGate` keeps them apart.
    @Test("https GETs while other transports are created and stopped beside them: every handshake completes")
    func tlsBesideNewContexts() async throws {
        let certificate = try TestCertificate.make("planclient-tls-contexts")
        defer { certificate.remove() }
        let (plan, token) = try Self.plan(tasks: 1)
        let server = try ServerProcess.start(
            arguments: ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
        defer { _ = server.terminate() }
        var endpoint = try #require(ClientTransport.Endpoint(url: "wss://127.0.0.1:\(server.port)/ws"))
        endpoint.trustAnyCertificate = true
        let download = PlanDocumentDownload(plan: plan, format: .csv)
        let creating = Task.detached {
            for _ in 0..<60 {
                let other = try ClientTransport()
                other.stop()
                _ = Unmanaged.passRetained(other)  // never released, as above
            }
        }
        var failures: [String] = []
        for _ in 0..<40 {
            if case .failure(let error) = await download.fetch(on: Self.transport, endpoint: endpoint, token: token) {
                failures.append("GET: \(error)")
            }
            if let refusal = await Self.openWebSocket(on: Self.transport, to: endpoint) {
                failures.append("WebSocket: \(refusal)")
            }
        }
        try await creating.value
        #expect(failures.isEmpty, "\(failures.count) of 80 handshakes failed: \(failures.prefix(3))")
    }

    /// Opens a WebSocket and closes it again: nil once it opened, else why it closed.
    static func openWebSocket(on transport: ClientTransport, to endpoint: ClientTransport.Endpoint) async -> String? {
        let id = transport.reserveConnectionID()
        let once = Locked(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            transport.connect(id, to: endpoint) { event in
                let outcome: String??
                switch event {
                case .opened: outcome = .some(nil)
                case .closed(_, let reason): outcome = .some(reason)
                case .message: outcome = nil
                }
                guard let outcome else { return }
                let first = once.withLock { done in
                    defer { done = true }
                    return !done
                }
                guard first else { return }
                if outcome == nil { transport.close(id) }
                continuation.resume(returning: outcome)
            }
        }
    }

    @Test("feed: the same path on every asking, answering the calendar without a header; revoked, 404")
    func feed() async throws {
        let (plan, token) = try Self.plan(tasks: 2)
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        let connection = try PlanConnection(
            options: PlanConnection.Options(url: server.url, token: token, reconnect: false), transport: Self.transport)
        connection.start()
        defer { connection.close() }
        let path = try #require(try await connection.feed(plan: plan))
        #expect(path.hasPrefix("/plans/\(plan)/calendar.ics?key="))
        #expect(try await connection.feed(plan: plan) == path)
        let endpoint = try #require(ClientTransport.Endpoint(url: server.url))
        let calendar = try await Self.transport.get(
            HTTPRequest(on: endpoint, target: path, responseHeaders: ["Content-Type"])
        ).get()
        #expect(calendar.status == 200)
        #expect(calendar.header("content-type") == "text/calendar; charset=utf-8")
        #expect(String(decoding: calendar.body, as: UTF8.self).contains("UID:\(plan)/t0@chronosketch"))

        #expect(try await connection.feed(plan: plan, revoke: true) == nil)
        let gone = try await Self.transport.get(HTTPRequest(on: endpoint, target: path)).get()
        #expect(gone.status == 404)
        do {
            let path = try await connection.feed(plan: "no-such-plan")
            Issue.record("a feed of a plan without a role: \(path ?? "nil")")
        } catch {
            guard case .server("unknownPlan", _) = error else {
                Issue.record("expected unknownPlan, got \(error)")
                return
            }
        }
    }
}
