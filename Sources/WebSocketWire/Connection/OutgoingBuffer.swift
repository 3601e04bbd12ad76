import Glibc
import Synchronization

/// One WebSocket frame, encoded once and queued to any number of connections: the payload and,
/// right before it, its frame header, written when the buffer is made and never again. Sharing
/// it between connections and service threads is safe because nothing writes to it afterwards.
public final class OutgoingBuffer: @unchecked Sendable {
    /// Room before the payload for the longest frame header.
    static let headroom = FrameHeader.maxSize

    /// Buffers of this many bytes or more (batch frames are 64 KiB) get pages of their own, which
    /// go back to the system the moment the buffer is freed; from the heap, the space a burst of
    /// them left between live blocks stayed with the process (after a cut, tens of MB).
    static let ownPagesFrom = 64 * 1024

    private let storage: UnsafeMutableRawPointer
    /// The size of `storage`'s own pages (0: it came from the heap).
    private let mappedBytes: Int
    /// Where the frame (header, then payload) starts in `storage`.
    private let frameStart: Int
    /// The payload length in bytes.
    public let count: Int
    /// How many connection queues hold the buffer: what it costs is counted once in the
    /// transport's memory budget however many connections it was queued to (`QueueLedger`).
    let holders = Atomic<Int>(0)

    /// A text frame of `payload`.
    public convenience init(_ payload: some Collection<UInt8>) {
        self.init(payload, header: .text)
    }

    /// A frame of `opcode` with `payload` (control frames hold at most 125 bytes).
    public convenience init(_ payload: some Collection<UInt8>, opcode: FrameHeader.Opcode) {
        self.init(payload, header: opcode)
    }

    /// Bytes that go out as they are, without a frame header (an HTTP response).
    public convenience init(rawBytes: [UInt8]) {
        self.init(rawBytes, header: nil)
    }

    /// The payload with the header of a frame of `header`, or none.
    private init(_ payload: some Collection<UInt8>, header: FrameHeader.Opcode?) {
        let length = payload.count
        let byteCount = OutgoingBuffer.headroom + max(length, 1)
        let storage: UnsafeMutableRawPointer
        if byteCount >= OutgoingBuffer.ownPagesFrom,
            let pages = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pages != UnsafeMutableRawPointer(bitPattern: -1)
        {
            storage = pages
            mappedBytes = byteCount
        } else {
            storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
            mappedBytes = 0
        }
        let target = UnsafeMutableRawBufferPointer(start: storage + OutgoingBuffer.headroom, count: length)
        // One copy of contiguous bytes (arrays, array slices); byte by byte only for other collections.
        let copied: Void? = payload.withContiguousStorageIfAvailable { bytes in
            if let base = bytes.baseAddress { target.baseAddress?.copyMemory(from: base, byteCount: bytes.count) }
        }
        if copied == nil { _ = target.initializeMemory(as: UInt8.self, from: payload) }
        let payloadStart = (storage + OutgoingBuffer.headroom).assumingMemoryBound(to: UInt8.self)
        let headerSize = header.map { FrameHeader.write(opcode: $0, length: length, before: payloadStart) } ?? 0
        self.storage = storage
        count = length
        frameStart = OutgoingBuffer.headroom - headerSize
    }

    /// A text frame holding several messages as one, as `batching` joins them (`[m1,m2,…]`).
    public convenience init(joining messages: [OutgoingBuffer], with batching: MessageBatching) {
        self.init(batching.join(messages.map(\.payload)))
    }

    deinit {
        if mappedBytes > 0 { munmap(storage, mappedBytes) } else { storage.deallocate() }
    }

    /// The payload bytes.
    public var payload: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + OutgoingBuffer.headroom, count: count)
    }

    /// The whole frame as it goes on the wire: header and payload.
    public var frame: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + frameStart, count: OutgoingBuffer.headroom - frameStart + count)
    }
}

/// How several messages waiting for one connection travel as one text frame: the bytes before,
/// between and after them. The wire contract defines it (for JSON messages, an array).
public struct MessageBatching: Sendable {
    /// Before the first message.
    public let open: [UInt8]
    /// Between two messages.
    public let separator: [UInt8]
    /// After the last message.
    public let close: [UInt8]

    /// A batching with these bytes.
    public init(open: String, separator: String, close: String) {
        self.open = Array(open.utf8)
        self.separator = Array(separator.utf8)
        self.close = Array(close.utf8)
    }

    /// The frame payload of `messages`: the single message itself, or all of them joined.
    public func join(_ messages: [UnsafeRawBufferPointer]) -> [UInt8] {
        if messages.count == 1 { return Array(messages[0]) }
        var frame: [UInt8] = []
        let separators = separator.count * max(0, messages.count - 1)
        frame.reserveCapacity(messages.reduce(open.count + close.count + separators) { $0 + $1.count })
        frame += open
        for (index, message) in messages.enumerated() {
            if index > 0 { frame += separator }
            frame.append(contentsOf: message)
        }
        frame += close
        return frame
    }
}
