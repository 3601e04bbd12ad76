import Testing

@testable import WebSocketWire

/// Plain HTTP on the WebSocket port, as load balancers and browsers speak it.
@Suite("Connection transcripts: plain HTTP, kept alive")
struct ServerConnectionHTTPTests {
    typealias Transcript = ConnectionTranscript

    static func head(_ target: String, _ version: String = "HTTP/1.1", _ fields: String = "Host: x\r\n") -> String {
        "GET \(target) \(version)\r\n\(fields)\r\n"
    }

    static let ok = HTTPAnswer.plain(status: 200, "ok")

    @Test("HTTP/1.1 stays open: two requests on one connection, each answered with keep-alive")
    func keepAlive() {
        var transcript = Transcript()
        guard case .serveHTTP(let first)? = transcript.receive(Self.head("/healthz")).first else {
            Issue.record("not handed to the application")
            return
        }
        #expect(first.path == "/healthz")
        #expect(transcript.connection.respond(Self.ok, now: transcript.now) == [.flush])
        #expect(transcript.write() == [])
        #expect(transcript.connection.phase == .requestHead)
        #expect(
            transcript.text.hasPrefix("HTTP/1.1 200 OK\r\n") && transcript.text.contains("Connection: keep-alive\r\n"))
        guard case .serveHTTP(let second)? = transcript.receive(Self.head("/metrics")).first else {
            Issue.record("the second request was not read")
            return
        }
        #expect(second.path == "/metrics")
    }

    @Test("pipelined requests are answered one at a time, in order; the next head waits for the answer")
    func pipelined() {
        var transcript = Transcript()
        let actions = transcript.receive(Self.head("/a") + Self.head("/b"))
        #expect(actions.count == 1, "only the first is handed over: \(actions)")
        _ = transcript.connection.respond(.plain(status: 200, "A"), now: transcript.now)
        guard case .serveHTTP(let next)? = transcript.write().first else {
            Issue.record("the pipelined request was not read after the first answer")
            return
        }
        #expect(next.path == "/b")
        _ = transcript.connection.respond(.plain(status: 200, "B"), now: transcript.now)
        _ = transcript.write()
        #expect(transcript.text.split(separator: "HTTP/1.1 200 OK", omittingEmptySubsequences: false).count == 3)
        #expect(transcript.text.hasSuffix("B\n"))
    }

    @Test("a pipelining peer is not read past one head's worth of bytes while its request waits")
    func pipelineBackpressure() {
        var transcript = Transcript()
        _ = transcript.receive(Self.head("/a"))
        #expect(transcript.connection.wantsRead)
        _ = transcript.receive(String(repeating: Self.head("/more"), count: 400))
        #expect(!transcript.connection.wantsRead, "reading waits for the answer")
    }

    @Test("HTTP/1.0 (HAProxy's check): served, then closed after the answer; the peer's end drops it")
    func http10() {
        var transcript = Transcript()
        guard case .serveHTTP(let head)? = transcript.receive("GET /healthz HTTP/1.0\r\n\r\n").first else {
            Issue.record("HTTP/1.0 not served")
            return
        }
        #expect(!head.keepsAlive)
        _ = transcript.connection.respond(Self.ok, now: transcript.now)
        #expect(transcript.write() == [.endOurSide])
        #expect(transcript.text.hasPrefix("HTTP/1.1 200 OK\r\n") && transcript.text.contains("Connection: close\r\n"))
        #expect(transcript.connection.phase == .lingering)
        #expect(transcript.connection.readEnded(now: transcript.now) == [.drop])
    }

    @Test("HTTP/1.0 with keep-alive stays open; a HEAD gets the length and no body")
    func http10KeepAliveAndHead() {
        var transcript = Transcript()
        _ = transcript.receive("HEAD /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        _ = transcript.connection.respond(Self.ok, now: transcript.now)
        #expect(transcript.write() == [])
        #expect(transcript.text.contains("Connection: keep-alive\r\n") && transcript.text.contains("Content-Length: 3"))
        #expect(transcript.text.hasSuffix("\r\n\r\n"), "no body for HEAD")
        #expect(transcript.connection.phase == .requestHead)
    }

    @Test("a kept-alive connection idle past the head timeout is dropped; a lingering one after 2 s")
    func idleTimeouts() {
        var transcript = Transcript()
        _ = transcript.receive(Self.head("/healthz"))
        _ = transcript.connection.respond(Self.ok, now: transcript.now)
        _ = transcript.write()
        transcript.advance(seconds: 10)
        #expect(transcript.connection.tick(now: transcript.now) == [.drop])
        var closing = Transcript()
        _ = closing.receive(Self.head("/healthz", "HTTP/1.1", "Host: x\r\nConnection: close\r\n"))
        _ = closing.connection.respond(Self.ok, now: closing.now)
        #expect(closing.write() == [.endOurSide])
        closing.advance(seconds: 2)
        #expect(closing.connection.tick(now: closing.now) == [.drop])
    }

    @Test("a request with a body is answered and the connection closed (no body is ever read)")
    func body() {
        var transcript = Transcript()
        _ = transcript.receive("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        _ = transcript.connection.respond(Self.ok, now: transcript.now)
        #expect(transcript.write() == [.endOurSide])
        #expect(transcript.text.contains("Connection: close\r\n"))
    }

    @Test("a malformed head is refused with its status and the connection ends after the answer")
    func refused() {
        var transcript = Transcript()
        #expect(transcript.receive("GET /ws HTTP/1.1\nHost: x\n\n") == [.flush])
        #expect(transcript.write() == [.endOurSide])
        #expect(transcript.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        var upgrade10 = Transcript()
        _ = upgrade10.receive(Transcript.upgrade.replacing("HTTP/1.1", with: "HTTP/1.0"))
        _ = upgrade10.write()
        #expect(upgrade10.text.hasPrefix("HTTP/1.1 426 "))
    }

    @Test("a peer that half-closes after its request still gets the answer, then the connection ends")
    func halfClosed() {
        var transcript = Transcript()
        _ = transcript.receive(Self.head("/healthz"))
        #expect(transcript.connection.readEnded(now: transcript.now) == [])
        _ = transcript.connection.respond(Self.ok, now: transcript.now)
        #expect(transcript.write() == [.drop])
        #expect(transcript.text.hasPrefix("HTTP/1.1 200 OK"))
    }
}
