import Glibc
import PlanProtocol
import PlanTestSupport
import Testing

/// RFC 6455 and HTTP/1.1 as strictly as a server is judged (issue 12 §4): what lws let through.
@Suite("Server: strict WebSocket and HTTP", .database)
struct StrictWebSocketTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let upgrade =
        "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"

    @Test(
        "a request that is not a valid upgrade gets the HTTP status that says why, never 101",
        arguments: [
            ("a wrong version", upgrade.replacing("Version: 13", with: "Version: 8"), "426"),
            ("no version", upgrade.replacing("Sec-WebSocket-Version: 13\r\n", with: ""), "426"),
            ("POST", upgrade.replacing("GET /ws", with: "POST /ws"), "405"),
            ("HTTP/1.0", upgrade.replacing("HTTP/1.1", with: "HTTP/1.0"), "426"),
            ("another path", upgrade.replacing("GET /ws", with: "GET /chat"), "404"),
            ("a key of the wrong length", upgrade.replacing(key, with: "c2hvcnQ="), "400"),
            ("no key", upgrade.replacing("Sec-WebSocket-Key: \(key)\r\n", with: ""), "400"),
            ("bare LF line endings", upgrade.replacing("\r\n", with: "\n"), "400"),
            ("no Host", upgrade.replacing("Host: h\r\n", with: ""), "400"),
        ] as [(String, String, String)])
    func refusedUpgrades(_ label: String, _ request: String, _ status: String) async throws {
        let server = try ServerProcess.start()
        let answer = try await offThePool { try RawWebSocket(port: server.port).exchange(Array(request.utf8)) }
        let head = String(decoding: answer.prefix(while: { $0 != 13 && $0 != 10 }), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 \(status) "), "\(label): \(head)")
        if status == "426", label.contains("version") {
            #expect(String(decoding: answer, as: UTF8.self).contains("Sec-WebSocket-Version: 13\r\n"))
        }
    }

    @Test("only unknown subprotocols offered: 101 without Sec-WebSocket-Protocol (RFC 6455 §4.2.2)")
    func unknownSubprotocol() async throws {
        let server = try ServerProcess.start()
        let request = Self.upgrade.replacing("\r\n\r\n", with: "\r\nSec-WebSocket-Protocol: chat, mqtt\r\n\r\n")
        let socket = try RawWebSocket(port: server.port)
        let head = try await offThePool { try socket.send(Array(request.utf8)).readHead() }
        #expect(head.hasPrefix("HTTP/1.1 101 "))
        #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(!head.contains("Sec-WebSocket-Protocol"))
    }

    @Test("an unmasked client frame closes the connection with 1002")
    func unmasked() async throws {
        let server = try ServerProcess.start()
        let socket = try RawWebSocket(port: server.port)
        let frames = try await offThePool { () throws -> [(UInt8, [UInt8])] in
            _ = try socket.send(Array(Self.upgrade.utf8)).readHead()
            return try socket.send([0x81, 0x02, UInt8(ascii: "{"), UInt8(ascii: "}")]).readFrames()
        }
        #expect(frames.last?.0 == 0x8 && frames.last.map { Array($0.1.prefix(2)) } == [0x03, 0xEA], "\(frames)")
    }

    @Test("several pings read together are each answered with a pong carrying its payload")
    func pings() async throws {
        let server = try ServerProcess.start()
        let socket = try RawWebSocket(port: server.port)
        let pongs = try await offThePool { () throws -> [[UInt8]] in
            _ = try socket.send(Array(Self.upgrade.utf8)).readHead()
            let pings = (1...3).flatMap { RawWebSocket.frameBytes(opcode: 0x9, Array("p\($0)".utf8)) }
            return try socket.send(pings).readFrames(count: 3).filter { $0.0 == 0xA }.map(\.1)
        }
        #expect(pongs == [Array("p1".utf8), Array("p2".utf8), Array("p3".utf8)])
    }

    @Test("a request head that never completes is cut off after the handshake timeout (slowloris)")
    func slowHead() async throws {
        let server = try ServerProcess.start(arguments: ["--hello-timeout-seconds", "1"])
        let socket = try RawWebSocket(port: server.port)
        let answer = try await offThePool { try socket.exchange(Array("GET /ws HTTP/1.1\r\nHost: h\r\n".utf8)) }
        #expect(answer.isEmpty, "the connection ended without an answer")
    }
}
