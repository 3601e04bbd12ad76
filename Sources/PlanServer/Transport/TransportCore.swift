import CWebSockets
import Glibc
import PlanProtocol
import WebSocketWire

/// The state only one service thread touches: its connection slots, its lws context, the
/// protocol table. Reached from lws callbacks through the context's user pointer.
final class TransportCore {
    /// One WebSocket or HTTP connection.
    final class Slot {
        let id: ConnectionID
        let wsi: OpaquePointer
        var queue: [OutgoingBuffer] = []
        var queuedBytes = 0
        var receiving: [UInt8] = []
        var pendingClose: (CloseCode, String)?
        var closedWith: (CloseCode, String)?
        /// When the last frame was written (monotonic nanoseconds), and whether the slot waits in
        /// the coalescing list for its next write.
        var lastWrite: UInt64 = 0
        var awaitingFlush = false
        /// A large message being written fragment by fragment, and how far it got.
        var sending: (buffer: OutgoingBuffer, offset: Int)?
        var httpResponse: HTTPResponse?

        init(id: ConnectionID, wsi: OpaquePointer) {
            self.id = id
            self.wsi = wsi
        }
    }

    let transport: WebSocketTransport
    let shard: WebSocketTransport.Shard
    var slots: [UInt64: Slot] = [:]
    /// The last connection id given out (at first the thread's index): ids of this thread are
    /// `index + serviceThreads`, then every `serviceThreads` further (`id % serviceThreads` names
    /// the thread, and no id is 0).
    var nextID: UInt64
    let idStride: UInt64
    var acceptingConnections = true
    private var context: OpaquePointer?
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var cStrings: [UnsafeMutablePointer<CChar>] = []

    /// `--frame-interval-ms` in nanoseconds (the configuration never changes).
    let frameIntervalNanoseconds: UInt64

    init(transport: WebSocketTransport, shard: WebSocketTransport.Shard) {
        self.transport = transport
        self.shard = shard
        idStride = UInt64(transport.shards.count)
        nextID = UInt64(shard.index)
        let interval = transport.configuration.frameInterval
        frameIntervalNanoseconds =
            UInt64(interval.components.seconds) * 1_000_000_000
            + UInt64(interval.components.attoseconds / 1_000_000_000)
    }

    deinit {
        for string in cStrings { free(string) }
        cs_free_protocols(protocols)
    }

    private func keep(_ string: String) -> UnsafeMutablePointer<CChar> {
        let pointer = strdup(string)!
        cStrings.append(pointer)
        return pointer
    }

