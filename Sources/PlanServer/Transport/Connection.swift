import CNetwork
import COpenSSL
import Glibc
import PlanProtocol
import WebSocketWire

/// One TCP connection of a service loop: its handshake, frames in, queued frames out, its close.
/// Decisions about bytes are made by `WebSocketWire`'s values; this class keeps the state and
/// performs the I/O. Service thread only.
final class Connection {
    enum Phase {
        /// The TLS handshake (wss://) is under way.
        case tlsHandshake
        /// Reading the HTTP request head.
        case requestHead
        /// An open WebSocket.
        case webSocket
        /// Writing a plain HTTP response (or a refusal); the connection ends after it.
        case httpResponse
        /// A close frame was sent or is queued: only the close handshake is left.
        case closing
    }

    let id: ConnectionID
    let fd: Int32
    let channel: Channel
    unowned let loop: ServiceLoop
    var phase: Phase
    let address: String
    /// Received bytes not yet used (a frame or head that is not complete).
    var input: [UInt8] = []
    var decoder: FrameDecoder
    /// Data frames waiting (shared buffers), and their payload bytes.
    var queue: [OutgoingBuffer] = []
    var queuedBytes = 0
    /// Control frames and raw HTTP bytes, written before the next data frame; the pong to the
    /// latest ping, if one waits, goes first.
    var control: [OutgoingBuffer] = []
    var pong: OutgoingBuffer?
    /// The frame (or fragment) being written and how far; a large message whose next fragment
    /// is still to come.
    var sending: FrameWrite?
    var fragmenting: (buffer: OutgoingBuffer, offset: Int)?
    /// Close after what is queued (the hub's close, shutdown): the code and reason.
    var pendingClose: (CloseCode, String)?
    /// Whether our close frame has been queued; whether the peer sent its own.
    var closeQueued = false
    var peerClosed = false
    /// The code the connection was closed with, for the hub's `closed` event.
    var closedWith: (CloseCode, String)?
    /// Whether the hub knows this connection (it was upgraded).
    var opened = false
    /// Whether EPOLLOUT is registered; whether a TLS read waits for the socket to be writable.
    var writeInterest = false
    var readNeedsWritable = false
    /// Whether reading waits for the hub to catch up; whether it ended (a half-closed peer that
    /// still reads an answer).
    var readPaused = false
    var readStopped = false
    /// When the last frame was written (monotonic nanoseconds); whether it waits in the
    /// coalescing list.
    var lastWrite: UInt64 = 0
    var awaitingFlush = false
    /// Whether it waits in the loop's list of connections to write after the next round.
    var awaitingWrite = false
    /// When the peer was last heard from (monotonic nanoseconds), and whether a ping waits for
    /// its answer.
    var lastHeard = ServiceLoop.now()
    var pingOutstanding = false
    /// A deadline (monotonic nanoseconds) for the handshake or the close; 0: none.
    var deadline: UInt64 = 0
    /// Whether the descriptor has been closed.
    var dropped = false

    init(id: ConnectionID, fd: Int32, tls: OpaquePointer?, loop: ServiceLoop, address: String, maxMessageBytes: Int) {
        self.id = id
        self.fd = fd
        channel = Channel(fd: fd, tls: tls)
        self.loop = loop
        self.address = address
        phase = tls == nil ? .requestHead : .tlsHandshake
        decoder = FrameDecoder(maxMessageBytes: maxMessageBytes)
    }

    // MARK: Reading

    /// The socket is readable (or reported an error): reads what is there, at most 256 KiB per
    /// call so that one busy peer does not hold the thread.
    func readable(despitePause: Bool = false) {
        if phase == .tlsHandshake {
            continueTLSHandshake()
            return
        }
        for _ in 0..<4 where !dropped {
            if phase == .webSocket, !despitePause, loop.transport.intakeIsFull {
                loop.pauseReading(self)
                return
            }
            let result = loop.scratch.withUnsafeMutableBytes { channel.read($0) }
            switch result {
            case .moved(let count):
                lastHeard = ServiceLoop.now()
                pingOutstanding = false
                loop.scratch.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .wouldBlock(let needsWritable):
                readNeedsWritable = needsWritable
                if needsWritable { loop.setWriteInterest(self, true) }
                return
            case .closed:
                peerGone()
                return
            }
        }
        // Plaintext OpenSSL already took off the socket raises no epoll event: come back for it.
        if !dropped, channel.hasBufferedInput { loop.readLater(self) }
    }

    private func continueTLSHandshake() {
        switch channel.acceptTLS() {
        case .moved:
            phase = .requestHead
            readable()
        case .wouldBlock(let needsWritable):
            readNeedsWritable = needsWritable
            loop.setWriteInterest(self, needsWritable)
        case .closed:
            loop.drop(self)
        }
    }

    /// Uses received bytes, keeping what does not complete a head or frame.
    private func consume(_ bytes: UnsafeRawBufferPointer) {
        if input.isEmpty {
            let used = process(bytes)
            if !dropped, used < bytes.count { input = Array(bytes[used...]) }
        } else {
            input.append(contentsOf: bytes)
            let used = input.withUnsafeBytes { process($0) }
            if !dropped { input.removeFirst(min(used, input.count)) }
        }
        if input.isEmpty && input.capacity > 0 { input = [] }
    }

