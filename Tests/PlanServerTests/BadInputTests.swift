import ChronoSketchCore
import Dispatch
import Glibc
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing
import WebSocketWire

@Suite("Server: bad input", .serialized, .database)
struct BadInputTests {
    @Test(
        "bad input that keeps the connection open: the error's code and ref; the same connection still works",
        .serialized, arguments: BadInput.all)
    func keepsConnectionOpen(_ input: BadInput) async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        scene.sender.connection.sendRaw(input.bytes(plan: scene.fixture.plan))
        let answer = try await scene.sender.nextMessage()
        guard case .error(let code, let message, let ref) = answer else {
            Issue.record("expected error \(input.code.rawValue), got \(answer)")
            return
        }
        #expect(code == input.code, "message: \(message)")
        #expect(ref == input.ref)
        try await scene.expectSenderWorks()
    }

    @Test("nesting: 32 levels are fine, 33 are badMessage")
    func nesting() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        func subscribe(arrays: Int, ref: String) -> [UInt8] {
            Array(
                (#"{"type":"subscribe","plan":"\#(scene.fixture.plan)","ref":"\#(ref)","x":"#
                    + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}").utf8)
        }
        scene.sender.connection.sendRaw(subscribe(arrays: 32, ref: "deep"))
        guard case .error(.badMessage, _, let ref) = try await scene.sender.nextMessage() else {
            Issue.record("33 levels were accepted")
            return
        }
        #expect(ref == "deep", "the ref above the deep part is read and echoed")
        // A proposal nesting too deep with a readable id is settled, as every such proposal is.
        let deepPropose =
            #"{"type":"propose","id":"deep-1","plan":"\#(scene.fixture.plan)","baseVersion":0,"op":"#
            + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        scene.sender.connection.sendRaw(Array(deepPropose.utf8))
        guard case .rejected(let id, _, .badMessage, _, _, _, _) = try await scene.sender.nextMessage() else {
            Issue.record("a deep proposal with a readable id was not rejected")
            return
        }
        #expect(id == "deep-1")
        scene.sender.connection.sendRaw(subscribe(arrays: 31, ref: "ok"))
        guard case .snapshot(let snapshot, _) = try await scene.sender.nextMessage() else {
            Issue.record("32 levels were refused")
            return
        }
        #expect(snapshot.version == 0)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a frame of exactly maxMessageBytes is read; one byte more closes the connection with 1009")
    func messageSize() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let limit = ProtocolLimits.standard.maxMessageBytes
        func subscribe(size: Int) -> [UInt8] {
            let head = Array(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)","padding":""#.utf8)
            let tail = Array(#""}"#.utf8)
            return head + [UInt8](repeating: UInt8(ascii: "x"), count: size - head.count - tail.count) + tail
        }
        scene.sender.connection.sendRaw(subscribe(size: limit))
        guard case .snapshot = try await scene.sender.nextMessage() else {
            Issue.record("a frame of exactly \(limit) bytes was not served")
            return
        }
        scene.sender.connection.sendRaw(subscribe(size: limit + 1))
        #expect(try await scene.sender.expectDisconnect() == CloseCode.messageTooBig.rawValue)
        try await scene.expectBystanderUndisturbed()
        try await scene.expectReconnectWorks()
    }

    @Test(
        "text that is not valid UTF-8 closes with 1007, inside a string or outside one",
        arguments: [
            ("in a string", [0xFF, 0xFE]),
            ("a truncated sequence in a string", [0xE2, 0x82]),
            ("an overlong encoding in a string", [0xC0, 0xAF]),
            ("a lone surrogate in a string", [0xED, 0xA0, 0x80]),
        ] as [(String, [UInt8])])
    func invalidUTF8(_ label: String, _ bad: [UInt8]) async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let bytes =
            Array(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)","ref":"r"#.utf8) + bad + Array(#""}"#.utf8)
        scene.sender.connection.sendRaw(bytes)
        #expect(try await scene.sender.expectDisconnect() == CloseCode.invalidPayload.rawValue, "\(label)")
        try await scene.expectBystanderUndisturbed()
        try await scene.expectReconnectWorks()
    }

    @Test("invalid UTF-8 outside any string closes with 1007 as well")
    func invalidUTF8OutsideStrings() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let bytes = Array(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)"}"#.utf8) + [0xC3, 0x28]
        scene.sender.connection.sendRaw(bytes)
        #expect(try await scene.sender.expectDisconnect() == CloseCode.invalidPayload.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a message before hello: error unauthenticated, then close 1008 (text or binary)")
    func beforeHello() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let text = try await RawWebSocket.connect(port: scene.server.port)
        defer { text.close() }
        try await text.sendText(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)"}"#)
        let (messages, code) = try await text.untilClose()
        #expect(messages.map(\.typeName) == ["error"])
        if case .error(let errorCode, _, _)? = messages.first { #expect(errorCode == .unauthenticated) }
        #expect(code == CloseCode.policyViolation.rawValue)

        let binary = try await RawWebSocket.connect(port: scene.server.port)
        defer { binary.close() }
        try await binary.send(opcode: RawWebSocket.binary, [0x7B, 0x7D])
        let (binaryMessages, binaryCode) = try await binary.untilClose()
        guard binaryMessages.count == 1, case .error(let errorCode, _, _) = binaryMessages[0] else {
            throw HarnessError("expected one error before the close, got \(binaryMessages.map(\.typeName))")
        }
        #expect(errorCode == .unauthenticated)
        #expect(binaryCode == CloseCode.policyViolation.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a binary frame gets error badMessage; the connection stays open and works")
    func binaryFrame() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.editorToken)
        try await socket.send(opcode: RawWebSocket.binary, Array(#"{"type":"subscribe","plan":"x"}"#.utf8))
        guard case .error(let code, _, _) = try await socket.next() else {
            Issue.record("no error for a binary frame")
            return
        }
        #expect(code == .badMessage)
        try await socket.sendText(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)"}"#)
        guard case .snapshot(let snapshot, _) = try await socket.next(skipping: ["presence"]) else {
            Issue.record("no snapshot after the binary frame")
            return
        }
        #expect(snapshot.version == 0)
        try await scene.expectBystanderUndisturbed()
    }

    @Test("a message in fragments is put together; fragments over maxMessageBytes in all close with 1009")
    func fragments() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.viewerToken)
        let message = Array(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)","ref":"frag"}"#.utf8)
        try await socket.send(opcode: RawWebSocket.text, Array(message[0..<10]), final: false)
        try await socket.send(opcode: RawWebSocket.continuation, Array(message[10..<30]), final: false)
        try await socket.send(opcode: RawWebSocket.continuation, Array(message[30...]))
        guard case .snapshot(let snapshot, let ref) = try await socket.next(skipping: ["presence"]) else {
            Issue.record("no snapshot for a fragmented subscribe")
            return
        }
        #expect(snapshot.version == 0 && ref == "frag")

        let piece = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        try await socket.send(
            opcode: RawWebSocket.text, Array(#"{"type":"subscribe","plan":"x","pad":""#.utf8), final: false)
        for _ in 0...16 {
            // The server may close before all pieces were sent.
            guard (try? await socket.send(opcode: RawWebSocket.continuation, piece, final: false)) != nil else {
                break
            }
        }
        let (_, code) = try await socket.untilClose()
        #expect(code == CloseCode.messageTooBig.rawValue)
        try await scene.expectBystanderUndisturbed()
    }

    @Test(
        "requests sent right behind hello are answered after the welcome")
    func pipelinedBehindHello() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        let socket = try await RawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        let hello = ClientMessage.hello(token: scene.fixture.editorToken, client: "raw/1").bytes
        try await socket.sendFrames([
            (RawWebSocket.text, hello), (RawWebSocket.text, Array(#"{"type":"shout","ref":"early"}"#.utf8)),
        ])
        let first = try await socket.next()
        #expect(first.typeName == "welcome", "the first answer was \(first)")
        guard case .error(.unsupported, _, "early") = try await socket.next() else {
            Issue.record("no unsupported error after the welcome")
            return
        }
    }

    @Test("after a flood of bad input of every kind, the server still serves everyone and changed nothing")
    func flood() async throws {
        let scene = try await BadInputScene.make()
        defer { scene.close() }
        for input in BadInput.all {
            scene.sender.connection.sendRaw(input.bytes(plan: scene.fixture.plan))
        }
        for input in BadInput.all {
            guard case .error(let code, _, let ref) = try await scene.sender.nextMessage() else {
                Issue.record("no error for \(input.label)")
                continue
            }
            #expect(code == input.code && ref == input.ref, "\(input.label)")
        }
        try await scene.expectSenderWorks()
    }
}

// MARK: - Inputs

/// A request that is not a valid message of the contract, answered with an `error`.
struct BadInput: Sendable, CustomTestStringConvertible {
    let label: String
    /// The frame's text; `PLAN` stands for the plan id.
    let text: String
    let code: ProtocolErrorCode
    var ref: String?

    var testDescription: String { label }

    func bytes(plan: String) -> [UInt8] {
        Array(text.replacing("PLAN", with: plan).utf8)
    }

    static let all: [BadInput] = [
        BadInput(label: "not JSON", text: "hello there", code: .badMessage),
        BadInput(label: "truncated JSON", text: #"{"type":"subscribe","plan":"#, code: .badMessage),
        BadInput(label: "an empty frame", text: "", code: .badMessage),
        BadInput(label: "a JSON array", text: #"[{"type":"subscribe","plan":"PLAN"}]"#, code: .badMessage),
        BadInput(label: "a number", text: "42", code: .badMessage),
        BadInput(label: "a string", text: #""subscribe""#, code: .badMessage),
        BadInput(label: "null", text: "null", code: .badMessage),
        BadInput(label: "trailing garbage", text: #"{"type":"subscribe","plan":"PLAN"} x"#, code: .badMessage),
        BadInput(
            label: "missing type", text: #"{"plan":"PLAN","ref":"r-missing"}"#, code: .badMessage, ref: "r-missing"),
        BadInput(label: "a number as type", text: #"{"type":7,"ref":"r-seven"}"#, code: .badMessage, ref: "r-seven"),
        BadInput(label: "null as type", text: #"{"type":null,"ref":"r-null"}"#, code: .badMessage, ref: "r-null"),
        BadInput(
            label: #""plan":5"#, text: #"{"type":"subscribe","plan":5,"ref":"r-plan"}"#, code: .badMessage,
            ref: "r-plan"),
        BadInput(
            label: "subscribe without plan", text: #"{"type":"subscribe","ref":"r1"}"#, code: .badMessage, ref: "r1"),
        BadInput(
            label: #""since" as a string"#, text: #"{"type":"subscribe","plan":"PLAN","since":"3","ref":"r-since"}"#,
            code: .badMessage, ref: "r-since"),
        BadInput(
            label: "a negative since", text: #"{"type":"subscribe","plan":"PLAN","since":-1,"ref":"r-neg"}"#,
            code: .badMessage, ref: "r-neg"),
        BadInput(
            label: "a query without end",
            text:
                #"{"type":"query","plan":"PLAN","query":{"start":"2026-09-08T00:00","resourceIDs":["room-1"]},"ref":"r-q"}"#,
            code: .badMessage, ref: "r-q"),
        BadInput(
            label: "unwatch with a number", text: #"{"type":"unwatch","watch":1,"ref":"r-w"}"#, code: .badMessage,
            ref: "r-w"),
        BadInput(
            label: "a ref that is not a string", text: #"{"type":"subscribe","plan":5,"ref":5}"#, code: .badMessage),
        BadInput(
            label: "an unknown type", text: #"{"type":"shout","plan":"PLAN","ref":"r2"}"#, code: .unsupported, ref: "r2"
        ),
        BadInput(label: "an unknown type, no ref", text: #"{"type":"SUBSCRIBE","plan":"PLAN"}"#, code: .unsupported),
        BadInput(
            label: "a fetch without a version", text: #"{"type":"fetch","plan":"PLAN","ref":"r2"}"#, code: .badMessage,
            ref: "r2"),
        BadInput(
            label: "a history of 0 entries", text: #"{"type":"history","plan":"PLAN","limit":0,"ref":"r3"}"#,
            code: .badMessage, ref: "r3"),
        BadInput(
            label: "a propose without id",
            text:
                #"{"type":"propose","plan":"PLAN","baseVersion":0,"op":{"type":"unlink","dependency":{"predecessorID":"spec","successorID":"build"}},"ref":"r-noid"}"#,
            code: .badMessage, ref: "r-noid"),
        BadInput(
            label: "a propose whose id is a number",
            text:
                #"{"type":"propose","id":42,"plan":"PLAN","baseVersion":0,"op":{"type":"unlink","dependency":{"predecessorID":"spec","successorID":"build"}},"ref":"r-numid"}"#,
            code: .badMessage, ref: "r-numid"),
        BadInput(
            label: "a propose whose id is empty",
            text:
                #"{"type":"propose","id":"","plan":"PLAN","baseVersion":0,"op":{"type":"unlink","dependency":{"predecessorID":"spec","successorID":"build"}},"ref":"r-emptyid"}"#,
            code: .badMessage, ref: "r-emptyid"),
        BadInput(
            label: "nesting deeper than 32",
            text: #"{"type":"subscribe","plan":"PLAN","x":"# + String(repeating: "[", count: 40)
                + String(repeating: "]", count: 40) + "}", code: .badMessage),
        BadInput(
            label: "a lone surrogate escape",
            text: #"{"type":"subscribe","plan":"\ud800","ref":"r-sur"}"#, code: .badMessage),
    ]
}

// MARK: - Scene

/// A server, a fresh demo plan, the sender of bad input (the plan's editor, ready) and a
/// bystander (a second editor, subscribed) who must not notice anything.
struct BadInputScene {
    let fixture: PlanFixture
    let server: ServerProcess
    let sender: TestClient
    let bystander: TestClient
    let initial: ClientPlanCopy

    static func make() async throws -> BadInputScene {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let sender = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let bystander = try TestClient(
            url: server.url, token: try fixture.user(.editor), transport: SharedTransport.instance)
        try await sender.ready()
        try await bystander.ready()
        let initial = try await bystander.subscribe(fixture.plan)
        return BadInputScene(fixture: fixture, server: server, sender: sender, bystander: bystander, initial: initial)
    }

    func close() {
        sender.close()
        bystander.close()
    }

    /// The sender's connection still serves: its subscription sees the untouched plan, its
    /// proposal is confirmed to the bystander, whose stream had nothing else in between.
    func expectSenderWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let copy = try await sender.subscribe(fixture.plan)
        #expect(copy == initial, "stored data unchanged", sourceLocation: sourceLocation)
        let release = copy["release"]!
        let answer = try await sender.propose(
            .replace(previous: release, proposed: release.with(title: "Launch")), plan: fixture.plan, id: "after-bad")
        #expect(answer.ackVersion == 1, sourceLocation: sourceLocation)
        let next = try await bystander.nextMessage()
        #expect(next.mutationID == "after-bad" && next.confirmedVersion == 1, sourceLocation: sourceLocation)
    }

    /// The bystander still works and the data is untouched: its own change is version 1, and the
    /// confirmed is the next thing it hears.
    func expectBystanderUndisturbed(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let release = initial["release"]!
        let answer = try await bystander.propose(
            .replace(previous: release, proposed: release.with(title: "Launch")), plan: fixture.plan, id: "bystander")
        #expect(answer.ackVersion == 1, sourceLocation: sourceLocation)
        let next = try await bystander.nextMessage()
        #expect(next.mutationID == "bystander" && next.confirmedVersion == 1, sourceLocation: sourceLocation)
        #expect(kill(server.pid, 0) == 0, "the server is alive", sourceLocation: sourceLocation)
    }

    /// A new connection of the sender's user is welcome and can subscribe.
    func expectReconnectWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let again = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { again.close() }
        let copy = try await again.subscribe(fixture.plan)
        #expect(copy.plan == fixture.plan, sourceLocation: sourceLocation)
    }
}
