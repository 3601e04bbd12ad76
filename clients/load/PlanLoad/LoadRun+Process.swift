import Glibc
import PlanClient

/// The server's (and plan-load's own) CPU time and memory, read from /proc.
extension LoadRun {
    /// utime + stime of a process, in seconds.
    static func processCPUSeconds(_ pid: Int32) -> Double {
        guard let text = try? readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory of a process in KiB.
    static func processRSSKiB(_ pid: Int32) -> Int {
        guard let text = try? readText("/proc/\(pid)/status"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func readText(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw ClientError.transport("cannot read \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
