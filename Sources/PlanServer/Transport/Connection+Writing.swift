import COpenSSL
import Glibc
import PlanProtocol
import WebSocketWire

/// A frame, or one fragment of a large message, being written: a header of its own (for a
/// fragment; empty when the buffer's frame carries its header) and a span of the buffer.
struct FrameWrite {
    let buffer: OutgoingBuffer
    let header: [UInt8]
    let body: UnsafeRawBufferPointer
    /// Bytes of header and body written so far.
    var sent = 0

    var total: Int { header.count + body.count }
}

extension Connection {
    /// Messages up to this size go out whole, and small ones waiting together as one frame (a
    /// JSON array); a larger one goes in fragments of this size, straight from the shared
    /// buffer, so that control frames (pongs, a close) can pass between them.
    static let fragmentSize = 65536

    /// At most this much is written to one connection per call of `flush`; the rest follows in
    /// a later round, so that a large snapshot to a thousand viewers does not keep the thread from
    /// the others (and from accepting and reading) until each socket is full. (1 MiB: the storm of
    /// `ops/bench` took 9 s with 64 KiB per turn, 5.9–7.0 s with 1 MiB, 6.9–7.6 s without a bound.)
    static let bytesPerTurn = 16 * fragmentSize

    /// Writes what is queued until the socket would block, nothing is left or the turn is used
    /// up (then the connection is written again in the next round). Returns false when the
    /// connection ended.
    @discardableResult
    func flush() -> Bool {
        var written = 0
        while !dropped {
            guard written < Connection.bytesPerTurn else {
                loop.writeLater(self)
                return true
            }
            if sending == nil {
                guard let next = nextWrite() else { break }
                sending = next
            }
            guard var write = sending else { break }
            let more = !control.isEmpty || !queue.isEmpty || fragmenting != nil
            let result: ChannelResult
            if write.sent < write.header.count {
                result = channel.write(header: write.header, from: write.sent, body: write.body, more: more)
            } else {
                result = channel.write(
                    UnsafeRawBufferPointer(rebasing: write.body[(write.sent - write.header.count)...]), more: more)
            }
            switch result {
            case .moved(let count):
                written += count
                write.sent += count
                sending = write.sent < write.total ? write : nil
                if sending == nil { lastWrite = ServiceLoop.now() }
            case .wouldBlock:
                loop.setWriteInterest(self, true)
                return true
            case .closed:
                loop.drop(self)
                return false
            }
        }
        guard !dropped else { return false }
        if writeInterest && !readNeedsWritable && phase != .tlsHandshake { loop.setWriteInterest(self, false) }
        return finishIfDone()
    }

    /// The next write: control frames first, then the next fragment of a large message, then
    /// queued data (small messages batched), then a pending close.
    private func nextWrite() -> FrameWrite? {
        if let waiting = pong {
            pong = nil
            return whole(waiting)
        }
        if !control.isEmpty { return whole(control.removeFirst()) }
        if closeQueued { return nil }  // nothing follows a close frame
        if let (buffer, offset) = fragmenting { return fragment(of: buffer, at: offset) }
        if !queue.isEmpty {
            let taken = Connection.batchLength(queue.lazy.map(\.count))
            let batch = taken > 1 ? Array(queue.prefix(taken)) : [queue[0]]
            let bytes = batch.reduce(0) { $0 + $1.count }
            queue.removeFirst(batch.count)
            queuedBytes -= bytes
            loop.queuedBytesDelta -= bytes
            if batch.count == 1, batch[0].count > Connection.fragmentSize { return fragment(of: batch[0], at: 0) }
            return whole(batch.count == 1 ? batch[0] : loop.joined(batch))
        }
        if let (code, reason) = pendingClose {
            queueClose(code, reason)
            return control.isEmpty ? nil : whole(control.removeFirst())
        }
        return nil
    }

    /// How many of the queued messages (their sizes, in order) go out together as one frame:
    /// small ones, up to one fragment's size in all. A joined frame is a copy of its own (unless
    /// the same batch went to another connection just before), so a connection that resumes with
    /// thousands of messages queued must not copy them all at once (after a cut, a thousand
    /// resuming viewers held 1.6 GB of such copies). 0 or 1: the first goes alone.
    static func batchLength(_ sizes: some Sequence<Int>) -> Int {
        var total = 0
        var count = 0
        for size in sizes {
            total += size
            guard size <= fragmentSize, total <= fragmentSize else { break }
            count += 1
        }
        return count
    }

    private func whole(_ buffer: OutgoingBuffer) -> FrameWrite {
        FrameWrite(buffer: buffer, header: [], body: buffer.frame)
    }

    /// The fragment of a large message's payload that starts at `offset`.
    private func fragment(of buffer: OutgoingBuffer, at offset: Int) -> FrameWrite {
        let end = min(offset + Connection.fragmentSize, buffer.count)
        let final = end == buffer.count
        fragmenting = final ? nil : (buffer, end)
        let header = FrameHeader.make(opcode: offset == 0 ? .text : .continuation, length: end - offset, final: final)
        return FrameWrite(
            buffer: buffer, header: header, body: UnsafeRawBufferPointer(rebasing: buffer.payload[offset..<end]))
    }

    /// After everything was written: a plain HTTP answer ends the connection; our close frame
    /// waits for the peer's (shutting our side, for at most the close deadline); an echoed close
    /// ends it.
    private func finishIfDone() -> Bool {
        switch phase {
        case .httpResponse:
            // Closing with unread request bytes would reset the connection and could destroy the
            // answer in flight: our side ends, what the client still sends is read and dropped
            // until it closes (2 s at most).
            if peerClosed {
                loop.drop(self)
                return false
            }
            endOurSide()
            loop.setDeadline(self, seconds: 2)
            return true
        case .closing where closeQueued && control.isEmpty && sending == nil:
            loop.reportClosed(self)
            if peerClosed {
                loop.drop(self)
                return false
            }
            endOurSide()
            return true
        default:
            return true
        }
    }

    /// Ends our direction: TLS's close_notify (so the peer sees a clean end, not a truncation),
    /// or a TCP half-close.
    private func endOurSide() {
        if let tls = channel.tls {
            _ = SSL_shutdown(tls)
        } else {
            shutdown(fd, Int32(SHUT_WR))
        }
    }
}
