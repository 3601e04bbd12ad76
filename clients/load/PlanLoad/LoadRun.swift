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
        let refusal = Refusal()
        let fleet = ViewerFleet(
            configuration: configuration, transport: viewerTransport, endpoint: endpoint, refusal: refusal)
        var report = Report()
        let subscribedSeconds = try await connectViewers(fleet, configuration, notes: &report.notes)

        // Editors and watchers.
        let tallies = EditorTallies()
        let editorTransports = try (0..<configuration.effectiveEditorThreads).map { _ in
            try ClientTransport()
        }
        defer { for editorTransport in editorTransports { editorTransport.stop() } }
        let editors = try (0..<configuration.editors).map {
            try LoadEditor(
                configuration: configuration, index: $0, transport: editorTransports[$0 % editorTransports.count],
                tallies: tallies, refusal: refusal)
        }
        let watchers = try (0..<configuration.watchers).map {
            try TimelineWatcher(configuration: configuration, index: $0, transport: transport, refusal: refusal)
        }
        var listeners = editors.map { $0.start() } + watchers.map { $0.start() }
        try await waitUntilReady(editors, watchers, refusal: refusal, notes: &report.notes)

        let actors = LoadActors(
            fleet: fleet, editors: editors, watchers: watchers, tallies: tallies, refusal: refusal)
        var window = try await applyLoad(configuration, actors)
        try await settle(configuration, actors, window: &window)
        let (checker, checkTransport, fresh) = try await freshSnapshots(configuration)

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

        report.converged = check(configuration, actors, fresh: fresh, notes: &report.notes)
        if let path = configuration.answersPath { try tallies.ledger.writeConfirmed(to: path) }
        report.record(
            configuration, actors, window: window, subscribedSeconds: subscribedSeconds,
            finalVersion: fresh.values.map(\.version).max() ?? 0)
        return report
    }

    /// The value at `fraction` of sorted values (0 when empty).
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * fraction))]
    }
}

/// Who takes part in a run.
struct LoadActors {
    let fleet: ViewerFleet
    let editors: [LoadEditor]
    let watchers: [TimelineWatcher]
    let tallies: EditorTallies
    /// A refusal by policy (1008) that stops the run.
    let refusal: Refusal

    /// Where each plan stands (from the editors' copies).
    func versions() -> [String: Int] {
        var result: [String: Int] = [:]
        for editor in editors {
            if let version = editor.connection.copy(of: editor.plan)?.version {
                result[editor.plan] = max(result[editor.plan] ?? 0, version)
            }
        }
        return result
    }
}

/// What was measured around the load itself.
struct LoadWindow {
    var startVersions: [String: Int] = [:]
    var cpuBefore = 0.0
    var ownCPUBefore = 0.0
    var deliveriesBefore = 0
    var startUnix = 0.0
    var endUnix = 0.0
    var seconds = 0.0
    var cpuAfter = 0.0
    var ownCPU = 0.0
    var rssKiB = 0
}
