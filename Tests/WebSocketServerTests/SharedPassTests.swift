import CNetwork
import Glibc
import Testing
import WebSocketWire

@testable import WebSocketServer

/// Connections on socket pairs, each holding one queued broadcast, written by a `SharedPass` as
/// the service loop would: the loop's end of each pair is a slot, the other end the peer.
private final class PassScene {
    static let batching = MessageBatching(open: "[", separator: ",", close: "]")
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    var slots: [ConnectionSlot] = []
    var peers: [Int32] = []
    let message = OutgoingBuffer(Array(#"{"type":"confirmed","version":1}"#.utf8))

    init(connections: Int) throws {
        // Two descriptors a connection: past a default soft limit of 1,024 (the server raises it too).
        cn_raise_descriptor_limit()
        for index in 0..<connections {
            var pair: [Int32] = [0, 0]
            try #require(
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &pair) == 0)
            var machine = ServerConnection(
                settings: .init(ServerConnection.Configuration()), ledger: QueueLedger(), now: 1)
            let upgrade =
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            _ = Array(upgrade.utf8).withUnsafeBytes { machine.received($0, now: 1, deliveries: .max) }
            while let write = machine.nextWrite(now: 1, join: { OutgoingBuffer(joining: $0, with: Self.batching) }) {
                machine.wrote(write.total, now: 1)
            }
            _ = machine.drained(now: 1)
            _ = machine.send(message, urgent: false, now: 2)
            let slot = ConnectionSlot(
                id: ConnectionID(UInt64(index + 1)), fd: pair[0], tls: nil, address: "local", counted: false,
                machine: machine, registered: 0)
            slot.countedQueuedBytes = slot.machine.queuedBytes
            slot.awaitingWrite = true
            _ = cn_epoll_control(epoll, EPOLL_CTL_ADD, pair[0], 0, slot.id.rawValue)
            slots.append(slot)
            peers.append(pair[1])
        }
    }

    deinit {
        for slot in slots { close(slot.fd) }
        for peer in peers { close(peer) }
        close(epoll)
    }

    /// The bytes waiting at peer `index` (nonblocking: what was written before now).
    func received(by index: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(peers[index], $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// The frame every peer should get: a final text frame of the message.
    var expectedFrame: [UInt8] {
        let payload = Array(#"{"type":"confirmed","version":1}"#.utf8)
        return [0x81, UInt8(payload.count)] + payload
    }
}

@Suite("Transport: broadcast passes shared with write helpers")
struct SharedPassTests {
    @Test("helpers alone write a whole pass: every peer gets its frame once, nothing is handed back")
    func helpersWriteEverything() throws {
        let scene = try PassScene(connections: 1100)
        let pass = try SharedPass(helpers: 2, epoll: scene.epoll, batching: PassScene.batching)
        defer { pass.stop() }
        pass.begin(scene.slots)
        // The loop takes no chunk here: `finish` waits until the helpers took and wrote them all.
        pass.finish()
        for index in scene.slots.indices {
            #expect(scene.received(by: index) == scene.expectedFrame, "peer \(index)")
            #expect(scene.received(by: index).isEmpty, "peer \(index) got more")
            #expect(!scene.slots[index].awaitingWrite)
            #expect(scene.slots[index].machine.queuedBytes == 0)
        }
        let written = pass.helpers.reduce(0) { $0 - $1.queuedBytesDelta }
        #expect(written == scene.slots.count * scene.message.count)
        #expect(pass.helpers.reduce(0) { $0 + $1.written } == scene.slots.count)
        #expect(pass.helpers.allSatisfy { $0.later.isEmpty && $0.decided.isEmpty })
    }

    @Test("paused helpers take no chunk: the loop writes the pass alone, and helpers resume after")
    func pausedHelpersTakeNothing() throws {
        let scene = try PassScene(connections: 300)
        let pass = try SharedPass(helpers: 1, epoll: scene.epoll, batching: PassScene.batching)
        defer { pass.stop() }
        let loop = PassHelper(epoll: scene.epoll, batching: PassScene.batching)
        pass.pause()
        pass.begin(scene.slots)
        var chunks = 0
        while let chunk = pass.take() {
            chunks += 1
            #expect(chunk.count <= SharedPass.chunk)
            for slot in scene.slots[chunk] { loop.writeInPass(slot) }
        }
        pass.resume()
        pass.finish()
        #expect(chunks == (300 + SharedPass.chunk - 1) / SharedPass.chunk)
        #expect(pass.helpers[0].queuedBytesDelta == 0 && pass.helpers[0].written == 0)
        #expect(loop.queuedBytesDelta == -300 * scene.message.count)
        #expect(scene.received(by: 299) == scene.expectedFrame)
    }

    @Test("shared: a pass of 1,024 or more after 100 ms without a pass of 256 or more; not one of a steady stream")
    func whenShared() {
        let second: UInt64 = 1_000_000_000
        let (quiet, busy) = (second, second + 40_000_000)
        #expect(SharedPass.shares(1024, now: second + 100_000_000, lastBusyPass: quiet))
        #expect(SharedPass.shares(10_000, now: 5 * second, lastBusyPass: 0))
        #expect(!SharedPass.shares(1023, now: 5 * second, lastBusyPass: 0))
        #expect(!SharedPass.shares(10_000, now: second + 99_000_000, lastBusyPass: quiet))
        #expect(!SharedPass.shares(1500, now: busy + 60_000_000, lastBusyPass: busy))
    }

    @Test("a peer that is gone is handed back to the loop with its connection's decision to drop")
    func goneIsHandedBack() throws {
        let scene = try PassScene(connections: 200)
        let gone = Set([3, 64, 65, 199])
        for index in gone { shutdown(scene.peers[index], Int32(SHUT_RDWR)) }
        let pass = try SharedPass(helpers: 2, epoll: scene.epoll, batching: PassScene.batching)
        defer { pass.stop() }
        pass.begin(scene.slots)
        pass.finish()
        let decided = pass.helpers.flatMap(\.decided)
        #expect(Set(decided.map { Int($0.slot.id.rawValue) - 1 }) == gone)
        for entry in decided {
            #expect(entry.actions.contains { if case .drop = $0 { true } else { false } }, "\(entry.actions)")
        }
        #expect(scene.received(by: 0) == scene.expectedFrame)
        for helper in pass.helpers { helper.reset() }
        #expect(pass.helpers.allSatisfy { $0.decided.isEmpty && $0.queuedBytesDelta == 0 })
    }
}
