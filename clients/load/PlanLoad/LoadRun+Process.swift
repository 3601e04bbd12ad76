import Glibc
import SystemSupport

/// The server's (and plan-load's own) CPU time and memory, read from /proc.
extension LoadRun {
    /// utime + stime of a process, in seconds.
    static func processCPUSeconds(_ pid: Int32) -> Double {
        guard let text = try? Files.readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory of a process in KiB.
    static func processRSSKiB(_ pid: Int32) -> Int {
        guard let text = try? Files.readText("/proc/\(pid)/status"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
