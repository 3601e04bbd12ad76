import CWebSockets
import Dispatch
import Glibc
import PlanClient
import PlanTestSupport
import Synchronization
import Testing
import WebSocketWire

@testable import PlanLoad

/// A one-connection WebSocket server on a real loopback socket that plays a script: it answers
/// the upgrade (or refuses it), then writes raw bytes and reads the client's frames.
final class ScriptedServer: @unchecked Sendable {
    private(set) var listener: Int32
    let port: Int
    private var connection: Int32 = -1

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw HarnessError("cannot listen")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        if connection >= 0 { close(connection) }
        stopListening()
    }

    /// Closes the listening socket: connecting to the port is refused from now on.
    func stopListening() {
        if listener >= 0 { close(listener) }
        listener = -1
    }

    /// Accepts the client and reads its upgrade request; returns the request's key.
    func acceptUpgrade() throws -> String {
        connection = Glibc.accept(listener, nil, nil)
        guard connection >= 0 else { throw HarnessError("accept failed") }
        var request: [UInt8] = []
        var byte: UInt8 = 0
        while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(connection, &byte, 1) == 1 else { throw HarnessError("no upgrade request") }
            request.append(byte)
        }
        let text = String(decoding: request, as: UTF8.self)
        guard text.hasPrefix("GET /ws HTTP/1.1\r\n"), text.contains("Upgrade: websocket"),
            let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("Sec-WebSocket-Key: ") })
        else { throw HarnessError("not an upgrade: \(text)") }
        return String(line.dropFirst("Sec-WebSocket-Key: ".count))
    }

    /// The RFC's accept value for `key`.
    static func accept(for key: String) -> String {
        WebSocketHandshake.acceptValue(key: key)
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that closed makes this fail, not the test process die of SIGPIPE.
            let count = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw HarnessError("write failed") }
            offset += count
        }
    }

    /// Waits until the client has read everything written to it: its socket's receive queue, as
    /// `/proc/net/tcp` shows it for the client's end of this connection, is empty.
    func awaitClientRead(within seconds: Double = 10) throws {
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(connection, $0, &length) == 0 }
        }
        guard named else { throw HarnessError("getpeername failed") }
        // The client's local address as the kernel prints it: the address's bytes read as one
        // native integer, then the port, both in hex (0100007F:D431 for 127.0.0.1:54321).
        func hex(_ value: some BinaryInteger, digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let local = hex(peer.sin_addr.s_addr, digits: 8) + ":" + hex(UInt16(bigEndian: peer.sin_port), digits: 4)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var seen = false
        while ContinuousClock.now < deadline {
            // First everything must have reached the client's socket (nothing unacknowledged
            // here: SIOCOUTQ, 0x5411), then its queue must be empty.
            var unsent: Int32 = 0
            guard ioctl(connection, 0x5411, &unsent) == 0 else { throw HarnessError("SIOCOUTQ failed") }
            if unsent == 0 {
                let table = String(decoding: try readAll("/proc/net/tcp"), as: UTF8.self)
                for line in table.split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    // sl local_address rem_address st tx_queue:rx_queue …
                    guard fields.count > 4, fields[1] == local else { continue }
                    seen = true
                    if fields[4].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) == 0 { return }
                }
            }
            usleep(1_000)  // polling the kernel's table: there is no event for a read
        }
        throw HarnessError(
            seen
                ? "the client did not read what was written within \(seconds) s"
                : "no socket \(local) in /proc/net/tcp")
    }

    /// Reads one client frame: it must be masked; returns the opcode and the unmasked payload.
    func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try readExactly(2)
        guard head[1] & 0x80 != 0 else { throw HarnessError("an unmasked client frame") }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let extended = try readExactly(2)
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            length = try readExactly(8).reduce(0) { $0 << 8 | Int($1) }
        }
        let mask = try readExactly(4)
        let payload = try readExactly(length).enumerated().map { $0.element ^ mask[$0.offset & 3] }
        return (head[0] & 0x0F, payload)
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let read = bytes[offset...].withUnsafeMutableBytes { Glibc.read(connection, $0.baseAddress, $0.count) }
            guard read > 0 else { throw HarnessError("the client closed early") }
            offset += read
        }
        return bytes
    }

    /// An unmasked server frame.
    static func frame(fin: Bool = true, opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        return frame + payload
    }
}

/// Runs blocking work on a thread of its own (not the cooperative pool) and hands back the
/// error, if any.
func onThread(_ body: @escaping @Sendable () throws -> Void) -> Task<Void, any Error> {
    let (stream, continuation) = AsyncStream<(any Error)?>.makeStream()
    let box = Unmanaged.passRetained(
        Box {
            do {
                try body()
                continuation.yield(nil)
            } catch {
                continuation.yield(error)
            }
            continuation.finish()
        })
    var thread = pthread_t()
    pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
    pthread_detach(thread)
    return Task {
        for await error in stream { if let error { throw error } }
    }
}

