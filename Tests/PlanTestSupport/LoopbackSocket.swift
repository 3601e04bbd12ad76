import Glibc

/// A blocking TCP socket connected to 127.0.0.1:`port`, for tests that write bytes by hand.
/// `timeoutSeconds` bounds every read and write (nil: none); `receiveBuffer` shrinks the
/// kernel's receive buffer before connecting (a reader that falls behind sooner).
public func connectLoopback(port: Int, timeoutSeconds: Int? = 10, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
    if let seconds = timeoutSeconds {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    if var size = receiveBuffer {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        let code = errno
        close(fd)
        throw HarnessError("connect: errno \(code)")
    }
    return fd
}

/// Everything `fd` yields until the end of the stream, a reset or a read timeout, as text.
public func readToEnd(_ fd: Int32) -> String {
    String(decoding: readBytesToEnd(fd), as: UTF8.self)
}

/// Everything `fd` yields until the end of the stream, a reset or a read timeout.
public func readBytesToEnd(_ fd: Int32) -> [UInt8] {
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        answer.append(contentsOf: buffer[0..<count])
    }
    return answer
}

/// One raw exchange on a new loopback connection: `request`'s bytes as given (nothing normalizes
/// them), our side half-closed after them, then everything the server sends until it closes.
public func exchangeOnce(port: Int, _ request: String) throws -> String {
    String(decoding: try exchangeBytesOnce(port: port, request), as: UTF8.self)
}

/// `exchangeOnce`, the answer as bytes (for bodies that are no text, such as gzipped ones).
public func exchangeBytesOnce(port: Int, _ request: String) throws -> [UInt8] {
    let fd = try connectLoopback(port: port)
    defer { close(fd) }
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    shutdown(fd, Int32(SHUT_WR))
    return readBytesToEnd(fd)
}
