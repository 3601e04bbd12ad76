import ChronoSketchCore
import Glibc
import PlanTestSupport
import Testing

@testable import PlanFuzz

/// Every crash or wrong answer the fuzzers found, replayed with its exact bytes.
@Suite("Fuzz findings (regressions)", .serialized, .database)
struct FuzzRegressionTests {
    /// Seed 2, frames case 14 (issue 12 §1): a text frame FIN=0 with one byte, then a continuation
    /// whose 64-bit length is 2⁶³−1 trapped in TransportCore.receive (arithmetic overflow).
    @Test("a continuation declaring 2^63-1 bytes after a one-byte fragment closes with 1009; the server lives")
    func continuationLengthOverflow() async throws {
        try await offThePool {
            let scene = try FuzzScene.make()
            let socket = try #require(FuzzSocket(host: "127.0.0.1", port: scene.server.port))
            socket.send(HandshakeGenerator.valid(host: "127.0.0.1:\(scene.server.port)").bytes)
            #expect(socket.readHTTPHead(timeoutMilliseconds: 5000)?.hasPrefix("HTTP/1.1 101") == true)
            // A text frame, FIN=0, masked, one byte ("{"); then a final continuation declaring 2^63-1 bytes.
            let bytes: [UInt8] =
                [0x01, 0x81, 0x37, 0xFA, 0x21, 0x3D, 0x4C]
                + [0x80, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x37, 0xFA, 0x21, 0x3D]
                + [UInt8](repeating: 0x20, count: 16)
            socket.send(bytes)
            let event = socket.next(deadline: Clock.milliseconds() + 5000)
            #expect(event == .close(1009))
            // A new connection is welcomed: the server lived through it.
            #expect(Health.welcomes(host: "127.0.0.1", port: scene.server.port, token: scene.token))
            #expect(Health.processIsAlive(scene.server.pid), "the server is alive")
        }
    }

    /// Issue 12 §2: a token followed by NUL and junk authenticated as the token's user.
    @Test("hello with the token + \"\\u0000junk\" is unauthenticated")
    func tokenWithNUL() async throws {
        try await offThePool {
            let scene = try FuzzScene.make()
            let client = try #require(FuzzClient(host: "127.0.0.1", port: scene.server.port))
            let token = scene.token
            client.socket.sendText(Array(#"{"type":"hello","token":"\#(token)\u0000junk","client":"fuzz/1"}"#.utf8))
            let answer = client.next(within: 5000) { _ in true }
            #expect(answer?.string("type") == "error" && answer?.string("code") == "unauthenticated")
        }
    }

    /// Issue 12 §2: plan "P\u0000x" served P's data as a second in-memory copy.
    @Test("subscribe to the plan + \"\\u0000x\" gets no snapshot")
    func planWithNUL() async throws {
        try await offThePool {
            let scene = try FuzzScene.make()
            let client = try #require(FuzzClient(host: "127.0.0.1", port: scene.server.port))
            #expect(client.hello(token: scene.token))
            client.socket.sendText(Array(#"{"type":"subscribe","plan":"\#(scene.plan)\u0000x","ref":"nul"}"#.utf8))
            let answer = client.next(within: 5000) { $0.string("ref") == "nul" }
            #expect(
                answer?.string("type") == "error",
                "got \(answer?.string("type") ?? "nothing") \(answer?.string("code") ?? "")")
        }
    }

    /// Seed 1, messages case 54, and issue 12 §2: a NUL in a proposal's values made the group
    /// commit fail, so the proposal got `unavailable` (not a decision) while the database was fine.
    @Test("a proposal with NUL in a title is rejected badMessage, never unavailable")
    func titleWithNUL() async throws {
        try await offThePool {
            let scene = try FuzzScene.make()
            let client = try #require(FuzzClient(host: "127.0.0.1", port: scene.server.port))
            #expect(client.hello(token: scene.token))
            let propose =
                #"{"type":"propose","id":"nul-title","plan":"\#(scene.plan)","baseVersion":0,"#
                + #""op":{"type":"add","task":{"id":"nul-task","title":"a\u0000b","kind":"summary"}}}"#
            client.socket.sendText(Array(propose.utf8))
            let answer = client.next(within: 10_000) { $0.string("id") == "nul-title" }
            #expect(answer != nil, "the proposal was answered")
            #expect(
                answer?.string("type") == "rejected" && answer?.string("code") == "badMessage",
                "got \(answer?.string("type") ?? "nothing") \(answer?.string("code") ?? "")")
        }
    }
}
