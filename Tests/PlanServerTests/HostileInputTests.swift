import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing
import WebSocketWire

/// What an attacker found (issue 12), each kept as a regression test: frames whose lengths would
/// overflow, strings with NUL, close frames that break RFC 6455, connections that never say hello.
@Suite("Server: hostile input", .serialized, .database)
struct HostileInputTests {
    /// 64-bit lengths a continuation frame may claim behind a one-byte first fragment.
    static let claimedLengths: [UInt64] = [
        (1 << 63) - 1, 1 << 62, 1 << 32, (1 << 31) + 1, UInt64(ProtocolLimits.standard.maxMessageBytes),
    ]

    @Test(
        "a continuation claiming a huge length behind a one-byte fragment closes with 1009, before hello or after",
        arguments: claimedLengths, [false, true])
    func hugeContinuation(claimed: UInt64, authenticated: Bool) async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        if authenticated { try await socket.hello(token: scene.fixture.viewerToken) }
        let first = RawWebSocket.frameBytes(opcode: RawWebSocket.text, [UInt8(ascii: "{")], final: false)
        let second = RawWebSocket.frameBytes(
            opcode: RawWebSocket.continuation, Array("\"type\":".utf8), claimedLength: claimed)
        try await socket.sendBytes(first + second)
        let (_, code) = try await socket.untilClose()
        #expect(code == CloseCode.messageTooBig.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a single frame claiming 2^63 − 1 bytes closes with 1009")
    func hugeSingleFrame() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.sendBytes(
            RawWebSocket.frameBytes(opcode: RawWebSocket.text, Array("{}".utf8), claimedLength: (1 << 63) - 1)
        )
        let (_, code) = try await socket.untilClose()
        #expect(code == CloseCode.messageTooBig.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("hello's ref is echoed by the welcome, and by the error that refuses an unknown token")
    func helloRef() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let welcomed = try await RawWebSocket.connect(port: scene.server.port)
        defer { welcomed.close() }
        try await welcomed.sendText(#"{"type":"hello","token":"\#(scene.fixture.viewerToken)","ref":"h1"}"#)
        guard case .welcome(_, _, _, _, _, let ref) = try await welcomed.next() else {
            throw HarnessError("no welcome")
        }
        #expect(ref == "h1")
        let refused = try await RawWebSocket.connect(port: scene.server.port)
        defer { refused.close() }
        try await refused.sendText(#"{"type":"hello","token":"no-such-token","ref":"h2"}"#)
        let (messages, code) = try await refused.untilClose()
        guard case .error(.unauthenticated, _, let errorRef)? = messages.first else {
            throw HarnessError("no error: \(messages)")
        }
        #expect(errorRef == "h2" && code == CloseCode.policyViolation.rawValue)
    }

    @Test("a token followed by \\u0000 and more does not authenticate: error unauthenticated, close 1008")
    func tokenWithNUL() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.sendText(#"{"type":"hello","token":"\#(scene.fixture.editorToken)\u0000junk"}"#)
        let (messages, code) = try await socket.untilClose()
        #expect(messages.map(\.typeName) == ["error"])
        if case .error(let errorCode, _, _)? = messages.first { #expect(errorCode == .unauthenticated) }
        #expect(code == CloseCode.policyViolation.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a plan name with \\u0000 is badMessage, for subscribe, query and watch; no second copy of the plan")
    func planNameWithNUL() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.editorToken)
        let plan = scene.fixture.plan + #"\u0000x"#
        let query = #"{"start":"2026-09-01T00:00","end":"2026-09-30T00:00","resourceIDs":["room-1"]}"#
        let requests = [
            #"{"type":"subscribe","plan":"\#(plan)","ref":"s"}"#,
            #"{"type":"query","plan":"\#(plan)","query":\#(query),"ref":"q"}"#,
            #"{"type":"watch","plan":"\#(plan)","watch":"w","query":\#(query),"ref":"w"}"#,
            #"{"type":"query","plan":"\#(scene.fixture.plan)","query":\#(query),"ref":"r\u0000"}"#,
        ]
        for (request, ref) in zip(requests, ["s", "q", "w", nil]) {
            try await socket.sendText(request)
            guard case .error(let code, let message, let answeredRef) = try await socket.next() else {
                Issue.record("no error for \(request)")
                continue
            }
            #expect(code == .badMessage)
            #expect(message.contains("U+0000"), "the message names the NUL: \(message)")
            #expect(answeredRef == ref, "a ref with a NUL is not echoed")
        }
        try await scene.expectSenderWorks()
    }

    @Test("a proposal with \\u0000 in a value is rejected badMessage; with it in its id, error badMessage")
    func proposalWithNUL() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.editorToken)
        let release = scene.initial["release"]!
        let previous = release.json
        let proposed = release.with(title: "Rel@ease").json.split(separator: "@").joined(separator: #"\u0000"#)
        let op = #"{"type":"replace","previous":\#(previous),"proposed":\#(proposed)}"#
        try await socket.sendText(
            #"{"type":"propose","id":"nul-title","plan":"\#(scene.fixture.plan)","baseVersion":0,"op":\#(op)}"#)
        guard case .rejected(let id, _, let code, let message, _, _, _) = try await socket.next(skipping: ["presence"])
        else {
            throw HarnessError("no rejection for a NUL in a title")
        }
        #expect(id == "nul-title" && code == .badMessage && message.contains("U+0000"))
        try await socket.sendText(
            #"{"type":"propose","id":"nul\u0000id","plan":"\#(scene.fixture.plan)","baseVersion":0,"op":\#(op)}"#)
        guard case .error(.badMessage, _, _) = try await socket.next() else {
            throw HarnessError("no error for a NUL in a proposal id")
        }
        try await scene.expectBystanderUndisturbed()
    }

    @Test(
        "a close frame that breaks RFC 6455 is answered with 1002 or 1007; a valid one is echoed",
        arguments: [
            ("one byte", [0x03], CloseCode.protocolError.rawValue),
            ("code 5000", [0x13, 0x88], CloseCode.protocolError.rawValue),
            ("code 65535", [0xFF, 0xFF], CloseCode.protocolError.rawValue),
            ("code 1005", [0x03, 0xED], CloseCode.protocolError.rawValue),
            ("code 999", [0x03, 0xE7], CloseCode.protocolError.rawValue),
            ("code 2999", [0x0B, 0xB7], CloseCode.protocolError.rawValue),
            ("a reason that is not UTF-8", [0x03, 0xE8, 0xFF, 0xFE], CloseCode.invalidPayload.rawValue),
            ("1000 with a reason", [0x03, 0xE8] + Array("bye".utf8), 1000),
            ("4000", [0x0F, 0xA0], 4000),
        ] as [(String, [UInt8], UInt16)])
    func closeFrames(_ label: String, _ payload: [UInt8], _ expected: UInt16) async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.viewerToken)
        try await socket.send(opcode: 0x8, payload)
        let (_, code) = try await socket.untilClose()
        #expect(code == expected, "\(label)")
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a connection that sends no hello within --hello-timeout-seconds is closed with 1008; others stay")
    func helloDeadline() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--hello-timeout-seconds", "1"])
        let client = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { client.close() }
        let silent = try await RawWebSocket.connect(port: server.port)
        defer { silent.close() }
        let (messages, code) = try await silent.untilClose()
        #expect(code == CloseCode.policyViolation.rawValue)
        guard case .error(.unauthenticated, let message, _)? = messages.first else {
            throw HarnessError("no unauthenticated error before the close: \(messages)")
        }
        #expect(message.contains("hello"))
        // The deadline passed for the authenticated client too: it is still served.
        let copy = try await client.subscribe(fixture.plan)
        #expect(copy.version == 0)
    }
}
