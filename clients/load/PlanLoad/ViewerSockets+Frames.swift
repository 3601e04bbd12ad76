import ChronoSketchCore
import SystemSupport
import WebSocketWire

/// Reading what the server sends: the upgrade response (`ClientHandshake`), then frames
/// (`FrameDecoder` reading a server's frames, fragments handed on as they come) — the shared raw
/// client's parts, on this thread's sockets.
extension ViewerSockets {
    /// Consumes the HTTP response or whole frames from `bytes`; returns how many bytes it used.
    func consume(_ socket: Socket, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        if socket.phase != .open {
            guard let end = ClientHandshake.headEnd(bytes) else {
                if bytes.count > 16384 { finish(socket, code: nil, reason: "no HTTP response to the upgrade") }
                return 0
            }
            let response = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
            if case .refused(let status)? = socket.handshake?.check(response) {
                finish(socket, code: nil, reason: "upgrade refused: \(status)")
                return end
            }
            socket.phase = .open
            pendingCount -= 1
            offset = end
            socket.handler(.opened)
            for message in socket.early { queueFrame(socket, opcode: 1, payload: message) }
            socket.early = []
        }
        while sockets[socket.id] != nil, offset < bytes.count {
            switch socket.decoder.step(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset...]))) {
            case .needMore:
                return offset
            case .consumed(let count):
                offset += count
            case .event(let event, let count):
                offset += count
                handle(event, on: socket)
            case .fail(let code, let reason):
                finish(socket, code: code, reason: reason)
                return bytes.count
            }
        }
        return offset
    }

    /// One message, fragment or control frame from the server.
    func handle(_ event: FrameDecoder.Event, on socket: Socket) {
        switch event {
        case .text(let payload), .binary(let payload):
            socket.handler(.message(payload))
        case .fragment(let payload, let first, let last, _):
            payload.withUnsafeBufferPointer { socket.handler(.part($0, first: first, last: last)) }
        case .close(let payload):
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
            queueFrame(socket, opcode: 8, payload: Array(payload.prefix(2)))
            finish(socket, code: code, reason: reason)
        case .ping(let payload):
            queueFrame(socket, opcode: 10, payload: payload)
        case .pong:
            break
        }
    }
}
