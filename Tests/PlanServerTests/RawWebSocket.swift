import Glibc
import PlanTestSupport

/// A WebSocket client on a plain socket, for what a well-behaved client library never does:
/// binary frames, invalid UTF-8, and a reader that stops reading.
final class RawWebSocket {
    let fd: Int32

    /// Connects and completes the handshake; `receiveBuffer` shrinks the kernel's buffer.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = try connectLoopback(port: port, timeoutSeconds: nil, receiveBuffer: receiveBuffer)
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: chronosketch.v1\r\n\r\n"
        try writeAll(Array(request.utf8))
        var response: [UInt8] = []
        var byte: UInt8 = 0
        while !response.ends(with: [13, 10, 13, 10]) {
            guard read(fd, &byte, 1) == 1 else { throw HarnessError("handshake failed") }
            response.append(byte)
        }
        guard String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw HarnessError("no upgrade: \(String(decoding: response, as: UTF8.self))")
        }
    }

    deinit {
        close(fd)
    }

    /// Sends one masked frame (opcode 1 text, 2 binary).
    func sendFrame(_ payload: [UInt8], opcode: UInt8 = 1) throws {
        var frame: [UInt8] = [0x80 | opcode]
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try writeAll(frame)
    }

    /// Sends text.
    func send(_ text: String) throws {
        try sendFrame(Array(text.utf8))
    }

    /// Reads one frame: (opcode, payload); nil when the connection ended.
    func readFrame() throws -> (opcode: UInt8, payload: [UInt8])? {
        guard let head = try readExactly(2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            guard let extended = try readExactly(2) else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            guard let extended = try readExactly(8) else { return nil }
            length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = try readExactly(length) else { return nil }
        return (head[0] & 0x0F, payload)
    }

    /// Reads frames until a close frame; returns its code (nil if the socket just ended).
    func readUntilClose() throws -> UInt16? {
        while let frame = try readFrame() {
            if frame.opcode == 8 {
                return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
            }
        }
        return nil
    }

    /// Reads text frames until one contains `needle`.
    func readText(containing needle: String) throws -> String? {
        while let frame = try readFrame() {
            let text = String(decoding: frame.payload, as: UTF8.self)
            if frame.opcode == 1, text.contains(needle) { return text }
            if frame.opcode == 8 { return nil }
        }
        return nil
    }

    private func readExactly(_ count: Int) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            if got <= 0 { return nil }
            done += got
        }
        return bytes
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let sent = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            guard sent > 0 else { throw HarnessError("write failed") }
            done += sent
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
