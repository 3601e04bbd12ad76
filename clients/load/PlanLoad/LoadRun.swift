import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization

/// Runs one load test: viewers subscribe, editors add tasks at the configured rate with the send
/// time in each title, and the run measures acknowledgement and fan-out latency, gaps,
/// convergence, and (with the server's pid) server CPU and memory.
public enum LoadRun {
    /// The figures of one run.
    public struct Report: Sendable {
        public var fields: [(String, Double)] = []
        public var converged = false
    }

    /// Runs the load and returns the report.
    public static func run(_ configuration: LoadConfiguration) async throws -> Report {
        guard let endpoint = ClientTransport.Endpoint(url: configuration.server) else {
            throw ClientError.badURL(configuration.server)
        }
        let transport = try ClientTransport()
        let fleet = ViewerFleet(count: configuration.viewers)
        let connectStart = monotonicNanoseconds()
        fleet.start(configuration: configuration, transport: transport, endpoint: endpoint)
        while fleet.subscribedCount.load(ordering: .relaxed) < configuration.viewers {
            try await Task.sleep(for: .milliseconds(20))
            if Double(monotonicNanoseconds() - connectStart) / 1e9 > 120 { break }
        }
        let connectSeconds = Double(monotonicNanoseconds() - connectStart) / 1e9
        let cpuBefore = configuration.serverPID.map(processCPUSeconds) ?? 0

        // Editors: pipelined adds at the total rate, each with its send time in the title.
        let editors = try (0..<max(1, configuration.editors)).map { index in
            try PlanConnection(
                options: .init(
                    url: configuration.server, token: configuration.token, clientName: "plan-load/editor\(index)",
                    reconnect: false), transport: transport)
        }
        let shared = EditorTallies()
        var listeners: [Task<Void, Never>] = []
        for editor in editors {
            let stream = editor.events
            listeners.append(
                Task {
                    for await event in stream {
                        guard case .message(let message) = event else { continue }
                        switch message {
                        case .ack(let id, _, _, _, _), .rejected(let id, _, _, _, _, _):
                            let now = monotonicNanoseconds()
                            if let sent = shared.sentAt.withLock({ $0.removeValue(forKey: id) }) {
                                shared.ackLatencies.withLock { $0.append(Double(now - sent) / 1e6) }
                            }
                            let key: String
                            switch message {
                            case .rejected(_, _, let code, _, _, _): key = code.rawValue
                            case .ack(_, _, _, true, _): key = "noop"
                            default: key = "confirmed"
                            }
                            shared.outcomes.withLock { $0[key, default: 0] += 1 }
                        default: break
                        }
                    }
                })
            editor.start()
        }
        for editor in editors {
            while !editor.isReady { try await Task.sleep(for: .milliseconds(10)) }
        }
        let total = Int(configuration.rate * configuration.duration)
        let interval = 1.0 / configuration.rate
        let proposeStart = monotonicNanoseconds()
        for number in 0..<total {
            let due = proposeStart + UInt64(Double(number) * interval * 1e9)
            let now = monotonicNanoseconds()
            if due > now { try await Task.sleep(for: .nanoseconds(Int(due - now))) }
            let editor = editors[number % editors.count]
            let id = editor.nextProposalID()
            let sent = monotonicNanoseconds()
            shared.sentAt.withLock { $0[id] = sent }
            let task = try GanttTask(
                id: "load-\(id)", title: "load sent=\(sent)", kind: .activity(schedule: nil, progress: 0))
            editor.propose(.add(task), plan: configuration.plan, id: id)
        }
        // Wait for every answer, then for every viewer to reach the final version.
        let waitStart = monotonicNanoseconds()
        while shared.sentAt.withLock({ !$0.isEmpty }), Double(monotonicNanoseconds() - waitStart) / 1e9 < 60 {
            try await Task.sleep(for: .milliseconds(20))
        }
        let confirmed = shared.outcomes.withLock { $0["confirmed"] ?? 0 }
        var finalVersion = 0
        for editor in editors {
            finalVersion = max(finalVersion, editor.copy(of: configuration.plan)?.version ?? 0)
        }
        let cpuAfter = configuration.serverPID.map(processCPUSeconds) ?? 0
        let rssKiB = configuration.serverPID.map(processRSSKiB) ?? 0
        // Viewers settle: their last versions stop moving.
        var stable = 0
        var previous: [Int] = []
        while stable < 5, Double(monotonicNanoseconds() - waitStart) / 1e9 < 90 {
            try await Task.sleep(for: .milliseconds(100))
            let now = fleet.tallies.lastVersion
            stable = now == previous ? stable + 1 : 0
            previous = now
        }
        let versions = fleet.tallies.lastVersion
        let hashes = fleet.tallies.streamHash
        let maxVersion = versions.max() ?? 0
        let converged = versions.allSatisfy { $0 == maxVersion } && Set(hashes).count == 1 && fleet.tallies.gaps == 0
        for editor in editors { editor.close() }
        for listener in listeners { listener.cancel() }
        transport.stop()

        var latencies = fleet.tallies.latencies
        latencies.sort()
        var acks = shared.ackLatencies.withLock { $0 }
        acks.sort()
        func percentile(_ values: [Double], _ fraction: Double) -> Double {
            values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * fraction))]
        }
        var report = Report()
        report.converged = converged
        let cpu = cpuAfter - cpuBefore
        report.fields = [
            ("viewers", Double(configuration.viewers)), ("editors", Double(editors.count)),
            ("connect_s", connectSeconds), ("proposals", Double(total)), ("confirmed", Double(confirmed)),
            (
                "rejected",
                Double(
                    shared.outcomes.withLock {
                        $0.filter { $0.key != "confirmed" && $0.key != "noop" }.values.reduce(0, +)
                    })
            ),
            ("final_version", Double(maxVersion)), ("ack_p50_ms", percentile(acks, 0.5)),
            ("ack_p99_ms", percentile(acks, 0.99)),
            ("fanout_p50_ms", percentile(latencies, 0.5)), ("fanout_p99_ms", percentile(latencies, 0.99)),
            ("fanout_max_ms", latencies.last ?? 0), ("deliveries", Double(fleet.tallies.deliveries)),
            ("gaps", Double(fleet.tallies.gaps)), ("converged", converged ? 1 : 0),
            ("server_cpu_s", cpu),
            ("deliveries_per_server_cpu_s", cpu > 0 ? Double(fleet.tallies.deliveries) / cpu : 0),
            ("server_rss_kib", Double(rssKiB)),
            ("server_rss_kib_per_connection", Double(rssKiB) / Double(max(1, configuration.viewers + editors.count))),
        ]
        _ = finalVersion
        return report
    }

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

/// What the editors' listeners and the proposing loop share.
final class EditorTallies: Sendable {
    let ackLatencies = Mutex<[Double]>([])
    let outcomes = Mutex<[String: Int]>([:])
    let sentAt = Mutex<[String: UInt64]>([:])
}
