import Glibc

/// Standard output and error, the environment and the clocks of this process.
public enum ProcessIO {
    /// Writes `text` and `terminator` to standard output in full (unbuffered: it is out when this
    /// returns; do not mix with Swift's buffered `print` in one program).
    public static func print(_ text: String, terminator: String = "\n") {
        Files.writeAll(Array((text + terminator).utf8), to: 1)
    }

    /// Writes `text` and `terminator` to standard error in full. A line written in one call stays
    /// whole between threads (one write(2) while the kernel takes it all, as it does for pipes and
    /// terminals).
    public static func printError(_ text: String, terminator: String = "\n") {
        Files.writeAll(Array((text + terminator).utf8), to: 2)
    }

    /// The environment variables (`environ`) as a dictionary; an entry with no `=` is skipped.
    public static func environment() -> [String: String] {
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

    /// Nanoseconds of CLOCK_MONOTONIC, comparable between processes on one machine.
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Seconds since the Unix epoch (CLOCK_REALTIME).
    public static func unixSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Duration {
    /// The duration in seconds.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds.
    public var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in whole nanoseconds; a negative duration gives 0.
    public var inNanoseconds: UInt64 {
        guard self > .zero else { return 0 }
        return UInt64(components.seconds) * 1_000_000_000 + UInt64(components.attoseconds / 1_000_000_000)
    }
}
