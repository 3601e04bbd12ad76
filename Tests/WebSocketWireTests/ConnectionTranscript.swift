@testable import WebSocketWire

/// A `ServerConnection` driven the way the service loop drives it, with a pretend socket: bytes
/// received, writes taken up to a capacity (the rest "would block"), and the time set by hand.
/// Tests read it as a transcript: event in, actions out, bytes on the wire.
struct ConnectionTranscript {
    var connection: ServerConnection
    /// Monotonic nanoseconds.
    var now: UInt64 = 1_000_000_000
    /// Everything written to the pretend socket so far.
    var wire: [UInt8] = []
    static let second: UInt64 = 1_000_000_000

    init(
        configure: (inout ServerConnection.Configuration) -> Void = { _ in }, ledger: QueueLedger = QueueLedger()
    ) {
        var configuration = ServerConnection.Configuration()
        configuration.frameInterval = 0
        configure(&configuration)
        connection = ServerConnection(settings: .init(configuration), ledger: ledger, now: 1_000_000_000)
    }

    static let upgrade =
        "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    /// A connection past its upgrade, the 101 taken off the wire.
    static func open(
        configure: (inout ServerConnection.Configuration) -> Void = { _ in }, ledger: QueueLedger = QueueLedger()
    ) -> ConnectionTranscript {
        var transcript = ConnectionTranscript(configure: configure, ledger: ledger)
        _ = transcript.receive(upgrade)
        _ = transcript.write()
        transcript.wire = []
        return transcript
    }

    mutating func advance(seconds: Double) {
        now += UInt64(seconds * 1e9)
    }

    mutating func receive(_ text: String) -> [ServerConnectionAction] {
        receive(Array(text.utf8))
    }

    mutating func receive(_ bytes: [UInt8], deliveries: Int = .max) -> [ServerConnectionAction] {
        let now = self.now
        return bytes.withUnsafeBytes { connection.received($0, now: now, deliveries: deliveries) }
    }

    /// Writes as the loop does until nothing waits or `capacity` bytes went (then the socket
    /// "would block"); returns the actions of `drained` when everything went.
    mutating func write(capacity: Int = .max) -> [ServerConnectionAction] {
        var room = capacity
        while let write = connection.nextWrite(now: now, join: { OutgoingBuffer(joining: $0, with: Self.batching) }) {
            let pending =
                Array(write.header[min(write.sent, write.header.count)...])
                + Array(write.body[max(0, write.sent - write.header.count)...])
            guard room > 0 else {
                connection.blocked()
                return []
            }
            let taken = min(room, pending.count)
            wire += pending.prefix(taken)
            room -= taken
            connection.wrote(taken, now: now)
        }
        return connection.drained(now: now)
    }

    static let batching = MessageBatching(open: "[", separator: ",", close: "]")

    /// The wire read as server frames: opcode, fin and payload (fragments as they are).
    var frames: [(opcode: UInt8, fin: Bool, payload: [UInt8])] {
        var frames: [(UInt8, Bool, [UInt8])] = []
        var index = 0
        // Skip an HTTP head if the wire starts with one.
        if wire.starts(with: Array("HTTP/".utf8)) { return [] }
        while index + 2 <= wire.count {
            let first = wire[index]
            var length = Int(wire[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                length = Int(wire[index + 2]) << 8 | Int(wire[index + 3])
                start = index + 4
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(wire[index + 2 + $1]) }
                start = index + 10
            }
            guard start + length <= wire.count else { break }
            frames.append((first & 0x0F, first & 0x80 != 0, Array(wire[start..<start + length])))
            index = start + length
        }
        return frames
    }

    var text: String { String(decoding: wire, as: UTF8.self) }
}

/// A client's masked frame.
func maskedFrame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
    ClientFrame.make(opcode: opcode, payload, final: final)
}

func maskedText(_ text: String) -> [UInt8] {
    maskedFrame(1, Array(text.utf8))
}
