import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanServer
import PlanStore
import PlanTestSupport
import Testing

@Suite("Server: TLS", .database)
struct TLSTests {
    @Test(
        "with --tls-cert/--tls-key the same protocol runs on wss://, with one service thread or several",
        .timeLimit(.minutes(1)), arguments: [1, 2])
    func wss(serviceThreads: Int) async throws {
        let certificate = try TestCertificate.make("chronosketch-tls")
        defer { certificate.remove() }
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(
            arguments: [
                "--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath, "--service-threads",
                String(serviceThreads),
            ])
        // A TLS handshake can time out on a machine this suite keeps busy (once in many runs):
        // the client reconnects as it would in the field, and the test says why it dropped.
        var options = PlanConnection.Options(
            url: "wss://127.0.0.1:\(server.port)/ws", token: fixture.viewerToken, reconnect: true)
        options.trustAnyCertificate = true
        let connection = try PlanConnection(options: options, transport: SharedTransport.instance)
        defer { connection.close() }
        connection.start()
        connection.subscribe(fixture.plan)
        var snapshotVersion: Int?
        var drops: [String] = []
        for await event in connection.events {
            if case .message(.snapshot(let snapshot, _)) = event {
                snapshotVersion = snapshot.version
                break
            }
            if case .disconnected(let code, let reason, let willReconnect) = event {
                drops.append("\(code.map(String.init) ?? "-") \(reason)")
                if !willReconnect || drops.count > 3 { break }
            }
        }
        #expect(snapshotVersion == 0, "dropped: \(drops)")
        #expect(shell("curl -sk https://127.0.0.1:\(server.port)/healthz").output == "ok")
    }
}

@Suite("Server: several service threads", .database)
struct ServiceThreadsTests {
    @Test(
        "with --service-threads 3 connections spread over the threads; each hears every confirmed in order, HTTP answers",
        .timeLimit(.minutes(1)))
    func spread() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--service-threads", "3"])
        defer { _ = server.terminate() }
        var viewers: [TestClient] = []
        defer { for viewer in viewers { viewer.close() } }
        for index in 0..<7 {
            let viewer = try TestClient(
                url: server.url, token: fixture.viewerToken, name: "viewer\(index)", transport: SharedTransport.instance
            )
            try await viewer.ready()
            _ = try await viewer.subscribe(fixture.plan)
            viewers.append(viewer)
        }
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        _ = try await editor.subscribe(fixture.plan)
        for round in 1...4 {
            let review = try #require(editor.connection.copy(of: fixture.plan)?["review"])
            let answer = try await editor.propose(
                .replace(previous: review, proposed: review.with(title: "Round \(round)")), plan: fixture.plan)
            #expect(answer.ackVersion == round)
            _ = try await editor.expect("confirmed") { $0.confirmedVersion == round }
        }
        for viewer in viewers {
            for round in 1...4 {
                let confirmed = try await viewer.expect("confirmed")
                #expect(confirmed.confirmedVersion == round)
            }
            #expect(viewer.connection.copy(of: fixture.plan)?["review"]?.title == "Round 4")
        }
        // Connection ids name their thread (id % 3): the eight connections went to all three.
        let opened = server.log.split(separator: "\n").compactMap { line -> UInt64? in
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "connection"), at + 2 < words.count, words[at + 2] == "opened" else {
                return nil
            }
            return UInt64(words[at + 1].dropFirst())
        }
        #expect(opened.count == 8)
        #expect(Set(opened.map { $0 % 3 }) == [0, 1, 2], "\(opened)")
        #expect(Set(opened).count == opened.count)
        // Plain HTTP is served with several threads, and the metrics count every connection.
        for _ in 0..<3 {
            #expect(shell("curl -s http://127.0.0.1:\(server.port)/healthz").output == "ok")
        }
        let metrics = shell("curl -s http://127.0.0.1:\(server.port)/metrics").output
        #expect(metrics.contains("chronosketch_connections 8"), "\(metrics)")
    }
}
