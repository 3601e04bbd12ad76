import Glibc
import PlanProtocol
import PlanTestSupport
import Testing

/// The edges of the port as load balancers, scanners and hosts that open many connections see
/// it (issue 28, findings 3 and 4, and the UTF-8 rule of finding 5).
@Suite("Server: HTTP as load balancers speak it; connections counted from accept", .database)
struct HTTPEdgeTests {
    @Test("GET /healthz over HTTP/1.0 without Host (HAProxy's check) is 200, and the connection closes")
    func http10() async throws {
        let server = try ServerProcess.start()
        let answer = try await offThePool { try HTTPProbe.exchange(server.port, "GET /healthz HTTP/1.0\r\n\r\n") }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix("ok\n"), "\(answer)")
        #expect(answer.contains("Connection: close\r\n"))
    }

    @Test("an absolute-form target is served as its path (RFC 9112 §3.2.2)")
    func absoluteForm() async throws {
        let server = try ServerProcess.start()
        let answer = try await offThePool {
            try HTTPProbe.exchange(
                server.port, "GET http://127.0.0.1:\(server.port)/healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix("ok\n"), "\(answer)")
    }

    @Test("plain HTTP/1.1 is kept alive: three requests, pipelined on one connection, get three answers in order")
    func keepAlive() async throws {
        let server = try ServerProcess.start()
        let answer = try await offThePool { () throws -> String in
            let request = { (target: String) in "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n" }
            return try HTTPProbe.exchange(server.port, request("/healthz") + request("/nothing") + request("/healthz"))
        }
        let statuses = answer.split(separator: "HTTP/1.1 ").map { String($0.prefix(3)) }
        #expect(statuses == ["200", "404", "200"], "\(answer)")
        #expect(answer.components(matching: "Connection: keep-alive") == 3)
    }

    @Test("--host :: listens dual-stack: 127.0.0.1 and ::1 are both served")
    func dualStack() async throws {
        let server = try ServerProcess.start(arguments: ["--host", "::"])
        let four = try await offThePool { try HTTPProbe.get(server.port, "/healthz") }
        #expect(four.hasSuffix("ok\n"))
        let six = try await offThePool { () throws -> String in
            let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(server.port).bigEndian)
            address.sin6_addr = in6addr_loopback
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            guard connected == 0 else { throw HarnessError("no IPv6 loopback here: errno \(errno)") }
            let request = Array("GET /healthz HTTP/1.1\r\nHost: [::1]\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            shutdown(fd, Int32(SHUT_WR))
            return readToEnd(fd)
        }
        #expect(six.hasSuffix("ok\n"))
    }

    @Test("silent connections count against the address's limit from accept: one more is answered 503 and closed")
    func countedFromAccept() async throws {
        let server = try ServerProcess.start(arguments: ["--max-connections-per-address", "5"])
        let silent = try await offThePool { try (0..<5).map { _ in try connectLoopback(port: server.port) } }
        // Refused at once: a 503 when the peer still reads, or a reset when its request came after
        // the close; never the answer.
        let refused = try await offThePool { try HTTPProbe.get(server.port, "/healthz") }
        #expect(refused.isEmpty || refused.hasPrefix("HTTP/1.1 503 ") && refused.contains("at most 5"), "\(refused)")
        close(silent[0])
        // Once the server has seen that close, a new connection is served (polled: the server is
        // another process; on a busy machine it may take a while to get to it). /metrics, not
        // /healthz: its answer does not depend on the database, which a loaded suite may keep busy.
        let served = try await Self.untilServed(server, "/metrics")
        #expect(served.contains("\nchronosketch_connections "))
        for fd in silent.dropFirst() { close(fd) }
        let metrics = try await Self.untilServed(server, "/metrics")
        #expect(metrics.contains("\nchronosketch_connections_refused_total "), "the figure is reported")
        #expect(!metrics.contains("\nchronosketch_connections_refused_total 0\n"), "the refusal was counted")
    }

    /// GETs `target` until the server answers it with 200 (for up to a minute).
    static func untilServed(_ server: ServerProcess, _ target: String) async throws -> String {
        var last = ""
        for _ in 0..<600 {
            let answer = try await offThePool { try HTTPProbe.get(server.port, target) }
            if answer.hasPrefix("HTTP/1.1 200 ") { return answer }
            last = answer
            try await Task.sleep(for: .milliseconds(100))
        }
        // What it answered last says why (a refusal at the limit, the database unavailable, nothing).
        throw HarnessError("\(target) was never served; the last answer: \(last.prefix(300))")
    }

    @Test("invalid UTF-8 in a first fragment closes with 1007 at once, without waiting for the next fragment")
    func utf8FailFast() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        // One blocking piece of work (no await between the steps a busy machine could stretch).
        let code = try await offThePool { () throws -> UInt16? in
            let socket = try RawWebSocket(port: server.port)
            try socket.handshake()
            try socket.send(
                RawWebSocket.frameBytes(
                    opcode: RawWebSocket.text, Array(#"{"type":"hello","token":"\#(fixture.viewerToken)"}"#.utf8))
                    + RawWebSocket.frameBytes(
                        opcode: RawWebSocket.text, Array(#"{"type":"plans","ref":""#.utf8) + [0xFF], final: false))
            return try socket.readUntilClose()
        }
        #expect(code == 1007)
    }
}

extension String {
    /// How often `needle` occurs.
    func components(matching needle: String) -> Int {
        split(separator: needle, omittingEmptySubsequences: false).count - 1
    }
}

/// One connection's burst of requests is read in shares (issue 28, finding 5): at most
/// `--max-intake-per-connection` of its messages wait for the hub, the rest waits in the kernel.
@Suite("Server: one connection's flood is read in shares", .database)
struct IntakeShareTests {
    @Test("5,000 requests in one write: every one answered, in order, while the connection was held")
    func floodInShares() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--max-intake-per-connection", "16"])
        let refs = try await offThePool { () throws -> [String] in
            let flooder = try RawWebSocket(port: server.port)
            try flooder.handshake()
            try flooder.send(#"{"type":"hello","token":"\#(fixture.viewerToken)"}"#)
            _ = try flooder.readText(containing: "welcome")
            try flooder.send(
                (0..<5000).flatMap {
                    RawWebSocket.frameBytes(
                        opcode: RawWebSocket.text, Array(#"{"type":"plans","ref":"f\#($0)"}"#.utf8))
                })
            var refs: [String] = []
            while refs.count < 5000, case .message(let bytes) = try flooder.readFrame() {
                for case .plans(_, let ref) in try ServerMessage.decodeFrame(bytes) { refs.append(ref ?? "") }
            }
            return refs
        }
        #expect(refs == (0..<5000).map { "f\($0)" })
        let held = try await MemoryBoundsTests.metric(server, "chronosketch_intake_pauses_total") ?? 0
        #expect(held > 0, "the connection was never held")
    }
}
