import Testing

@testable import WebSocketWire

/// Connections from a trusted proxy: the client named by a PROXY header or X-Forwarded-For is
/// admitted (counted) before its request is handled, and refused with the loop's answer.
@Suite("Connection transcripts: behind a trusted proxy")
struct ServerConnectionProxyTests {
    typealias Transcript = ConnectionTranscript

    /// What the loop was asked to admit, and which addresses it refuses.
    final class Admissions {
        var asked: [String] = []
        var refusing: Set<String> = []
    }

    /// A connection from the trusted proxy 10.0.0.1 (10.0.0.0/8 and ::1 trusted).
    static func proxied(_ admissions: Admissions, peer: String = "10.0.0.1") -> Transcript {
        var transcript = Transcript { $0.trustedProxies = try! TrustedProxies(parsing: "10.0.0.0/8,::1") }
        transcript.connection.trustProxy(IPAddress(peer)!) { client in
            admissions.asked.append(client)
            return admissions.refusing.contains(client) ? .plain(status: 503, "too many from \(client)") : nil
        }
        return transcript
    }

    static func upgrade(forwardedFor: String? = nil) -> String {
        guard let forwardedFor else { return Transcript.upgrade }
        return Transcript.upgrade.replacing(
            "Host: x\r\n", with: "Host: x\r\nX-Forwarded-For: \(forwardedFor)\r\n")
    }

    @Test("a PROXY v1 header names the client: admitted before the upgrade, which then opens")
    func version1() {
        let admissions = Admissions()
        var transcript = Self.proxied(admissions)
        // The header arrives in two pieces, the request right behind it.
        #expect(transcript.receive("PROXY TCP4 203.0.113.7 10.0.0.") == [])
        #expect(admissions.asked.isEmpty)
        let actions = transcript.receive("1 56324 443\r\n" + Self.upgrade(forwardedFor: "6.6.6.6"))
        #expect(actions == [.opened, .flush])
        #expect(admissions.asked == ["203.0.113.7"], "admitted once; its own X-Forwarded-For is ignored")
        #expect(transcript.connection.clientAddress == "203.0.113.7")
        #expect(transcript.connection.phase == .webSocket)
    }

    @Test("a PROXY v2 header over IPv6; then the WebSocket as usual")
    func version2() {
        let admissions = Admissions()
        var transcript = Self.proxied(admissions)
        let source: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [7]
        let header =
            ProxyHeader.version2Signature + [0x21, 0x21, 0, 36] + source + [UInt8](repeating: 1, count: 16)
            + [0, 1, 0, 2]
        #expect(transcript.receive(header + Array(Transcript.upgrade.utf8)) == [.opened, .flush])
        #expect(admissions.asked == ["2001:db8::7"])
    }

    @Test("a refused client gets the loop's answer and the connection ends without an upgrade")
    func refusedByHeader() {
        let admissions = Admissions()
        admissions.refusing = ["203.0.113.7"]
        var transcript = Self.proxied(admissions)
        #expect(transcript.receive("PROXY TCP4 203.0.113.7 10.0.0.1 1 2\r\n" + Transcript.upgrade) == [.flush])
        _ = transcript.write()
        #expect(transcript.text.hasPrefix("HTTP/1.1 503 ") && transcript.text.contains("too many from 203.0.113.7"))
        #expect(transcript.connection.phase != .webSocket)
    }

    @Test("a malformed PROXY header from a trusted proxy is answered 400")
    func malformedHeader() {
        var transcript = Self.proxied(Admissions())
        #expect(transcript.receive("PROXY TCP4 nobody 10.0.0.1 1 2\r\n" + Transcript.upgrade) == [.flush])
        _ = transcript.write()
        #expect(transcript.text.hasPrefix("HTTP/1.1 400 ") && transcript.text.contains("PROXY v1"))
    }

    @Test("LOCAL (a health check): the connection stays the proxy's; HTTP/1.0 /healthz is served")
    func localHealthCheck() {
        let admissions = Admissions()
        var transcript = Self.proxied(admissions)
        let local = ProxyHeader.version2Signature + [0x20, 0x00, 0, 0]
        let actions = transcript.receive(local + Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        guard case .serveHTTP(let head)? = actions.first else {
            Issue.record("not served: \(actions)")
            return
        }
        #expect(head.path == "/healthz")
        #expect(admissions.asked == ["10.0.0.1"])
    }

    @Test("without a header: X-Forwarded-For names the client, per request on a kept-alive connection")
    func forwardedFor() {
        let admissions = Admissions()
        var transcript = Self.proxied(admissions)
        let first = transcript.receive(
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 1.1.1.1, 203.0.113.7\r\n\r\n")
        #expect(first.count == 1)
        #expect(admissions.asked == ["203.0.113.7"])
        _ = transcript.connection.respond(.plain(status: 200, "ok"), now: transcript.now)
        _ = transcript.write()
        // The same client again: not asked again; another client: asked.
        _ = transcript.receive("GET /a HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n")
        _ = transcript.connection.respond(.plain(status: 200, "ok"), now: transcript.now)
        _ = transcript.write()
        _ = transcript.receive("GET /b HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.2\r\n\r\n")
        #expect(admissions.asked == ["203.0.113.7", "198.51.100.2"])
        #expect(transcript.connection.clientAddress == "198.51.100.2")
    }

    @Test("X-Forwarded-For refused: the upgrade is answered 503 instead of 101")
    func forwardedForRefused() {
        let admissions = Admissions()
        admissions.refusing = ["203.0.113.7"]
        var transcript = Self.proxied(admissions)
        #expect(transcript.receive(Self.upgrade(forwardedFor: "203.0.113.7")) == [.flush])
        _ = transcript.write()
        #expect(transcript.text.hasPrefix("HTTP/1.1 503 "))
        #expect(!transcript.text.contains("101"))
    }

    @Test("a PROXY header naming another trusted proxy: its X-Forwarded-For names the client")
    func chained() {
        let admissions = Admissions()
        var transcript = Self.proxied(admissions)
        let actions = transcript.receive(
            "PROXY TCP4 10.0.0.9 10.0.0.1 1 2\r\n" + Self.upgrade(forwardedFor: "6.6.6.6, 203.0.113.7"))
        #expect(actions == [.opened, .flush])
        #expect(admissions.asked == ["203.0.113.7"])
    }

    @Test("from a peer that is not a trusted proxy, a PROXY header is bad HTTP (400) and X-Forwarded-For is ignored")
    func untrusted() {
        var transcript = Transcript { $0.trustedProxies = try! TrustedProxies(parsing: "10.0.0.0/8") }
        #expect(transcript.receive("PROXY TCP4 203.0.113.7 10.0.0.1 1 2\r\n" + Transcript.upgrade) == [.flush])
        _ = transcript.write()
        #expect(transcript.text.hasPrefix("HTTP/1.1 400 "))
        var binary = Transcript()
        #expect(
            binary.receive(ProxyHeader.version2Signature + [0x21, 0x11, 0, 12] + [UInt8](repeating: 1, count: 12)) == [
                .flush
            ])
        _ = binary.write()
        #expect(binary.text.hasPrefix("HTTP/1.1 400 "))
        var forwarded = Transcript()
        #expect(forwarded.receive(Self.upgrade(forwardedFor: "203.0.113.7")) == [.opened, .flush])
        #expect(forwarded.connection.clientAddress == nil)
    }
}
