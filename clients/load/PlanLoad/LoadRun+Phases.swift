import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

/// The phases of a run, in order: viewers subscribe, editors and watchers get ready, the load,
/// the settling, a fresh snapshot to compare with.
extension LoadRun {
    /// Opens the viewers, ramped (or all at once), with a progress line every second; returns the
    /// seconds until all were subscribed.
    static func connectViewers(
        _ fleet: ViewerFleet, _ configuration: LoadConfiguration, notes: inout [String]
    ) async throws -> Double {
        let connectStart = ProcessIO.monotonicNanoseconds()
        var opened = 0
        var lastProgress = connectStart
        while fleet.subscribedCount.load(ordering: .relaxed) < configuration.viewers {
            try fleet.refusal.check()
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
                notes.append("only \(fleet.subscribedCount.load(ordering: .relaxed)) viewers subscribed in time")
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
                notes.append("only \(subscribed) viewers subscribed; \(closed) connections closed")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let subscribedSeconds = Double(ProcessIO.monotonicNanoseconds() - connectStart) / 1e9
        ProcessIO.printError(
            "all \(fleet.subscribedCount.load(ordering: .relaxed)) viewers subscribed after \(subscribedSeconds) s")
        return subscribedSeconds
    }

    /// Waits (30 s at most) until every editor and watcher holds its plan.
    static func waitUntilReady(
        _ editors: [LoadEditor], _ watchers: [TimelineWatcher], refusal: Refusal, notes: inout [String]
    ) async throws {
        let readyStart = ProcessIO.monotonicNanoseconds()
        while !editors.allSatisfy(\.isReady) || !watchers.allSatisfy({ $0.connection.copy(of: $0.plan) != nil }) {
            try refusal.check()
            if Double(ProcessIO.monotonicNanoseconds() - readyStart) / 1e9 > 30 {
                notes.append("editors or watchers not ready after 30 s")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The load: editors propose at the rate (or keep proposals in flight), watchers move their
    /// windows, a progress line every second, for the configured duration.
    static func applyLoad(_ configuration: LoadConfiguration, _ actors: LoadActors) async throws -> LoadWindow {
        let (editors, watchers, tallies) = (actors.editors, actors.watchers, actors.tallies)
        // Where each plan stands before the load, to know how many deliveries the viewers must
        // end up with.
        var window = LoadWindow(startVersions: actors.versions())
        window.cpuBefore = configuration.serverPID.map(processCPUSeconds) ?? 0
        window.ownCPUBefore = processCPUSeconds(getpid())
        window.deliveriesBefore = actors.fleet.deliveredCount.load(ordering: .relaxed)
        let proposeStart = ProcessIO.monotonicNanoseconds()
        window.startUnix = ProcessIO.unixSeconds()
        let end = proposeStart + UInt64(configuration.duration * 1e9)
        if configuration.inFlight > 0 {
            for editor in editors { for _ in 0..<configuration.inFlight { editor.proposeNext() } }
        }
        /// When the `n`th proposal of a run at a rate is due.
        func due(_ n: Int) -> UInt64 { proposeStart + UInt64(Double(n) / configuration.rate * 1e9) }
        var number = 0
        var nextMove = proposeStart
        var nextProgress = proposeStart + 1_000_000_000
        while true {
            let now = ProcessIO.monotonicNanoseconds()
            if configuration.inFlight == 0, !editors.isEmpty {
                // Every proposal due by now goes out, those due before the end also after a late
                // wake-up: a run of D seconds at R a second proposes R × D times however this task
                // was scheduled (on a starved machine it woke past the end and proposed 4 of 150).
                while due(number) <= now, due(number) < end {
                    editors[number % editors.count].proposeNext()
                    number += 1
                }
            }
            if now >= end { break }
            try actors.refusal.check()
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
                        + "\(actors.fleet.disconnectedCount.load(ordering: .relaxed)) viewers disconnected")
            }
            let nextDue =
                configuration.inFlight == 0 && !editors.isEmpty
                ? due(number) : now + 50_000_000
            let wake = min(nextDue, watchers.isEmpty ? nextDue : nextMove, end, nextProgress)
            if wake > now { try await Task.sleep(for: .nanoseconds(Int(min(wake - now, 50_000_000)))) }
        }
        for editor in editors { editor.running.store(false, ordering: .relaxed) }
        window.seconds = Double(ProcessIO.monotonicNanoseconds() - proposeStart) / 1e9
        window.endUnix = ProcessIO.unixSeconds()
        return window
    }

    /// Waits for every answer, then for every viewer to settle (and, after a restart, resume);
    /// records the CPU and memory figures on the way.
    static func settle(_ configuration: LoadConfiguration, _ actors: LoadActors, window: inout LoadWindow) async throws
    {
        let (fleet, tallies) = (actors.fleet, actors.tallies)
        let waitStart = ProcessIO.monotonicNanoseconds()
        let settle = configuration.settleTimeout
        while tallies.inFlight.load(ordering: .relaxed) > 0,
            Double(ProcessIO.monotonicNanoseconds() - waitStart) / 1e9 < settle
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        window.cpuAfter = configuration.serverPID.map(processCPUSeconds) ?? 0
        window.ownCPU = processCPUSeconds(getpid()) - window.ownCPUBefore
        window.rssKiB = configuration.serverPID.map(processRSSKiB) ?? 0
        // Every viewer must receive every confirmed version from the start version to the final
        // one: wait for that many deliveries (an overloaded server may pause a connection for
        // seconds). After a resume with a snapshot the count differs; there, and without editors,
        // deliveries that stop moving for two seconds end the wait.
        try await Task.sleep(for: .milliseconds(200))
        let finalVersions = actors.versions()
        var expected = 0
        for index in 0..<configuration.viewers {
            let plan = fleet.plan(of: index)
            expected += max(0, (finalVersions[plan] ?? 0) - (window.startVersions[plan] ?? 0))
        }
        var stable = 0
        var previous = -1
        while Double(ProcessIO.monotonicNanoseconds() - waitStart) / 1e9 < 3 * settle {
            let now = fleet.deliveredCount.load(ordering: .relaxed)
            let resumedAll = fleet.disconnectedCount.load(ordering: .relaxed) == 0
            if resumedAll, now - window.deliveriesBefore >= expected, stable >= 2 { break }
            if resumedAll, configuration.reconnect || actors.editors.isEmpty, stable >= 20 { break }
            try await Task.sleep(for: .milliseconds(100))
            stable = now == previous ? stable + 1 : 0
            previous = now
        }
    }

    /// A fresh snapshot of every plan, on a connection of its own (closed and stopped by the caller).
    static func freshSnapshots(
        _ configuration: LoadConfiguration
    ) async throws -> (PlanConnection, ClientTransport, [String: ClientPlanCopy]) {
        let checkTransport = try ClientTransport()
        let checker = try PlanConnection(
            options: .init(
                url: configuration.server, token: configuration.token, clientName: "plan-load/check", reconnect: false),
            transport: checkTransport)
        for plan in configuration.plans { checker.subscribe(plan) }
        checker.start()
        let checkStart = ProcessIO.monotonicNanoseconds()
        while configuration.plans.contains(where: { checker.copy(of: $0) == nil }),
            Double(ProcessIO.monotonicNanoseconds() - checkStart) / 1e9 < configuration.settleTimeout
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        var fresh: [String: ClientPlanCopy] = [:]
        for plan in configuration.plans { fresh[plan] = checker.copy(of: plan) }
        return (checker, checkTransport, fresh)
    }
}