final class Box: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// A viewer event with its bytes copied (a part's bytes live only during the call).
enum RecordedEvent: Sendable {
    case opened
    case message([UInt8])
    case part([UInt8], first: Bool, last: Bool)
    case closed(code: UInt16?, reason: String)
}

/// The events of one viewer connection, awaited in order.
final class EventLog: Sendable {
    let stream: AsyncStream<RecordedEvent>
    let continuation: AsyncStream<RecordedEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    var handler: @Sendable (ViewerEvent) -> Void {
        { [continuation] event in
            switch event {
            case .opened: continuation.yield(.opened)
            case .message(let bytes): continuation.yield(.message(bytes))
            case .part(let bytes, let first, let last):
                continuation.yield(.part(Array(bytes), first: first, last: last))
            case .closed(let code, let reason): continuation.yield(.closed(code: code, reason: reason))
            }
        }
    }

    /// The next events, or a failure after a few seconds without them.
    func next(_ count: Int) async throws -> [RecordedEvent] {
        let stream = self.stream
        return try await withThrowingTaskGroup(of: [RecordedEvent].self) { group in
            group.addTask {
                var events: [RecordedEvent] = []
                for await event in stream {
                    events.append(event)
                    if events.count == count { break }
                }
                return events
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                throw HarnessError("events did not arrive in time")
            }
            let events = try await group.next()!
            group.cancelAll()
            return events
        }
    }
}

