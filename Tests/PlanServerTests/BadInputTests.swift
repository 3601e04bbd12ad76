import ChronoSketchCore
import Dispatch
import Glibc
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

@Suite("Server: bad input", .serialized)
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
        #expect(ref == nil, "a message that cannot be parsed has no readable ref")
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
        let text = try await AsyncRawWebSocket.connect(port: scene.server.port)
        defer { text.close() }
        try await text.sendText(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)"}"#)
        let (messages, code) = try await text.untilClose()
        #expect(messages.map(\.typeName) == ["error"])
        if case .error(let errorCode, _, _)? = messages.first { #expect(errorCode == .unauthenticated) }
        #expect(code == CloseCode.policyViolation.rawValue)

        let binary = try await AsyncRawWebSocket.connect(port: scene.server.port)
        defer { binary.close() }
        try await binary.send(opcode: AsyncRawWebSocket.binary, [0x7B, 0x7D])
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
        let socket = try await AsyncRawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.editorToken)
        try await socket.send(opcode: AsyncRawWebSocket.binary, Array(#"{"type":"subscribe","plan":"x"}"#.utf8))
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
        let socket = try await AsyncRawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        try await socket.hello(token: scene.fixture.viewerToken)
        let message = Array(#"{"type":"subscribe","plan":"\#(scene.fixture.plan)","ref":"frag"}"#.utf8)
        try await socket.send(opcode: AsyncRawWebSocket.text, Array(message[0..<10]), final: false)
        try await socket.send(opcode: AsyncRawWebSocket.continuation, Array(message[10..<30]), final: false)
        try await socket.send(opcode: AsyncRawWebSocket.continuation, Array(message[30...]))
        guard case .snapshot(let snapshot, let ref) = try await socket.next(skipping: ["presence"]) else {
            Issue.record("no snapshot for a fragmented subscribe")
            return
        }
        #expect(snapshot.version == 0 && ref == "frag")

        let piece = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        try await socket.send(
            opcode: AsyncRawWebSocket.text, Array(#"{"type":"subscribe","plan":"x","pad":""#.utf8), final: false)
        for _ in 0...16 {
            // The server may close before all pieces were sent.
            guard (try? await socket.send(opcode: AsyncRawWebSocket.continuation, piece, final: false)) != nil else {
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
        let socket = try await AsyncRawWebSocket.connect(port: scene.server.port)
        defer { socket.close() }
        let hello = ClientMessage.hello(token: scene.fixture.editorToken, client: "raw/1").bytes
        try await socket.sendFrames([
            (AsyncRawWebSocket.text, hello), (AsyncRawWebSocket.text, Array(#"{"type":"fetch","ref":"early"}"#.utf8)),
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
            label: "an unknown type", text: #"{"type":"fetch","plan":"PLAN","ref":"r2"}"#, code: .unsupported, ref: "r2"
        ),
        BadInput(label: "an unknown type, no ref", text: #"{"type":"SUBSCRIBE","plan":"PLAN"}"#, code: .unsupported),
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

// MARK: - A raw WebSocket client

/// A minimal RFC 6455 client on a blocking socket, for what PlanConnection cannot send: binary
/// frames, fragments, messages before hello, several frames in one write. Its blocking calls run
/// on a Dispatch queue, never on the tests' cooperative threads; reads time out after 10 s.
final class AsyncRawWebSocket: @unchecked Sendable {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2

    enum Frame {
        case message([UInt8])
        case close(UInt16?)
        case end
    }

    private let fd: Int32
    private var received: [UInt8] = []
    private var pending: [ServerMessage] = []
    private static let queue = DispatchQueue(label: "raw-websocket", attributes: .concurrent)

    /// Connects to ws://127.0.0.1:port/ws and completes the handshake.
    static func connect(port: Int) async throws -> AsyncRawWebSocket {
        try await blocking { try AsyncRawWebSocket(port: port) }
    }

    private init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw HarnessError("connect: errno \(errno)")
        }
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: chronosketch.v1\r\n\r\n"
        try writeAll(Array(request.utf8))
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.indices.dropLast(3).first(where: { Array(received[$0..<$0 + 4]) == separator }) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                received.removeFirst(end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else { throw HarnessError("no upgrade: \(head)") }
                return
            }
            guard try fill() else { throw HarnessError("closed during the handshake") }
        }
    }

    deinit {
        Glibc.close(fd)
    }

    /// Shuts the socket down (the descriptor is closed when the object goes).
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends one frame (masked, as a client must).
    func send(opcode: UInt8, _ payload: [UInt8], final: Bool = true) async throws {
        try await sendFrames([(opcode, payload)], finalLast: final)
    }

    /// Sends several frames in one write.
    func sendFrames(_ frames: [(opcode: UInt8, payload: [UInt8])], finalLast: Bool = true) async throws {
        var bytes: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            bytes += AsyncRawWebSocket.frame(
                opcode: frame.opcode, frame.payload, final: index < frames.count - 1 || finalLast)
        }
        let data = bytes
        try await AsyncRawWebSocket.blocking { try self.writeAll(data) }
    }

    func sendText(_ text: String) async throws {
        try await send(opcode: AsyncRawWebSocket.text, Array(text.utf8))
    }

    /// Sends hello and waits for the welcome.
    func hello(token: String) async throws {
        try await send(opcode: AsyncRawWebSocket.text, ClientMessage.hello(token: token, client: "raw/1").bytes)
        let welcome = try await next()
        guard welcome.typeName == "welcome" else { throw HarnessError("no welcome: \(welcome)") }
    }

    /// The next server message (of a batch, or alone), skipping the given types.
    func next(skipping skipped: Set<String> = []) async throws -> ServerMessage {
        while true {
            while !pending.isEmpty {
                let message = pending.removeFirst()
                if !skipped.contains(message.typeName) { return message }
            }
            switch try await AsyncRawWebSocket.blocking({ try self.readFrame() }) {
            case .message(let bytes): pending = try ServerMessage.decodeFrame(bytes)
            case .close(let code): throw HarnessError("closed with \(code.map(String.init) ?? "no code")")
            case .end: throw HarnessError("the connection ended")
            }
        }
    }

    /// Every message until the server closes, and its close code.
    func untilClose() async throws -> (messages: [ServerMessage], code: UInt16?) {
        var messages = pending
        pending = []
        while true {
            switch try await AsyncRawWebSocket.blocking({ try self.readFrame() }) {
            case .message(let bytes): messages += try ServerMessage.decodeFrame(bytes)
            case .close(let code): return (messages, code)
            case .end: return (messages, nil)
            }
        }
    }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func frame(opcode: UInt8, _ payload: [UInt8], final: Bool) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x2E]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw HarnessError("send: errno \(errno)") }
            offset += written
        }
    }

    /// Reads more bytes; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            received += chunk[0..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw HarnessError(errno == EAGAIN ? "nothing received within 10 s" : "recv: errno \(errno)")
    }

    /// The next complete message, close or end of stream; pings are answered, fragments joined.
    private func readFrame() throws -> Frame {
        var message: [UInt8] = []
        while true {
            guard try need(2) else { return .end }
            let first = received[0]
            let second = received[1]
            var length = Int(second & 0x7F)
            var offset = 2
            if length == 126 {
                guard try need(4) else { return .end }
                length = Int(received[2]) << 8 | Int(received[3])
                offset = 4
            } else if length == 127 {
                guard try need(10) else { return .end }
                length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard try need(offset + length) else { return .end }
            let payload = Array(received[offset..<offset + length])
            received.removeFirst(offset + length)
            switch first & 0x0F {
            case 0x8:
                return .close(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
            case 0x9:
                try writeAll(AsyncRawWebSocket.frame(opcode: 0xA, payload, final: true))
            case 0x0, 0x1, 0x2:
                message += payload
                if first & 0x80 != 0 { return .message(message) }
            default:
                break
            }
        }
    }

    private func need(_ count: Int) throws -> Bool {
        while received.count < count {
            guard try fill() else { return false }
        }
        return true
    }
}
