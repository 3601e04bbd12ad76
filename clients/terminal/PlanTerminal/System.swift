import ChronoSketchCore
import Glibc

/// The little process I/O the commands need, in one place.
enum System {
    /// Today's civil date in the local time zone.
    static func today() -> CivilDate {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return (try? CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)))
            ?? CivilDate.earliest
    }

    /// The environment variables.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// Writes to standard output.
    static func print(_ text: String) {
        writeAll(1, text)
    }

    /// Writes to standard error.
    static func printError(_ text: String) {
        writeAll(2, text)
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }

    /// The terminal's width, when standard output is one.
    static func terminalWidth() -> Int? {
        guard stdoutIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The bytes of a file, or of standard input for "-".
    static func read(_ path: String) -> [UInt8]? {
        let fd = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { if path != "-" { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// A random id prefix.
    static func randomPrefix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36)
    }
}
