import Glibc
import SystemSupport

/// One line per event on standard error: `time level message`. Never given a token.
public struct ServerLog: Sendable {
    /// Whether lines are written at all (tests may silence the server).
    public let enabled: Bool

    /// Creates a log.
    public init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// Writes an informational line.
    public func info(_ message: @autoclosure () -> String) {
        write("info", message())
    }

    /// Writes a warning line.
    public func warning(_ message: @autoclosure () -> String) {
        write("warn", message())
    }

    private func write(_ level: String, _ message: String) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var time = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &time)
        let stamp =
            "\(time.tm_year + 1900)-\(pad(time.tm_mon + 1))-\(pad(time.tm_mday))T\(pad(time.tm_hour)):"
            + "\(pad(time.tm_min)):\(pad(time.tm_sec)).\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
        // One write(2) per line keeps lines from different threads whole.
        ProcessIO.printError("\(stamp) \(level) \(message)\n")
    }

    private func pad(_ value: Int32, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
