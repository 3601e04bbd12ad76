import CNetwork
import ChronoSketchCore
import Glibc
import PlanClient
import Synchronization
import SystemSupport
import WebSocketWire

/// Reading what the server sends: the upgrade response, then frames.
extension ViewerSockets {
    /// Consumes the HTTP response or whole frames from `bytes`; returns how many bytes it used.
    func consume(_ socket: Socket, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        if socket.phase != .open {
            guard let end = headerEnd(bytes) else {
                if bytes.count > 16384 { finish(socket, code: nil, reason: "no HTTP response to the upgrade") }
                return 0
            }
            let response = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
            guard response.hasPrefix("HTTP/1.1 101"),
                headerValue("sec-websocket-accept", in: response) == socket.expectedAccept
            else {
                let status = response.prefix { $0 != "\r" }
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
        while sockets[socket.id] != nil {
            let available = bytes.count - offset
            guard available >= 2 else { break }
            let first = bytes[offset]
            let second = bytes[offset + 1]
            var header = 2
            var length = Int(second & 0x7F)
            if length == 126 {
                guard available >= 4 else { break }
                length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                header = 4
            } else if length == 127 {
                guard available >= 10 else { break }
                guard bytes[offset + 2] & 0x80 == 0 else {
                    finish(socket, code: 1002, reason: "a frame length with the top bit set")
                    break
                }
                length = 0
                for index in 2..<10 { length = length << 8 | Int(bytes[offset + index]) }
                header = 10
            }
            if let problem = frameProblem(first: first, second: second, length: length) {
                finish(socket, code: problem.code, reason: problem.reason)
                break
            }
            guard available >= header + length else { break }
            let payload = UnsafeBufferPointer(rebasing: bytes[(offset + header)..<(offset + header + length)])
            offset += header + length
            frame(socket, fin: first & 0x80 != 0, opcode: first & 0x0F, payload)
        }
        return offset
    }

    /// Why a frame header breaks RFC 6455 for a client (or our size limit), if it does.
    func frameProblem(first: UInt8, second: UInt8, length: Int) -> (code: UInt16, reason: String)? {
        let opcode = first & 0x0F
        if second & 0x80 != 0 { return (1002, "the server masked a frame") }
        if first & 0x70 != 0 { return (1002, "reserved bits set without an extension") }
        if opcode >= 8, first & 0x80 == 0 || length > 125 { return (1002, "a fragmented or long control frame") }
        if ![0, 1, 2, 8, 9, 10].contains(opcode) { return (1002, "unknown opcode \(opcode)") }
        if length > ViewerSockets.maxFrameBytes { return (1009, "a frame of \(length) bytes") }
        return nil
    }

    func frame(_ socket: Socket, fin: Bool, opcode: UInt8, _ payload: UnsafeBufferPointer<UInt8>) {
        switch opcode {
        case 0:
            guard socket.inFragments else {
                return finish(socket, code: 1002, reason: "a continuation without a start")
            }
            socket.inFragments = !fin
            socket.handler(.part(payload, first: false, last: fin))
        case 1, 2:
            guard !socket.inFragments else {
                return finish(socket, code: 1002, reason: "a new message inside a fragmented one")
            }
            if fin {
                socket.handler(.message(Array(payload)))
            } else {
                socket.inFragments = true
                socket.handler(.part(payload, first: true, last: false))
            }
        case 8:
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            let reason =
                payload.count > 2 ? String(decoding: UnsafeBufferPointer(rebasing: payload[2...]), as: UTF8.self) : ""
            queueFrame(socket, opcode: 8, payload: payload.count >= 2 ? Array(payload[0..<2]) : [])
            finish(socket, code: code, reason: reason)
        case 9:
            queueFrame(socket, opcode: 10, payload: Array(payload))
        default:
            break
        }
    }
}
