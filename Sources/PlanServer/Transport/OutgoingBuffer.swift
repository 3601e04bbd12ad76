import CWebSockets
import PlanProtocol

/// Immutable message bytes with the headroom lws needs in front, encoded once and queued to any
/// number of connections. Only the transport's service thread writes through it (lws puts the
/// frame header into the headroom), one connection at a time.
public final class OutgoingBuffer: @unchecked Sendable {
    /// The headroom in front of the payload (`LWS_PRE`).
    static let headroom = Int(cs_lws_pre())

    let storage: UnsafeMutableRawPointer
    /// The payload length in bytes.
    public let count: Int

    /// Copies `payload` into a new buffer with headroom.
    public init(_ payload: some Collection<UInt8>) {
        count = payload.count
        storage = UnsafeMutableRawPointer.allocate(byteCount: OutgoingBuffer.headroom + max(count, 1), alignment: 16)
        let target = UnsafeMutableRawBufferPointer(start: storage + OutgoingBuffer.headroom, count: count)
        _ = target.initializeMemory(as: UInt8.self, from: payload)
    }

    /// A buffer holding several messages as one JSON array frame: `[m1,m2,…]`.
    convenience init(batching messages: [OutgoingBuffer]) {
        self.init(ServerMessage.frame(joining: messages.map(\.payload)))
    }

    deinit {
        storage.deallocate()
    }

    /// The payload bytes.
    public var payload: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + OutgoingBuffer.headroom, count: count)
    }

    /// Where lws may write (headroom included) and the payload starts.
    var payloadPointer: UnsafeMutablePointer<UInt8> {
        (storage + OutgoingBuffer.headroom).assumingMemoryBound(to: UInt8.self)
    }
}
