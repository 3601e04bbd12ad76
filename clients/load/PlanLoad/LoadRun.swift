import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization
import SystemSupport

/// Runs one load test: viewers subscribe (ramped), editors propose a realistic mix at the
/// configured rate (or as fast as the server confirms), watchers move their timeline windows, and
/// the run measures subscribe, acknowledgement, fan-out and page latency, outcomes by code,
/// reconnects, gaps and convergence, and (with the server's pid) server CPU and memory.
public enum LoadRun {
    /// The figures of one run.
    public struct Report: Sendable {
        /// Named figures, in print order (also the JSON keys).
        public var fields: [(String, Double)] = []
        /// Latency distributions in milliseconds: name, count, p50, p95, p99, max.
        public var latencies: [(String, [Double])] = []
        /// Whether every check passed: every viewer at the final version with contiguous versions
        /// and the same stream, the sample equal to a fresh snapshot, every stale proposal
        /// rejected `staleTask`.
        public var converged = false
        /// Why a check failed, and other remarks.
        public var notes: [String] = []
    }

    /// Runs the load and returns the report.
    public static func run(_ configuration: LoadConfiguration) async throws -> Report {
        guard let endpoint = ClientTransport.Endpoint(url: configuration.server) else {
            throw ClientError.badURL(configuration.server)
        }
        let transport = try ClientTransport()
        defer { transport.stop() }
        let viewerTransport: any ViewerTransport =
            configuration.viewersOnLWS || endpoint.secure
            ? LWSViewerTransport(transport: transport)
            : try ViewerSockets(idleTimeout: .milliseconds(Int(configuration.idleTimeout * 1000)))
        // On any early exit too, the viewers' thread and sockets end with the run.
        defer { viewerTransport.stop() }
        let fleet = ViewerFleet(configuration: configuration, transport: viewerTransport, endpoint: endpoint)
        var report = Report()

        // Viewers, ramped (or all at once), with a progress line every second.
        let connectStart = ProcessIO.monotonicNanoseconds()
        var opened = 0
        var lastProgress = connectStart
        while fleet.subscribedCount.load(ordering: .relaxed) < configuration.viewers {
            let now = ProcessIO.monotonicNanoseconds()
            let elapsed = Double(now - connectStart) / 1e9
            let due =
                configuration.ramp > 0
                ? min(configuration.viewers, Int(elapsed * configuration.ramp) + 1) : configuration.viewers
            if due > opened {
                fleet.connect(opened..<due)
                opened = due
            }
            if now - lastProgress > 1_000_000_000 {
                lastProgress = now
                ProcessIO.printError(
                    "viewers: \(opened) connecting, \(fleet.subscribedCount.load(ordering: .relaxed)) subscribed"
                        + " of \(configuration.viewers)")
            }
            if elapsed > configuration.connectTimeout {
                report.notes.append("only \(fleet.subscribedCount.load(ordering: .relaxed)) viewers subscribed in time")
                break
            }
            // Without reconnects, a closed viewer never subscribes: stop waiting once all are in.
            let subscribed = fleet.subscribedCount.load(ordering: .relaxed)
            let closed = fleet.closedBeforeSnapshot.load(ordering: .relaxed)
            if !configuration.reconnect, opened == configuration.viewers, subscribed + closed >= configuration.viewers {
                guard subscribed > 0 else {
                    throw ClientError.transport(
                        "no viewer could subscribe at \(configuration.server) (\(closed) closed)")
                }
                report.notes.append("only \(subscribed) viewers subscribed; \(closed) connections closed")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let subscribedSeconds = Double(ProcessIO.monotonicNanoseconds() - connectStart) / 1e9
        ProcessIO.printError(
            "all \(fleet.subscribedCount.load(ordering: .relaxed)) viewers subscribed after \(subscribedSeconds) s")

        // Editors and watchers.
        let tallies = EditorTallies()
        let editorTransports = try (0..<configuration.effectiveEditorThreads).map { _ in
            try ClientTransport()
        }
        defer { for editorTransport in editorTransports { editorTransport.stop() } }
        let editors = try (0..<configuration.editors).map {
            try LoadEditor(
                configuration: configuration, index: $0, transport: editorTransports[$0 % editorTransports.count],
                tallies: tallies)
        }
        let watchers = try (0..<configuration.watchers).map {
            try TimelineWatcher(configuration: configuration, index: $0, transport: transport)
        }
        var listeners = editors.map { $0.start() } + watchers.map { $0.start() }
        let readyStart = ProcessIO.monotonicNanoseconds()
        while !editors.allSatisfy(\.isReady) || !watchers.allSatisfy({ $0.connection.copy(of: $0.plan) != nil }) {
            if Double(ProcessIO.monotonicNanoseconds() - readyStart) / 1e9 > 30 {
                report.notes.append("editors or watchers not ready after 30 s")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }

        // The load.
        // Where each plan stands before the load (from the editors' copies), to know how many
        // deliveries the viewers must end up with.
        func versions() -> [String: Int] {
            var result: [String: Int] = [:]
            for editor in editors {
                if let version = editor.connection.copy(of: editor.plan)?.version {
                    result[editor.plan] = max(result[editor.plan] ?? 0, version)
                }
            }
            return result
        }
        let startVersions = versions()
        let cpuBefore = configuration.serverPID.map(processCPUSeconds) ?? 0
        let ownCPUBefore = processCPUSeconds(getpid())
        let deliveriesBefore = fleet.deliveredCount.load(ordering: .relaxed)
        let proposeStart = ProcessIO.monotonicNanoseconds()
        let proposeStartUnix = ProcessIO.unixSeconds()
        let end = proposeStart + UInt64(configuration.duration * 1e9)
        if configuration.inFlight > 0 {
            for editor in editors { for _ in 0..<configuration.inFlight { editor.proposeNext() } }
        }
        var number = 0
        var nextMove = proposeStart
        var nextProgress = proposeStart + 1_000_000_000
        while true {
            let now = ProcessIO.monotonicNanoseconds()
            if now >= end { break }
            if configuration.inFlight == 0, !editors.isEmpty {
                while proposeStart + UInt64(Double(number) / configuration.rate * 1e9) <= now {
                    editors[number % editors.count].proposeNext()
                    number += 1
                }
            }
            if now >= nextMove, !watchers.isEmpty {
                for watcher in watchers { watcher.move() }
                nextMove = now + UInt64(configuration.watchInterval * 1e9)
            }
            if now >= nextProgress {
                nextProgress = now + 1_000_000_000
                let counts = tallies.counts.withLock { ($0.proposals, $0.outcomes["confirmed"] ?? 0) }
                ProcessIO.printError(
                    "t=\(Int(Double(now - proposeStart) / 1e9)) s: \(counts.0) proposed, \(counts.1) confirmed, "
                        + "\(tallies.inFlight.load(ordering: .relaxed)) in flight, "
                        + "\(fleet.disconnectedCount.load(ordering: .relaxed)) viewers disconnected")
            }
            let nextDue =
                configuration.inFlight == 0 && !editors.isEmpty
                ? proposeStart + UInt64(Double(number) / configuration.rate * 1e9) : now + 50_000_000
            let wake = min(nextDue, watchers.isEmpty ? nextDue : nextMove, end, nextProgress)
            if wake > now { try await Task.sleep(for: .nanoseconds(Int(min(wake - now, 50_000_000)))) }
        }
        for editor in editors { editor.running.store(false, ordering: .relaxed) }
        let proposeSeconds = Double(ProcessIO.monotonicNanoseconds() - proposeStart) / 1e9
        let proposeEndUnix = ProcessIO.unixSeconds()

        // Every answer, then every viewer settled (and, after a restart, resumed).
        let waitStart = ProcessIO.monotonicNanoseconds()
        let settle = configuration.settleTimeout
        while tallies.inFlight.load(ordering: .relaxed) > 0,
            Double(ProcessIO.monotonicNanoseconds() - waitStart) / 1e9 < settle
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        let cpuAfter = configuration.serverPID.map(processCPUSeconds) ?? 0
        let ownCPU = processCPUSeconds(getpid()) - ownCPUBefore
        let rssKiB = configuration.serverPID.map(processRSSKiB) ?? 0
        // Every viewer must receive every confirmed version from the start version to the final
        // one: wait for that many deliveries (an overloaded server may pause a connection for
        // seconds). After a resume with a snapshot the count differs; there, and without editors,
        // deliveries that stop moving for two seconds end the wait.
        try await Task.sleep(for: .milliseconds(200))
        let finalVersions = versions()
        var expected = 0
        for index in 0..<configuration.viewers {
            let plan = fleet.plan(of: index)
            expected += max(0, (finalVersions[plan] ?? 0) - (startVersions[plan] ?? 0))
        }
        var stable = 0
        var previous = -1
        while Double(ProcessIO.monotonicNanoseconds() - waitStart) / 1e9 < 3 * settle {
            let now = fleet.deliveredCount.load(ordering: .relaxed)
            let resumedAll = fleet.disconnectedCount.load(ordering: .relaxed) == 0
            if resumedAll, now - deliveriesBefore >= expected, stable >= 2 { break }
            if resumedAll, configuration.reconnect || editors.isEmpty, stable >= 20 { break }
            try await Task.sleep(for: .milliseconds(100))
            stable = now == previous ? stable + 1 : 0
            previous = now
        }

        // A fresh snapshot of every plan, on a connection of its own.
        let checkTransport = try ClientTransport()
        let checker = try PlanConnection(
            options: .init(
                url: configuration.server, token: configuration.token, clientName: "plan-load/check", reconnect: false),
            transport: checkTransport)
        for plan in configuration.plans { checker.subscribe(plan) }
        checker.start()
        let checkStart = ProcessIO.monotonicNanoseconds()
        while configuration.plans.contains(where: { checker.copy(of: $0) == nil }),
            Double(ProcessIO.monotonicNanoseconds() - checkStart) / 1e9 < settle
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        var fresh: [String: ClientPlanCopy] = [:]
        for plan in configuration.plans { fresh[plan] = checker.copy(of: plan) }

        // Freeze and stop, then read the tallies.
        fleet.frozen.store(true, ordering: .relaxed)
        for editor in editors { editor.connection.close() }
        for watcher in watchers { watcher.connection.close() }
        checker.close()
        // Each stop waits for its thread, which reports every connection closed on the way out.
        viewerTransport.stop()
        transport.stop()
        for editorTransport in editorTransports { editorTransport.stop() }
        checkTransport.stop()
        for listener in listeners { listener.cancel() }
        listeners.removeAll()

        let viewerTallies = fleet.tallies
        var converged = true
        for plan in configuration.plans {
            guard let copy = fresh[plan] else {
                report.notes.append("no fresh snapshot of \(plan)")
                converged = false
                continue
            }
            let members = (0..<configuration.viewers).filter { fleet.plan(of: $0) == plan }
            let behind = members.filter { viewerTallies.lastVersion[$0] != copy.version }
            if !behind.isEmpty {
                converged = false
                report.notes.append(
                    "\(behind.count) viewers of \(plan) not at the final version \(copy.version)"
                        + " (e.g. viewer \(behind[0]) at \(viewerTallies.lastVersion[behind[0]]))")
            }
            // Viewers that started from the same snapshot version must have seen the same stream.
            var groups: [Int: Set<UInt64>] = [:]
            for member in members where viewerTallies.hasSnapshot[member] && !viewerTallies.restarted.contains(member) {
                groups[viewerTallies.firstVersion[member], default: []].insert(viewerTallies.streamHash[member])
            }
            for (version, hashes) in groups where hashes.count > 1 {
                converged = false
                report.notes.append("viewers of \(plan) from version \(version) saw \(hashes.count) different streams")
            }
            // Editors apply every change to their copies too (they form proposals from them).
            for (index, editor) in editors.enumerated() where editor.plan == plan {
                let own = editor.connection.copy(of: plan)
                if own != copy {
                    converged = false
                    report.notes.append(
                        "editor \(index) of \(plan) diverges from a fresh snapshot"
                            + " (version \(own?.version ?? -1) vs \(copy.version))")
                }
            }
            for member in members where member < fleet.sample {
                if viewerTallies.copies[member] != copy {
                    converged = false
                    report.notes.append(
                        "sample viewer \(member) of \(plan) diverges from a fresh snapshot"
                            + " (version \(viewerTallies.copies[member]?.version ?? -1) vs \(copy.version))")
                }
            }
        }
        if !configuration.reconnect, viewerTallies.closed > 0 {
            converged = false
            report.notes.append(
                "\(viewerTallies.closed) viewer connections closed by the server (close codes: "
                    + viewerTallies.closeCodes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }
                    .joined(separator: ", ") + ")")
        }
        if viewerTallies.gaps > 0 {
            converged = false
            report.notes.append("\(viewerTallies.gaps) gaps")
        }
        if !viewerTallies.sampleErrors.isEmpty {
            converged = false
            report.notes.append(contentsOf: viewerTallies.sampleErrors.prefix(5))
        }
        let counts = tallies.counts.withLock { $0 }
        if !counts.staleWrong.isEmpty {
            converged = false
            report.notes.append("stale proposals not rejected staleTask: " + counts.staleWrong.joined(separator: "; "))
        }
        if tallies.inFlight.load(ordering: .relaxed) > 0 {
            converged = false
            report.notes.append("\(tallies.inFlight.load(ordering: .relaxed)) proposals unanswered")
        }
        tallies.ledger.check(notes: &report.notes, converged: &converged)
        if let path = configuration.answersPath { try tallies.ledger.writeConfirmed(to: path) }

        let cpu = cpuAfter - cpuBefore
        let deliveries = fleet.deliveredCount.load(ordering: .relaxed) - deliveriesBefore
        let confirmed = counts.outcomes["confirmed"] ?? 0
        let rejected = counts.outcomes.filter { $0.key != "confirmed" && $0.key != "noop" }.values.reduce(0, +)
        let finalVersion = fresh.values.map(\.version).max() ?? 0
        var pageLatencies: [Double] = []
        var pages = 0
        for watcher in watchers {
            watcher.state.withLock { state in
                pageLatencies += state.latencies
                pages += state.pages
            }
        }
        let connections = configuration.viewers + editors.count + watchers.count
        report.converged = converged
        report.fields = [
            ("viewers", Double(configuration.viewers)), ("editors", Double(editors.count)),
            ("watchers", Double(watchers.count)), ("plans", Double(configuration.plans.count)),
            ("all_subscribed_s", subscribedSeconds), ("duration_s", proposeSeconds),
            ("propose_start_unix_s", proposeStartUnix), ("propose_end_unix_s", proposeEndUnix),
            ("proposals", Double(counts.proposals)), ("confirmed", Double(confirmed)),
            ("noop", Double(counts.outcomes["noop"] ?? 0)), ("rejected", Double(rejected)),
            ("confirmed_per_s", Double(confirmed) / max(proposeSeconds, 0.001)),
            ("stale_sent", Double(counts.staleSent)), ("stale_rejected_stale", Double(counts.staleAnsweredStale)),
            ("final_version", Double(finalVersion)), ("deliveries", Double(deliveries)),
            ("frames", Double(viewerTallies.frames)),
            ("fragmented_messages", Double(viewerTallies.fragmentedMessages)), ("gaps", Double(viewerTallies.gaps)),
            ("converged", converged ? 1 : 0), ("pages", Double(pages)),
            ("viewer_closes", Double(viewerTallies.closed)), ("editor_reconnects", Double(counts.reconnects)),
            ("viewer_reconnects", Double(viewerTallies.reconnects)),
            ("viewers_resumed", Double(viewerTallies.resumed)),
            ("viewers_resumed_with_snapshot", Double(viewerTallies.resumeSnapshots)),
            (
                "resume_all_s",
                viewerTallies.firstDropAt > 0 && viewerTallies.lastResumeAt > viewerTallies.firstDropAt
                    ? Double(viewerTallies.lastResumeAt - viewerTallies.firstDropAt) / 1e9 : 0
            ),
            ("server_cpu_s", cpu), ("server_cpu_share", cpu / max(proposeSeconds, 0.001)),
            ("client_cpu_s", ownCPU), ("client_cpu_share", ownCPU / max(proposeSeconds, 0.001)),
            ("deliveries_per_client_cpu_s", ownCPU > 0 ? Double(deliveries) / ownCPU : 0),
            ("deliveries_per_server_cpu_s", cpu > 0 ? Double(deliveries) / cpu : 0),
            ("server_rss_kib", Double(rssKiB)),
            ("server_rss_kib_per_connection", Double(rssKiB) / Double(max(1, connections))),
        ]
        report.fields += tallies.ledger.fields
        let ack = counts.ackLatencies.sorted()
        let fanout = viewerTallies.latencies.sorted()
        let snapshot = viewerTallies.snapshotLatencies.sorted()
        let resume = viewerTallies.resumeLatencies.sorted()
        let page = pageLatencies.sorted()
        for (name, values) in [("ack", ack), ("fanout", fanout), ("page", page)] {
            report.fields += [
                ("\(name)_p50_ms", percentile(values, 0.5)), ("\(name)_p95_ms", percentile(values, 0.95)),
                ("\(name)_p99_ms", percentile(values, 0.99)), ("\(name)_max_ms", values.last ?? 0),
            ]
        }
        report.fields += [
            ("subscribe_p50_ms", percentile(snapshot, 0.5)), ("subscribe_p99_ms", percentile(snapshot, 0.99)),
            ("subscribe_max_ms", snapshot.last ?? 0), ("resume_p50_ms", percentile(resume, 0.5)),
            ("resume_p99_ms", percentile(resume, 0.99)), ("resume_max_ms", resume.last ?? 0),
        ]
        for (code, count) in counts.outcomes.sorted(by: { $0.key < $1.key }) {
            report.fields.append(("outcome_\(code)", Double(count)))
        }
        for (kind, count) in counts.kinds.sorted(by: { $0.key < $1.key }) {
            report.fields.append(("op_\(kind)", Double(count)))
        }
        report.latencies = [
            ("propose→ack", ack), ("commit→viewer fan-out", fanout), ("watch→page", page),
            ("connect→snapshot", snapshot), ("drop→resumed", resume),
        ]
        return report
    }

    /// The value at `fraction` of sorted values (0 when empty).
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * fraction))]
    }
}