    /// Handles the heads and frames at the start of `bytes`; returns how many bytes were used.
    private func process(_ bytes: UnsafeRawBufferPointer) -> Int {
        var used = 0
        while !dropped {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
            switch phase {
            case .tlsHandshake, .httpResponse:
                return bytes.count  // nothing more is read from a connection that is answered
            case .requestHead:
                switch HTTPRequestHead.parse(rest) {
                case .incomplete: return used
                case .invalid(let status, let reason):
                    respond(status: status, body: reason, extraHeaders: [])
                    return bytes.count
                case .complete(let head, let count):
                    used += count
                    handshake(head)
                }
            case .webSocket, .closing:
                switch decoder.step(rest) {
                case .needMore: return used
                case .consumed(let count): used += count
                case .event(let event, let count):
                    used += count
                    handle(event)
                case .fail(let code, let reason):
                    fail(CloseCode(rawValue: code) ?? .protocolError, reason)
                    return bytes.count
                }
            }
        }
        return bytes.count
    }

    private func handshake(_ head: HTTPRequestHead) {
        switch WebSocketHandshake.decide(head, path: "/ws", subprotocol: "chronosketch.v1") {
        case .upgrade(let response):
            phase = .webSocket
            deadline = 0
            control.append(OutgoingBuffer(rawBytes: response))
            opened = true
            loop.opened(self)
            _ = flush()
        case .http:
            let response = loop.transport.onHTTP(head)
            respond(
                status: response.status, contentType: response.contentType, body: response.body,
                extraHeaders: response.headers, head: head)
        case .refuse(let status, let reason, let extraHeaders):
            respond(status: status, body: reason, extraHeaders: extraHeaders)
        }
    }

    private func respond(status: Int, body: String, extraHeaders: [String]) {
        respond(
            status: status, contentType: "text/plain; charset=utf-8", body: Array((body + "\n").utf8),
            extraHeaders: extraHeaders)
    }

    private func respond(
        status: Int, contentType: String, body: [UInt8], extraHeaders: [String] = [], head: HTTPRequestHead? = nil
    ) {
        phase = .httpResponse
        let bytes = HTTPResponseBytes.make(
            status: status, contentType: contentType, body: body, extraHeaders: extraHeaders,
            includeBody: head?.method != "HEAD")
        control.append(OutgoingBuffer(rawBytes: bytes))
        _ = flush()
    }

    private func handle(_ event: FrameDecoder.Event) {
        switch event {
        case .text(let bytes):
            if phase == .webSocket, pendingClose == nil { loop.transport.deliver(.message(id, bytes)) }
        case .binary:
            if phase == .webSocket, pendingClose == nil { loop.transport.deliver(.binaryMessage(id)) }
        case .ping(let payload):
            guard !closeQueued else { return }
            // At most one pong waits: a newer ping replaces it (RFC 6455 §5.5.3), so a peer that
            // pings and never reads cannot make the server hold a pong per ping.
            pong = OutgoingBuffer(payload, opcode: .pong)
            _ = flush()
        case .pong:
            break
        case .close(let payload):
            peerClosed = true
            if closeQueued {
                // The answer to our close: the handshake is complete.
                if sending == nil && control.isEmpty { loop.drop(self) }
                return
            }
            if let problem = CloseFrame.problem(in: payload) {
                let code = CloseCode(rawValue: problem) ?? .protocolError
                fail(code, code == .protocolError ? "invalid close frame" : "invalid UTF-8 in the close reason")
            } else {
                // Echo it (RFC 6455 §5.5.1), after the frame being written; nothing else follows.
                releaseQueue()
                closeQueued = true
                phase = .closing
                control.append(OutgoingBuffer(payload, opcode: .close))
                loop.setDeadline(self, seconds: 5)
                _ = flush()
            }
        }
    }

    /// The peer broke the protocol (or sent too much): drop what is queued, send the close frame
    /// with `code`, and end the connection.
    func fail(_ code: CloseCode, _ reason: String) {
        releaseQueue()
        if closedWith == nil { closedWith = (code, reason) }
        queueClose(code, reason)
        _ = flush()
    }

    /// The peer went away (end of stream or an error).
    private func peerGone() {
        if phase == .httpResponse, sending != nil || !control.isEmpty {
            // A client that half-closed after its request still reads the answer.
            peerClosed = true
            readStopped = true
            loop.setWriteInterest(self, true)
            return
        }
        loop.drop(self)
    }

    /// Releases the data queue (its bytes no longer count).
    func releaseQueue() {
        loop.queuedBytesDelta -= queuedBytes
        queue = []
        queuedBytes = 0
        fragmenting = nil
    }

    /// Queues our close frame: after the frame being written, before any data.
    func queueClose(_ code: CloseCode, _ reason: String) {
        guard !closeQueued else { return }
        closeQueued = true
        phase = .closing
        if closedWith == nil { closedWith = (code, reason) }
        control.append(OutgoingBuffer(CloseFrame.payload(code: code.rawValue, reason: reason), opcode: .close))
        loop.setDeadline(self, seconds: 5)
    }
}