    /// Creates the context (binding `port`) on the calling thread.
    func createContext(port: Int) throws(TransportError) -> ContextHandle {
        cs_lws_log_errors_only()
        let configuration = transport.configuration
        // Protocol 0 serves plain HTTP and WebSocket clients without a subprotocol, too.
        let table = cs_make_protocols("chronosketch.v1", transportCallback, MemoryLayout<UInt64>.size, 65536)
        protocols = table

        var info = lws_context_creation_info()
        info.port = Int32(port)
        info.iface = UnsafePointer(keep(configuration.host))
        info.protocols = UnsafePointer(table)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = cs_option_disable_ipv6()
        info.ka_time = 0
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            info.options |= cs_option_ssl_global_init()
            info.ssl_cert_filepath = UnsafePointer(keep(certificate))
            info.ssl_private_key_filepath = UnsafePointer(keep(key))
        }
        guard let created = lws_create_context(&info) else {
            throw TransportError(message: "cannot listen on \(configuration.host):\(port)")
        }
        context = created
        return ContextHandle(pointer: created)
    }

    func serviceLoop() {
        while !transport.stopping.load(ordering: .acquiring) {
            if lws_service(context, 0) < 0 { break }
        }
        shard.context.withLock { $0 = nil }
        lws_context_destroy(context)
        context = nil
        // Connections handed over after the last drain were never adopted: close them.
        let left = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        for case .adopt(let fd) in left { close(fd) }
    }

    // MARK: Callbacks

    func handle(
        wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
        data: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            return acceptingConnections ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            guard let wsi, let user else { return -1 }
            let id = takeID()
            user.storeBytes(of: id, as: UInt64.self)
            slots[id] = Slot(id: ConnectionID(id), wsi: wsi)
            transport.openConnectionCount.wrappingAdd(1, ordering: .releasing)
            transport.onEvent(.opened(ConnectionID(id), address: peerAddress(wsi)))
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let slot = slot(for: user) else { return -1 }
            return receive(slot, data: data, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let slot = slot(for: user) else { return -1 }
            return write(slot)
        case LWS_CALLBACK_CLOSED:
            if let slot = slot(for: user) { forget(slot) }
            return 0
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            guard let slot = slot(for: user) else { return 0 }
            // A valid close frame is echoed by lws; a malformed one is answered with our code.
            guard let problem = CloseFrame.problem(in: UnsafeRawBufferPointer(start: data, count: length)),
                let code = CloseCode(rawValue: problem)
            else { return 0 }
            return closeNow(slot, code, code == .protocolError ? "invalid close frame" : "invalid UTF-8")

        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainOutbox()
            flushCoalesced()
            return 0
        case LWS_CALLBACK_HTTP:
            guard let wsi else { return -1 }
            let path = data.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return respondHTTP(wsi: wsi, user: user, path: path)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard let slot = slot(for: user), let response = slot.httpResponse else { return -1 }
            return finishHTTP(slot, response)
        case LWS_CALLBACK_CLOSED_HTTP:
            if let user, let slot = slots[user.load(as: UInt64.self)], slot.httpResponse != nil {
                slots[slot.id.rawValue] = nil
            }
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
    }

    /// A new connection id of this thread.
    func takeID() -> UInt64 {
        nextID &+= idStride
        return nextID
    }

    private func slot(for user: UnsafeMutableRawPointer?) -> Slot? {
        guard let user else { return nil }
        return slots[user.load(as: UInt64.self)]
    }

    private func forget(_ slot: Slot) {
        slots[slot.id.rawValue] = nil
        transport.queuedBytesTotal.wrappingAdd(-slot.queuedBytes, ordering: .relaxed)
        slot.queue = []
        slot.sending = nil
        transport.openConnectionCount.wrappingAdd(-1, ordering: .releasing)
        let closing = slot.closedWith ?? slot.pendingClose
        transport.onEvent(.closed(slot.id, code: closing?.0, reason: closing?.1))
    }

    private func receive(_ slot: Slot, data: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard slot.pendingClose == nil else { return 0 }
        let limit = transport.configuration.maxMessageBytes
        let remaining = UInt(bitPattern: lws_remaining_packet_payload(slot.wsi))
        guard IncomingMessage.fits(received: slot.receiving.count, chunk: length, remaining: remaining, limit: limit)
        else {
            return closeNow(slot, .messageTooBig, "message larger than \(limit) bytes")
        }
        if let data, length > 0 {
            slot.receiving.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        }
        // Complete when the final fragment's last chunk arrived (large frames come in chunks).
        guard lws_is_final_fragment(slot.wsi) == 1 else { return 0 }
        let message = slot.receiving
        slot.receiving = []
        if lws_frame_is_binary(slot.wsi) == 1 {
            transport.onEvent(.binaryMessage(slot.id))
        } else {
            transport.onEvent(.message(slot.id, message))
        }
        return 0
    }

    /// Messages up to this size go out in one write straight from the shared buffer; larger
    /// ones (a big snapshot) go out in fragments of this size, one per writable callback, so
    /// that lws never copies more than one fragment per connection into its own buffers.
    static let fragmentSize = 65536

    private func write(_ slot: Slot) -> Int32 {
        if slot.sending == nil {
            if slot.queue.isEmpty, let (code, reason) = slot.pendingClose {
                return closeNow(slot, code, reason)
            }
            guard !slot.queue.isEmpty else { return 0 }
            // Small messages waiting together go out as one frame (a JSON array); a large one goes
            // alone, so that it is never copied per connection.
            let taken = slot.queue.prefix { $0.count <= TransportCore.fragmentSize }.count
            let batch = taken > 1 ? Array(slot.queue.prefix(taken)) : [slot.queue[0]]
            let buffer = batch.count == 1 ? batch[0] : joined(batch)
            let bytes = batch.reduce(0) { $0 + $1.count }
            transport.queuedBytesTotal.wrappingAdd(-bytes, ordering: .relaxed)
            slot.queue.removeFirst(batch.count)
            slot.queuedBytes -= bytes
            slot.lastWrite = TransportCore.now()
            if buffer.count <= TransportCore.fragmentSize {
                guard lws_write(slot.wsi, buffer.payloadPointer, buffer.count, LWS_WRITE_TEXT) >= 0 else { return -1 }
                if !slot.queue.isEmpty || slot.pendingClose != nil { lws_callback_on_writable(slot.wsi) }
                return 0
            }
            slot.sending = (buffer, 0)
        }
        guard let (buffer, offset) = slot.sending else { return 0 }
        let length = min(TransportCore.fragmentSize, buffer.count - offset)
        let isLast = offset + length == buffer.count
        // The shared buffer's bytes before a fragment are payload, not headroom: copy the
        // fragment behind headroom of its own.
        let headroom = OutgoingBuffer.headroom
        if fragmentScratch.count < headroom + length {
            fragmentScratch = [UInt8](repeating: 0, count: headroom + TransportCore.fragmentSize)
        }
        let flags = lws_write_ws_flags(Int32(LWS_WRITE_TEXT.rawValue), offset == 0 ? 1 : 0, isLast ? 1 : 0)
        let written = fragmentScratch.withUnsafeMutableBufferPointer { scratch -> Int32 in
            (scratch.baseAddress! + headroom).update(from: buffer.payloadPointer + offset, count: length)
            return lws_write(slot.wsi, scratch.baseAddress! + headroom, length, lws_write_protocol(UInt32(flags)))
        }
        guard written >= 0 else { return -1 }
        slot.sending = isLast ? nil : (buffer, offset + length)
        slot.lastWrite = TransportCore.now()
        if slot.sending != nil || !slot.queue.isEmpty || slot.pendingClose != nil {
            lws_callback_on_writable(slot.wsi)
        }
        return 0
    }

    /// Array frames built lately, with the messages they join: connections of one plan mostly
    /// hold the same broadcasts when their turn comes, so one join serves thousands of writes.
    private var recentBatches: [(parts: [OutgoingBuffer], frame: OutgoingBuffer)] = []

    /// The array frame of `parts`, reused when the same messages were joined lately.
    private func joined(_ parts: [OutgoingBuffer]) -> OutgoingBuffer {
        if let hit = recentBatches.first(where: { entry in
            entry.parts.count == parts.count && zip(entry.parts, parts).allSatisfy { $0 === $1 }
        }) {
            return hit.frame
        }
        let frame = OutgoingBuffer(batching: parts)
        recentBatches.append((parts, frame))
        if recentBatches.count > 8 { recentBatches.removeFirst() }
        return frame
    }

    /// One fragment with headroom, reused for every fragmented write (service thread only).
    private var fragmentScratch: [UInt8] = []

    private func closeNow(_ slot: Slot, _ code: CloseCode, _ reason: String) -> Int32 {
        slot.closedWith = (code, reason)
        var bytes = Array(reason.utf8.prefix(120))
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(slot.wsi, lws_close_status(UInt32(code.rawValue)), buffer.baseAddress, buffer.count)
        }
        return -1
    }

    /// Slots whose broadcasts wait for the frame interval, flushed by `flushCoalesced`.
    private var coalescing: [Slot] = []

    /// At most this many coalesced connections are released per service round: thousands of
    /// frames in one round would keep direct answers (acks) waiting behind them.
    static let releasePerRound = 1500

    /// Asks for a write on the coalescing slots whose interval is over, up to
    /// `releasePerRound`; when more are due, wakes the service loop again for the next round.
    private func flushCoalesced() {
        guard !coalescing.isEmpty else { return }
        let intervalNanoseconds = frameIntervalNanoseconds
        let now = TransportCore.now()
        var released = 0
        var moreDue = false
        coalescing.removeAll { slot in
            let gone = slots[slot.id.rawValue] == nil
            guard gone || now >= slot.lastWrite + intervalNanoseconds else { return false }
            if !gone {
                guard released < TransportCore.releasePerRound else {
                    moreDue = true
                    return false
                }
                released += 1
                lws_callback_on_writable(slot.wsi)
            }
            slot.awaitingFlush = false
            return true
        }
        shard.coalescingCount.store(coalescing.count, ordering: .relaxed)
        if moreDue, let context { lws_cancel_service(context) }
    }

    /// Closes after what is queued was written, with the close frame; a socket that does not
    /// become writable within 5 s (a peer that stopped reading) is closed by lws regardless.
    private func closeSoon(_ slot: Slot, _ code: CloseCode, _ reason: String) {
        slot.pendingClose = (code, reason)
        lws_set_timeout(slot.wsi, PENDING_TIMEOUT_CLOSE_SEND, 5)
    }

    private func drainOutbox() {
        let commands = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        let cap = transport.configuration.maxQueueBytes
        let intervalNanoseconds = frameIntervalNanoseconds
        let now = TransportCore.now()
        // Queued bytes change by this much (one atomic update for the whole drain).
        var queuedDelta = 0
        defer { transport.queuedBytesTotal.wrappingAdd(queuedDelta, ordering: .relaxed) }
        // Slots with direct answers (or a small audience's broadcasts), and the last command that
        // gave them one: written at the end of the drain, all they hold in one frame each.
        var writeNow: [UInt64: (slot: Slot, last: Int)] = [:]
        defer { write(writeNow.values.sorted { $0.last < $1.last }.map(\.slot)) }
        for (commandIndex, command) in commands.enumerated() {
            switch command {
            case .adopt(let fd):
                // lws closes the descriptor itself when it cannot adopt it.
                if acceptingConnections { _ = lws_adopt_socket(context, fd) } else { close(fd) }
            case .send(let buffer, let connections, let urgent):
                for connection in connections {
                    guard let slot = slots[connection.rawValue], slot.pendingClose == nil, slot.httpResponse == nil
                    else { continue }
                    // The first waiting message (a large snapshot, say) is always accepted; what
                    // piles up behind it may not pass the cap.
                    let behindFirst = slot.queuedBytes - (slot.queue.first?.count ?? 0)
                    if !slot.queue.isEmpty, behindFirst + buffer.count > cap {
                        // Too slow to keep up: release its queue now, close with 1013.
                        queuedDelta -= slot.queuedBytes
                        slot.queue = []
                        slot.queuedBytes = 0
                        closeSoon(slot, .tryAgainLater, "too slow to keep up")
                    } else {
                        slot.queue.append(buffer)
                        slot.queuedBytes += buffer.count
                        queuedDelta += buffer.count
                    }
                    if urgent, slot.pendingClose == nil {
                        writeNow[slot.id.rawValue] = (slot, commandIndex)
                    } else if slot.pendingClose != nil || intervalNanoseconds == 0
                        || now >= slot.lastWrite + intervalNanoseconds
                    {
                        lws_callback_on_writable(slot.wsi)
                    } else if !slot.awaitingFlush {
                        // Broadcasts gather until the interval since the last frame is over.
                        slot.awaitingFlush = true
                        coalescing.append(slot)
                    }
                }
            case .close(let connection, let code, let reason):
                guard let slot = slots[connection.rawValue], slot.httpResponse == nil else { continue }
                closeSoon(slot, code, reason)
                lws_callback_on_writable(slot.wsi)
            case .closeAll(let code, let reason):
                acceptingConnections = false
                for slot in slots.values where slot.httpResponse == nil {
                    closeSoon(slot, code, reason)
                    lws_callback_on_writable(slot.wsi)
                }
            }
        }
    }

    /// Writes these slots now where the socket takes it without blocking, in this order (a
    /// connection that got only a broadcast before one that got the answer that followed it),
    /// instead of after the next poll's writes to thousands of coalesced subscribers; the others
    /// wait to be writable.
    private func write(_ urgent: [Slot]) {
        for slot in urgent where slots[slot.id.rawValue] != nil && slot.pendingClose == nil {
            if slot.sending == nil, lws_send_pipe_choked(slot.wsi) == 0 {
                if write(slot) < 0 { lws_set_timeout(slot.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC) }
            } else {
                lws_callback_on_writable(slot.wsi)
            }
        }
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// The one lws callback: finds the core through the context's user pointer.
private func transportCallback(
    wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
    data: UnsafeMutableRawPointer?, length: Int
) -> Int32 {
    guard let wsi, let contextUser = lws_context_user(lws_get_context(wsi)) else {
        return lws_callback_http_dummy(wsi, reason, user, data, length)
    }
    let core = Unmanaged<TransportCore>.fromOpaque(contextUser).takeUnretainedValue()
    return core.handle(wsi: wsi, reason: reason, user: user, data: data, length: length)
}
