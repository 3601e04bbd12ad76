import Testing

@testable import WebSocketWire

@Suite("HTTP request heads and the WebSocket handshake")
struct HandshakeTests {
    static let valid =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Protocol: chat, chronosketch.v1\r\n\r\n"

    static func decide(_ text: String) -> WebSocketHandshake? {
        guard case .complete(let head, _) = HTTPRequestHead.parse(Array(text.utf8)) else { return nil }
        return WebSocketHandshake.decide(head, path: "/ws", subprotocol: "chronosketch.v1")
    }

    @Test("SHA-1 and Base64 give the values of their standards, and RFC 6455's accept example")
    func digests() {
        let hex = SHA1.digest(Array("abc".utf8)).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        #expect(hex.joined() == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.digest(Array(String(repeating: "a", count: 1000).utf8)).count == 20)
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy" && Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.decode("Zm9vYg==") == Array("foob".utf8))
        #expect(Base64.decode("Zm9vYh==") == nil, "non-zero bits behind the last byte")
        #expect(Base64.decode("Zm9v=mFy") == nil && Base64.decode("Zm9") == nil)
        #expect(WebSocketHandshake.acceptValue(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a valid upgrade gets 101 with the accept value and the offered subprotocol")
    func upgrade() throws {
        guard case .upgrade(let response) = Self.decide(Self.valid) else {
            Issue.record("not upgraded")
            return
        }
        let text = String(decoding: response, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.contains("Sec-WebSocket-Protocol: chronosketch.v1\r\n") && text.hasSuffix("\r\n\r\n"))
        let without = Self.valid.replacing("Sec-WebSocket-Protocol: chat, chronosketch.v1\r\n", with: "")
        guard case .upgrade(let plain) = Self.decide(without) else {
            throw HarnessFailure("no upgrade without protocol")
        }
        #expect(!String(decoding: plain, as: UTF8.self).contains("Sec-WebSocket-Protocol"))
        let others = Self.valid.replacing("chat, chronosketch.v1", with: "chat")
        guard case .upgrade(let other) = Self.decide(others) else { throw HarnessFailure("no upgrade for others") }
        #expect(!String(decoding: other, as: UTF8.self).contains("Sec-WebSocket-Protocol"), "RFC 6455 §4.2.2")
    }

    @Test(
        "a bad upgrade is refused with the status that says why",
        arguments: [
            ("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8", 426),
            ("Sec-WebSocket-Version: 13\r\n", "", 426),
            ("GET /ws", "POST /ws", 405),
            ("GET /ws", "GET /other", 404),
            ("HTTP/1.1\r\nHost", "HTTP/1.0\r\nHost", 426),
            ("HTTP/1.1\r\nHost", "HTTP/2.0\r\nHost", 505),
            ("dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ", 400),
            ("dGhlIHNhbXBsZSBub25jZQ==", "c2hvcnQ=", 400),
            ("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "", 400),
            ("Connection: keep-alive, Upgrade", "Connection: keep-alive", 400),
            ("Host: 127.0.0.1:8080\r\n", "", 400),
        ] as [(String, String, Int)])
    func refused(_ original: String, _ replacement: String, _ status: Int) {
        guard case .refuse(let answered, _, _) = Self.decide(Self.valid.replacing(original, with: replacement)) else {
            Issue.record("not refused: \(replacement)")
            return
        }
        #expect(answered == status)
    }

    @Test("heads: incomplete until CRLF CRLF; bare LF, NUL, bad lines and oversize are refused")
    func heads() {
        #expect(HTTPRequestHead.parse(Array("GET /ws HTTP/1.1\r\nHost: x\r\n".utf8)) == .incomplete)
        guard case .complete(let head, let count) = HTTPRequestHead.parse(Array((Self.valid + "extra").utf8)) else {
            Issue.record("no head")
            return
        }
        #expect(count == Self.valid.utf8.count && head.method == "GET" && head.target == "/ws")
        #expect(head.tokens("connection") == ["keep-alive", "upgrade"])
        func status(_ text: String) -> Int? {
            if case .invalid(let status, _) = HTTPRequestHead.parse(Array(text.utf8)) { return status }
            return nil
        }
        #expect(status("GET /ws HTTP/1.1\nHost: x\n\n") == 400)
        #expect(status("GET /ws HTTP/1.1\r\nHost: x\nY: z\r\n") == 400, "a bare LF is refused before the end")
        #expect(status("GET /ws HTTP/1.1\r\nHo st: x\r\n\r\n") == 400)
        #expect(status("GET  /ws HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET ws HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET /ws HTTP/1.1\r\nX: a\u{0}b\r\n\r\n") == 400)
        #expect(status("GET /ws HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000)) == 431)
    }

    @Test("plain HTTP: a GET is served by path, other methods are 405; HTTP/1.0 is served, other versions are 505")
    func plainHTTP() {
        #expect(Self.decide("GET /healthz?x=1 HTTP/1.1\r\nHost: a\r\n\r\n") == .http(path: "/healthz"))
        guard case .refuse(405, _, _) = Self.decide("DELETE /healthz HTTP/1.1\r\nHost: a\r\n\r\n") else {
            Issue.record("DELETE served")
            return
        }
        // HAProxy's default health check: HTTP/1.0, no Host.
        #expect(Self.decide("GET /healthz HTTP/1.0\r\n\r\n") == .http(path: "/healthz"))
        #expect(Self.decide("GET /healthz HTTP/1.0\r\nHost: a\r\n\r\n") == .http(path: "/healthz"))
        for version in ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2"] {
            guard case .refuse(505, _, _) = Self.decide("GET /healthz \(version)\r\nHost: a\r\n\r\n") else {
                Issue.record("\(version) served")
                return
            }
        }
        guard case .refuse(400, _, _) = Self.decide("GET /healthz HTTP/1.1\r\n\r\n") else {
            Issue.record("HTTP/1.1 without Host served")
            return
        }
    }

    @Test(
        "an absolute-form target names the path after its authority (RFC 9112 §3.2.2)",
        arguments: [
            ("http://example.com:8080/healthz", "/healthz"), ("HTTP://example.com/a/b.js?x=1", "/a/b.js"),
            ("https://h", "/"), ("http://h?q", "/"), ("/plain?q=1", "/plain"),
        ])
    func absoluteForm(target: String, path: String) {
        guard
            case .complete(let head, _) = HTTPRequestHead.parse(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        else {
            Issue.record("not parsed: \(target)")
            return
        }
        #expect(head.path == Substring(path))
        #expect(head.isAbsoluteForm == target.hasPrefix("h") || target.hasPrefix("H"))
    }

    @Test("persistence: HTTP/1.1 stays open unless it says close; HTTP/1.0 only with keep-alive; no body is read")
    func keepAlive() {
        func head(_ text: String) -> HTTPRequestHead? {
            guard case .complete(let head, _) = HTTPRequestHead.parse(Array(text.utf8)) else { return nil }
            return head
        }
        #expect(head("GET / HTTP/1.1\r\nHost: a\r\n\r\n")?.keepsAlive == true)
        #expect(head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")?.keepsAlive == false)
        #expect(head("GET / HTTP/1.0\r\n\r\n")?.keepsAlive == false)
        #expect(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.keepsAlive == true)
        #expect(head("GET / HTTP/1.1\r\nHost: a\r\n\r\n")?.announcesBody == false)
        #expect(head("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")?.announcesBody == false)
        #expect(head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n")?.announcesBody == true)
        #expect(head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")?.announcesBody == true)
        let answer = String(decoding: HTTPResponseBytes.make(status: 200, body: [], keepAlive: true), as: UTF8.self)
        #expect(answer.contains("Connection: keep-alive\r\n") && !answer.contains("Connection: close"))
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
