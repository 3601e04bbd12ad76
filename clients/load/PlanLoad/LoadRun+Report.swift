import PlanProtocol

/// What a run checks at the end, and the figures it reports.
extension LoadRun {
    /// Whether every check passed; the reasons of those that failed go to `notes`.
    static func check(
        _ configuration: LoadConfiguration, _ actors: LoadActors, fresh: [String: ClientPlanCopy],
        notes: inout [String]
    ) -> Bool {
        let viewerTallies = actors.fleet.tallies
        var converged = true
        for plan in configuration.plans {
            guard let copy = fresh[plan] else {
                notes.append("no fresh snapshot of \(plan)")
                converged = false
                continue
            }
            converged = checkPlan(plan, copy: copy, configuration, actors, notes: &notes) && converged
        }
        if !configuration.reconnect, viewerTallies.closed > 0 {
            converged = false
            notes.append(
                "\(viewerTallies.closed) viewer connections closed by the server (close codes: "
                    + viewerTallies.closeCodes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }
                    .joined(separator: ", ") + ")")
        }
        if viewerTallies.gaps > 0 {
            converged = false
            notes.append("\(viewerTallies.gaps) gaps")
        }
        if !viewerTallies.sampleErrors.isEmpty {
            converged = false
            notes.append(contentsOf: viewerTallies.sampleErrors.prefix(5))
        }
        let counts = actors.tallies.counts.withLock { $0 }
        if !counts.conflictWrong.isEmpty {
            converged = false
            notes.append(
                "conflicting proposals not rejected scheduleConflict: " + counts.conflictWrong.joined(separator: "; "))
        }
        if !counts.staleWrong.isEmpty {
            converged = false
            notes.append("stale proposals not rejected staleTask: " + counts.staleWrong.joined(separator: "; "))
        }
        if actors.tallies.inFlight.load(ordering: .relaxed) > 0 {
            converged = false
            notes.append("\(actors.tallies.inFlight.load(ordering: .relaxed)) proposals unanswered")
        }
        actors.tallies.ledger.check(notes: &notes, converged: &converged)
        return converged
    }

    /// One plan's checks: every viewer at the final version, one stream per start version, the
    /// editors' and the sample viewers' copies equal to the fresh snapshot.
    private static func checkPlan(
        _ plan: String, copy: ClientPlanCopy, _ configuration: LoadConfiguration, _ actors: LoadActors,
        notes: inout [String]
    ) -> Bool {
        let (fleet, viewerTallies) = (actors.fleet, actors.fleet.tallies)
        var converged = true
        let members = (0..<configuration.viewers).filter { fleet.plan(of: $0) == plan }
        let behind = members.filter { viewerTallies.lastVersion[$0] != copy.version }
        if !behind.isEmpty {
            converged = false
            notes.append(
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
            notes.append("viewers of \(plan) from version \(version) saw \(hashes.count) different streams")
        }
        // Editors apply every change to their copies too (they form proposals from them).
        for (index, editor) in actors.editors.enumerated() where editor.plan == plan {
            let own = editor.connection.copy(of: plan)
            if own != copy {
                converged = false
                notes.append(
                    "editor \(index) of \(plan) diverges from a fresh snapshot"
                        + " (version \(own?.version ?? -1) vs \(copy.version))")
            }
        }
        for member in members where member < fleet.sample && viewerTallies.copies[member] != copy {
            converged = false
            notes.append(
                "sample viewer \(member) of \(plan) diverges from a fresh snapshot"
                    + " (version \(viewerTallies.copies[member]?.version ?? -1) vs \(copy.version))")
        }
        return converged
    }
}

