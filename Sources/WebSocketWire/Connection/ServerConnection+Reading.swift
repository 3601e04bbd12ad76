extension ServerConnection {
    /// Bytes were read from the peer at `now`: request heads and frames are handled, what does
    /// not complete one is kept for the next read. At most `deliveries` messages are handed to the
    /// application; what follows them is kept (`holdsMessages`) until `resume` (one peer's burst
    /// must not queue thousands of messages ahead of everyone else's).
    public mutating func received(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, deliveries: Int = .max
    ) -> [ServerConnectionAction] {
        guard phase != .dropped, !bytes.isEmpty else { return [] }
        lastHeard = now
        pingOutstanding = false
        var actions: [ServerConnectionAction] = []
        var budget = deliveries
        if input.isEmpty {
            let used = process(bytes, now: now, budget: &budget, into: &actions)
            if phase != .dropped, used < bytes.count { input = Array(bytes[used...]) }
        } else {
            input.append(contentsOf: bytes)
            let used = input.withUnsafeBytes { process($0, now: now, budget: &budget, into: &actions) }
            if phase != .dropped { input.removeFirst(min(used, input.count)) }
        }
        holdsMessages = budget == 0 && !input.isEmpty
        if input.isEmpty && input.capacity > 0 { input = [] }
        return actions
    }

    /// Hands on what was kept after a delivery budget ran out, at most `deliveries` messages.
    public mutating func resume(now: UInt64, deliveries: Int) -> [ServerConnectionAction] {
        holdsMessages = false
        guard phase != .dropped, !input.isEmpty else { return [] }
        let kept = input
        input = []
        let heard = lastHeard
        defer { lastHeard = max(heard, lastHeard) }
        return kept.withUnsafeBytes { received($0, now: heard, deliveries: deliveries) }
    }

    /// The peer ended its direction (or the connection failed).
    public mutating func readEnded(now: UInt64) -> [ServerConnectionAction] {
        guard phase != .dropped else { return [] }
        switch phase {
        case .awaitingAnswer, .answering:
            // A client that half-closed after its request still reads the answer.
            peerClosed = true
            readStopped = true
            return []
        default:
            return dropNow()
        }
    }

    /// Reading resumes after a pause of the loop's (the application was behind): the peer was not
    /// heard because it was not listened to.
    public mutating func readingResumed(now: UInt64) {
        lastHeard = now
    }

    /// The application's answer to the plain HTTP request handed over with `serveHTTP`. With a
    /// kept-alive connection, the next request is read once the answer is written.
    public mutating func respond(_ response: HTTPAnswer, now: UInt64) -> [ServerConnectionAction] {
        guard case .awaitingAnswer(let keepAlive, let includeBody) = phase else { return [] }
        queueAnswer(response, keepAlive: keepAlive, includeBody: includeBody)
        return [.flush]
    }

    /// Handles the heads and frames at the start of `bytes`; returns how many bytes were used.
    private mutating func process(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, budget: inout Int, into actions: inout [ServerConnectionAction]
    ) -> Int {
        var used = 0
        while budget > 0 {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
            switch phase {
            case .dropped, .lingering:
                return bytes.count  // nothing more is read from a connection that is done
            case .awaitingAnswer, .answering:
                return used  // the next request waits until this one is answered
            case .requestHead:
                switch readProxyHeader(rest) {
                case .waiting: return used
                case .refused:
                    actions.append(.flush)
                    return bytes.count
                case .read(let count):
                    used += count
                    if count > 0 { continue }
                }
                switch HTTPRequestHead.parse(rest) {
                case .incomplete:
                    return used
                case .invalid(let status, let reason):
                    queueAnswer(.plain(status: status, reason), keepAlive: false, includeBody: true)
                    actions.append(.flush)
                    return bytes.count
                case .complete(let head, let count):
                    used += count
                    guard admitClient(of: head) else {
                        actions.append(.flush)
                        return bytes.count
                    }
                    handshake(head, now: now, into: &actions)
                }
            case .webSocket, .closing:
                switch decoder.step(rest) {
                case .needMore: return used
                case .consumed(let count): used += count
                case .event(let event, let count):
                    used += count
                    if handle(event, now: now, into: &actions) { budget -= 1 }
                case .fail(let code, let reason):
                    actions += fail(CloseCode(rawValue: code) ?? .protocolError, reason, now: now)
                    return bytes.count
                }
            }
        }
        return used  // the delivery budget is used up: the rest waits for `resume`
    }

    private mutating func handshake(_ head: HTTPRequestHead, now: UInt64, into actions: inout [ServerConnectionAction])
    {
        switch WebSocketHandshake.decide(
            head, path: settings.configuration.path, subprotocol: settings.configuration.subprotocol)
        {
        case .upgrade(let response):
            phase = .webSocket
            deadline = 0
            lastHeard = now
            control.append(OutgoingBuffer(rawBytes: response))
            opened = true
            actions += [.opened, .flush]
        case .http:
            phase = .awaitingAnswer(
                keepAlive: head.keepsAlive && !head.announcesBody, includeBody: head.method != "HEAD")
            deadline = 0
            actions.append(.serveHTTP(head))
        case .refuse(let status, let reason, let extraHeaders):
            queueAnswer(.plain(status: status, reason, headers: extraHeaders), keepAlive: false, includeBody: true)
            actions.append(.flush)
        }
    }

    /// Queues an HTTP answer; the connection ends after it unless `keepAlive`.
    mutating func queueAnswer(_ answer: HTTPAnswer, keepAlive: Bool, includeBody: Bool) {
        phase = .answering(keepAlive: keepAlive)
        let bytes = HTTPResponseBytes.make(
            status: answer.status, contentType: answer.contentType, body: answer.body, extraHeaders: answer.headers,
            includeBody: includeBody, keepAlive: keepAlive)
        control.append(OutgoingBuffer(rawBytes: bytes))
    }

    /// Handles one frame's event; returns whether a message was handed to the application.
    @discardableResult
    private mutating func handle(
        _ event: FrameDecoder.Event, now: UInt64, into actions: inout [ServerConnectionAction]
    ) -> Bool {
        switch event {
        case .text(let bytes):
            guard isOpen else { return false }
            actions.append(.text(bytes))
            return true
        case .binary:
            guard isOpen else { return false }
            actions.append(.binary)
            return true
        case .fragment:
            return false  // this side joins fragments: never handed one
        case .ping(let payload):
            guard !closeQueued else { return false }
            // At most a few pongs wait: newer pings replace the oldest (RFC 6455 §5.5.3 allows
            // answering only the latest), so a peer that pings and never reads cannot make the
            // server hold a pong per ping.
            noteOutput(now: now)
            if pongs.count == ServerConnection.maxWaitingPongs { pongs.removeFirst() }
            pongs.append(OutgoingBuffer(payload, opcode: .pong))
            actions.append(.flush)
        case .pong:
            break
        case .close(let payload):
            peerClosed = true
            if closeQueued {
                // The answer to our close: the handshake is complete once our frame is out.
                if sending == nil && control.isEmpty { actions += dropNow() }
                return false
            }
            if let problem = CloseFrame.problem(in: payload) {
                let code = CloseCode(rawValue: problem) ?? .protocolError
                actions += fail(
                    code, code == .protocolError ? "invalid close frame" : "invalid UTF-8 in the close reason", now: now
                )
            } else {
                // Echo it (RFC 6455 §5.5.1), after the frame being written; nothing else follows.
                releaseQueue()
                closeQueued = true
                phase = .closing
                control.append(OutgoingBuffer(payload, opcode: .close))
                deadline = now + settings.configuration.closeTimeout
                noteOutput(now: now)
                actions.append(.flush)
            }
        }
        return false
    }
}

/// The application's answer to a plain HTTP request: status, type, body and extra header lines
/// (`Content-Length` and `Connection` are the transport's).
public struct HTTPAnswer: Sendable, Equatable {
    /// The status code, such as 200 or 503.
    public let status: Int
    /// The content type.
    public let contentType: String
    /// The body (for a `HEAD`, only its length is sent).
    public let body: [UInt8]
    /// Extra header lines (`Name: value`); a `Cache-Control` among them replaces `no-store`.
    public let headers: [String]

    /// An answer with a body of bytes and extra header lines.
    public init(status: Int, contentType: String, body: [UInt8], headers: [String] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A plain-text answer of `reason` and a line break.
    public static func plain(status: Int, _ reason: String, headers: [String] = []) -> HTTPAnswer {
        HTTPAnswer(
            status: status, contentType: "text/plain; charset=utf-8", body: Array((reason + "\n").utf8),
            headers: headers)
    }
}
