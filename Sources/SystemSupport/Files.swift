import Glibc

/// Whole-file reads and writes, and checked pipes, on plain file descriptors.
public enum Files {
    /// The bytes of the file at `path`; "-" reads standard input.
    /// - Throws: `SystemError` when the file cannot be opened or read.
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        let (fd, name) = try openForReading(path)
        defer { if fd != 0 { close(fd) } }
        return try readAll(fileDescriptor: fd, name: name)
    }

    /// Reads the file at `path` ("-": standard input) a chunk at a time: `body` gets a function
    /// that returns the next chunk of at most `size` bytes, and nil at the end. The file is
    /// closed when `body` returns.
    /// - Throws: `SystemError` when the file cannot be opened or read, or what `body` throws.
    public static func withChunks<Result>(
        of path: String, size: Int = 1 << 20, _ body: (@escaping () throws -> [UInt8]?) throws -> Result
    ) throws -> Result {
        let (fd, name) = try openForReading(path)
        defer { if fd != 0 { close(fd) } }
        return try body { () throws(SystemError) -> [UInt8]? in
            let chunk = try readChunk(fd, size: size, name: name)
            return chunk.isEmpty ? nil : chunk
        }
    }

    /// The text of the file at `path`, decoded as UTF-8 (invalid bytes replaced).
    /// - Throws: `SystemError` when the file cannot be opened or read.
    public static func readText(_ path: String) throws(SystemError) -> String {
        String(decoding: try read(path), as: UTF8.self)
    }

    /// Everything `fd` yields until its end.
    /// - Throws: `SystemError` on a read error (EINTR is retried).
    public static func readAll(fileDescriptor fd: Int32, name: String) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = try readChunk(fd, size: 1 << 16, name: name)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    /// `path` opened for reading ("-": standard input, descriptor 0), and its name for messages.
    private static func openForReading(_ path: String) throws(SystemError) -> (fd: Int32, name: String) {
        if path == "-" { return (0, "standard input") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("cannot open \(path)") }
        return (fd, path)
    }

    /// The next at most `size` bytes of `fd` (EINTR retried); empty at its end.
    private static func readChunk(_ fd: Int32, size: Int, name: String) throws(SystemError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: size)
        while true {
            let count = Glibc.read(fd, &chunk, size)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw SystemError("cannot read \(name)") }
            chunk.removeSubrange(count...)
            return chunk
        }
    }

    /// Replaces the file at `path` with `bytes` (created with mode 0644 if missing).
    /// - Throws: `SystemError` when it cannot be created or written in full.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError("cannot write \(path)") }
        defer { close(fd) }
        guard writeAll(bytes, to: fd) else { throw SystemError("cannot write \(path)") }
    }

    /// Writes all of `bytes` to `fd` (retrying after EINTR and short writes); false on an error.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// A new pipe, both ends close-on-exec and, when asked, non-blocking.
    /// - Throws: `SystemError` when `pipe` fails.
    public static func pipe(nonBlocking: Bool = false) throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw SystemError("cannot create a pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        return (fds[0], fds[1])
    }
}