@Suite("plan-load: plain-socket viewer connections")
struct ViewerSocketsTests {
    @Test("the accept value is RFC 6455's for its sample key")
    func acceptValue() {
        #expect(ScriptedServer.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("frames split across reads, 16- and 64-bit lengths, fragments in pieces, pings and a close with its code")
    func framing() async throws {
        let server = try ScriptedServer()
        let sockets = try ViewerSockets()
        defer { sockets.stop() }
        let log = EventLog()
        let endpoint = try #require(ClientTransport.Endpoint(url: "ws://127.0.0.1:\(server.port)/ws"))
        let id = sockets.reserveConnectionID()
        sockets.send(Array("early".utf8), on: id)  // before connect: there is no such connection yet
        let large = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let medium = [UInt8](repeating: 0x61, count: 300)
        // The upgrade is answered only once the client has queued its hello.
        let helloQueued = DispatchSemaphore(value: 0)
        let script = onThread {
            let key = try server.acceptUpgrade()
            helloQueued.wait()
            try server.write(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: \(ScriptedServer.accept(for: key))\r\n\r\n")
            // What the client sent once open.
            let hello = try server.readFrame()
            guard hello.opcode == 1, hello.payload == Array("hello".utf8) else {
                throw HarnessError("expected the client's hello, got \(hello)")
            }
            // One small frame in two writes, header apart from payload.
            let small = ScriptedServer.frame(opcode: 1, Array("one".utf8))
            try server.write(Array(small[0..<1]))
            try server.awaitClientRead()
            try server.write(Array(small[1...]))
            // A 16-bit length and, in the same write, a message in three fragments (the middle
            // one over 64 KiB, with a 64-bit length).
            try server.write(
                ScriptedServer.frame(opcode: 1, medium)
                    + ScriptedServer.frame(fin: false, opcode: 1, Array(large[0..<1000]))
                    + ScriptedServer.frame(fin: false, opcode: 0, Array(large[1000..<67_000]))
                    + ScriptedServer.frame(opcode: 0, Array(large[67_000...])))
            // A ping is answered with a masked pong carrying the same bytes.
            try server.write(ScriptedServer.frame(opcode: 9, Array("p!".utf8)))
            let pong = try server.readFrame()
            guard pong.opcode == 10, pong.payload == Array("p!".utf8) else {
                throw HarnessError("expected a pong, got \(pong)")
            }
            try server.write(ScriptedServer.frame(opcode: 8, [0x0F, 0xA1] + Array("bye".utf8)))
            let close = try server.readFrame()
            guard close.opcode == 8, close.payload == [0x0F, 0xA1] else {
                throw HarnessError("expected the close echoed, got \(close)")
            }
        }
        sockets.connect(id, to: endpoint, handler: log.handler)
        // Sent while the upgrade is still under way: held, then written once the socket is open.
        sockets.send(Array("hello".utf8), on: id)
        helloQueued.signal()
        guard case .opened = try await log.next(1)[0] else { throw HarnessError("not opened first") }
        let events = try await log.next(6)
        try await script.value
        guard case .message(let one) = events[0], case .message(let second) = events[1],
            case .part(let start, true, false) = events[2], case .part(let middle, false, false) = events[3],
            case .part(let end, false, true) = events[4], case .closed(let code, let reason) = events[5]
        else { throw HarnessError("unexpected events \(events)") }
        #expect(one == Array("one".utf8))
        #expect(second == medium)
        // The fragmented message comes in its pieces, in order, never joined.
        #expect(start.count == 1000 && middle.count == 66_000)
        #expect(start + middle + end == large)
        #expect(code == 4001 && reason == "bye")
    }

    @Test("a refused upgrade and a wrong accept value close the connection with the reason")
    func refusedUpgrade() async throws {
        for answer in ["HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", nil] {
            let server = try ScriptedServer()
            let sockets = try ViewerSockets()
            defer { sockets.stop() }
            let log = EventLog()
            let script = onThread {
                _ = try server.acceptUpgrade()
                try server.write(
                    answer
                        ?? "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: \(ScriptedServer.accept(for: "c29tZXRoaW5nIGVsc2U="))\r\n\r\n")
            }
            let endpoint = try #require(ClientTransport.Endpoint(url: "ws://127.0.0.1:\(server.port)/ws"))
            sockets.connect(sockets.reserveConnectionID(), to: endpoint, handler: log.handler)
            let events = try await log.next(1)
            try await script.value
            guard case .closed(let code, let reason) = events[0] else { throw HarnessError("not closed: \(events)") }
            #expect(code == nil)
            #expect(reason.hasPrefix("upgrade refused: HTTP/1.1 \(answer == nil ? "101" : "403")"))
        }
    }

    @Test("a server that accepts but never answers the upgrade: closed after the upgrade timeout")
    func upgradeTimeout() async throws {
        let server = try ScriptedServer()
        let sockets = try ViewerSockets(upgradeTimeout: .milliseconds(400))
        defer { sockets.stop() }
        let log = EventLog()
        let script = onThread { _ = try server.acceptUpgrade() }  // and then silence
        let endpoint = try #require(ClientTransport.Endpoint(url: "ws://127.0.0.1:\(server.port)/ws"))
        let started = ContinuousClock.now
        sockets.connect(sockets.reserveConnectionID(), to: endpoint, handler: log.handler)
        guard case .closed(nil, let reason) = try await log.next(1)[0] else { throw HarnessError("not closed") }
        try await script.value
        #expect(reason == "no WebSocket upgrade in time")
        #expect(ContinuousClock.now - started >= .milliseconds(400))
    }

    @Test(
        "frames that break RFC 6455 close the connection with 1002, an oversized one with 1009",
        arguments: [
            ([0x81, 0x82, 1, 2, 3, 4, 0x61, 0x62], 1002),  // masked by the server
            ([0xC1, 0x01, 0x61], 1002),  // a reserved bit
            ([0x09, 0x00], 1002),  // a ping without FIN
            ([0x89, 0x7E, 0x00, 0x80] + [UInt8](repeating: 0, count: 128), 1002),  // a 128-byte ping
            ([0x83, 0x00], 1002),  // opcode 3
            ([0x81, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], 1002),  // a 64-bit length with the top bit
            ([0x81, 0x7F, 0, 0, 0, 0, 0x40, 0, 0, 0], 1009),  // 1 GiB
        ] as [([UInt8], Int)])
    func framingViolations(frame: [UInt8], code: Int) async throws {
        let server = try ScriptedServer()
        let sockets = try ViewerSockets()
        defer { sockets.stop() }
        let log = EventLog()
        let script = onThread {
            let key = try server.acceptUpgrade()
            try server.write(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: \(ScriptedServer.accept(for: key))\r\n\r\n")
            try server.write(frame)
        }
        let endpoint = try #require(ClientTransport.Endpoint(url: "ws://127.0.0.1:\(server.port)/ws"))
        sockets.connect(sockets.reserveConnectionID(), to: endpoint, handler: log.handler)
        let events = try await log.next(2)
        try await script.value
        guard case .opened = events[0], case .closed(let received, _) = events[1] else {
            throw HarnessError("unexpected events \(events)")
        }
        #expect(received.map(Int.init) == code)
    }

    @Test("nothing listening: the connection closes with the reason")
    func refusedConnection() async throws {
        let server = try ScriptedServer()
        let port = server.port
        server.stopListening()
        let sockets = try ViewerSockets()
        defer { sockets.stop() }
        let log = EventLog()
        let endpoint = try #require(ClientTransport.Endpoint(url: "ws://127.0.0.1:\(port)/ws"))
        sockets.connect(sockets.reserveConnectionID(), to: endpoint, handler: log.handler)
        guard case .closed(nil, let reason) = try await log.next(1)[0] else { throw HarnessError("not closed") }
        #expect(reason.contains("refused"))
    }
}
