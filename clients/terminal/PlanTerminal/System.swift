import ChronoSketchCore
import Glibc

/// What the terminal client asks of the system beyond `SystemSupport`: the date, the terminal.
enum System {
    /// Today's civil date in the local time zone.
    static func today() -> CivilDate {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return (try? CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)))
            ?? CivilDate.earliest
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

    /// A random id prefix.
    static func randomPrefix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36)
    }
}
