import Glibc
import PlanProtocol
import PlanTestSupport
import Testing

/// RFC 6455 and HTTP/1.1 as strictly as a server is judged (issue 12 §4): what lws let through.
@Suite("Server: strict WebSocket and HTTP")
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
        let answer = try await offThePool { try RawTCP(port: server.port).exchange(Array(request.utf8)) }
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
        let socket = try RawTCP(port: server.port)
        let head = try await offThePool { try socket.send(Array(request.utf8)).readHead() }
        #expect(head.hasPrefix("HTTP/1.1 101 "))
        #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(!head.contains("Sec-WebSocket-Protocol"))
    }

    @Test("an unmasked client frame closes the connection with 1002")
    func unmasked() async throws {
        let server = try ServerProcess.start()
        let socket = try RawTCP(port: server.port)
        let frames = try await offThePool { () throws -> [(UInt8, [UInt8])] in
            _ = try socket.send(Array(Self.upgrade.utf8)).readHead()
            return try socket.send([0x81, 0x02, UInt8(ascii: "{"), UInt8(ascii: "}")]).readFrames()
        }
        #expect(frames.last?.0 == 0x8 && frames.last.map { Array($0.1.prefix(2)) } == [0x03, 0xEA], "\(frames)")
    }

    @Test("several pings read together are each answered with a pong carrying its payload")
    func pings() async throws {
        let server = try ServerProcess.start()
        let socket = try RawTCP(port: server.port)
        let pongs = try await offThePool { () throws -> [[UInt8]] in
            _ = try socket.send(Array(Self.upgrade.utf8)).readHead()
            let pings = (1...3).flatMap { AsyncRawWebSocket.frameBytes(opcode: 0x9, Array("p\($0)".utf8)) }
            return try socket.send(pings).readFrames(count: 3).filter { $0.0 == 0xA }.map(\.1)
        }
        #expect(pongs == [Array("p1".utf8), Array("p2".utf8), Array("p3".utf8)])
    }

    @Test("a request head that never completes is cut off after the handshake timeout (slowloris)")
    func slowHead() async throws {
        let server = try ServerProcess.start(arguments: ["--hello-timeout-seconds", "1"])
        let socket = try RawTCP(port: server.port)
        let answer = try await offThePool { try socket.exchange(Array("GET /ws HTTP/1.1\r\nHost: h\r\n".utf8)) }
        #expect(answer.isEmpty, "the connection ended without an answer")
    }
}

/// A blocking TCP client for hand-made bytes (frames from `AsyncRawWebSocket.frameBytes`); reads
/// time out after 10 s.
final class RawTCP: @unchecked Sendable {
    let fd: Int32
    private var buffered: [UInt8] = []

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = try connectLoopback(port: port, receiveBuffer: receiveBuffer)
    }

    deinit { close(fd) }

    /// A masked client frame.

    @discardableResult
    func send(_ bytes: [UInt8]) throws -> RawTCP {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw HarnessError("send: errno \(errno)") }
            offset += sent
        }
        return self
    }

    /// Sends `bytes` and reads everything until the server closes.
    func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        try send(bytes)
        while try fill() {}
        return buffered
    }

    /// Reads an HTTP response head.
    func readHead() throws -> String {
        while true {
            if let end = buffered.indices.dropLast(3).first(where: { Array(buffered[$0..<$0 + 4]) == [13, 10, 13, 10] })
            {
                let head = String(decoding: buffered[..<(end + 4)], as: UTF8.self)
                buffered.removeFirst(end + 4)
                return head
            }
            guard try fill() else { throw HarnessError("no response head") }
        }
    }

    /// Reads server frames (opcode, payload) until `count` were read or the stream ended.
    func readFrames(count: Int = .max) throws -> [(UInt8, [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        while frames.count < count {
            if buffered.count >= 2 {
                var length = Int(buffered[1] & 0x7F)
                var offset = 2
                if length == 126, buffered.count >= 4 {
                    length = Int(buffered[2]) << 8 | Int(buffered[3])
                    offset = 4
                } else if length == 127, buffered.count >= 10 {
                    length = buffered[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    offset = 10
                }
                if length < 126 || offset > 2, buffered.count >= offset + length {
                    frames.append((buffered[0] & 0x0F, Array(buffered[offset..<offset + length])))
                    buffered.removeFirst(offset + length)
                    continue
                }
            }
            guard try fill() else { break }
        }
        return frames
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            buffered += chunk[0..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw HarnessError("recv: errno \(errno)")
    }
}