extension LoadRun.Report {
    /// Fills in the figures and latency distributions of a finished run.
    mutating func record(
        _ configuration: LoadConfiguration, _ actors: LoadActors, window: LoadWindow, subscribedSeconds: Double,
        finalVersion: Int
    ) {
        let (viewerTallies, tallies) = (actors.fleet.tallies, actors.tallies)
        let counts = tallies.counts.withLock { $0 }
        let cpu = window.cpuAfter - window.cpuBefore
        let ownCPU = window.ownCPU
        let proposeSeconds = window.seconds
        let deliveries = actors.fleet.deliveredCount.load(ordering: .relaxed) - window.deliveriesBefore
        let confirmed = counts.outcomes["confirmed"] ?? 0
        let rejected = counts.outcomes.filter { $0.key != "confirmed" && $0.key != "noop" }.values.reduce(0, +)
        var pageLatencies: [Double] = []
        var pages = 0
        for watcher in actors.watchers {
            watcher.state.withLock { state in
                pageLatencies += state.latencies
                pages += state.pages
            }
        }
        let connections = configuration.viewers + actors.editors.count + actors.watchers.count
        let rssKiB = Double(window.rssKiB)
        fields = [
            ("viewers", Double(configuration.viewers)), ("editors", Double(actors.editors.count)),
            ("watchers", Double(actors.watchers.count)), ("plans", Double(configuration.plans.count)),
            ("all_subscribed_s", subscribedSeconds), ("duration_s", proposeSeconds),
            ("propose_start_unix_s", window.startUnix), ("propose_end_unix_s", window.endUnix),
            ("proposals", Double(counts.proposals)), ("confirmed", Double(confirmed)),
            ("noop", Double(counts.outcomes["noop"] ?? 0)), ("rejected", Double(rejected)),
            ("confirmed_per_s", Double(confirmed) / max(proposeSeconds, 0.001)),
            ("stale_sent", Double(counts.staleSent)), ("stale_rejected_stale", Double(counts.staleAnsweredStale)),
            ("conflict_sent", Double(counts.conflictSent)),
            ("conflict_rejected_conflict", Double(counts.conflictAnswered)),
            ("conflict_rejected_stale", Double(counts.conflictStale)),
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
            ("server_rss_kib", rssKiB), ("server_rss_kib_per_connection", rssKiB / Double(max(1, connections))),
        ]
        fields += tallies.ledger.fields
        recordLatencies(counts: counts, viewerTallies: viewerTallies, pages: pageLatencies.sorted())
    }

    private mutating func recordLatencies(
        counts: EditorTallies.Counts, viewerTallies: ViewerFleet.Tallies, pages page: [Double]
    ) {
        let percentile = LoadRun.percentile
        let ack = counts.ackLatencies.sorted()
        let fanout = viewerTallies.latencies.sorted()
        let snapshot = viewerTallies.snapshotLatencies.sorted()
        let resume = viewerTallies.resumeLatencies.sorted()
        for (name, values) in [("ack", ack), ("fanout", fanout), ("page", page)] {
            fields += [
                ("\(name)_p50_ms", percentile(values, 0.5)), ("\(name)_p95_ms", percentile(values, 0.95)),
                ("\(name)_p99_ms", percentile(values, 0.99)), ("\(name)_max_ms", values.last ?? 0),
            ]
        }
        fields += [
            ("subscribe_p50_ms", percentile(snapshot, 0.5)), ("subscribe_p99_ms", percentile(snapshot, 0.99)),
            ("subscribe_max_ms", snapshot.last ?? 0), ("resume_p50_ms", percentile(resume, 0.5)),
            ("resume_p99_ms", percentile(resume, 0.99)), ("resume_max_ms", resume.last ?? 0),
        ]
        for (code, count) in counts.outcomes.sorted(by: { $0.key < $1.key }) {
            fields.append(("outcome_\(code)", Double(count)))
        }
        for (kind, count) in counts.kinds.sorted(by: { $0.key < $1.key }) {
            fields.append(("op_\(kind)", Double(count)))
        }
        latencies = [
            ("propose→ack", ack), ("commit→viewer fan-out", fanout), ("watch→page", page),
            ("connect→snapshot", snapshot), ("drop→resumed", resume),
        ]
    }
}
