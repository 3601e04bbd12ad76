import Glibc

/// What `plan-load` runs: where, how many viewers, editors and watchers, how fast and how long.
public struct LoadConfiguration: Sendable {
    /// ws://host:port/ws of the server.
    public var server: String
    /// A token with editor rights on the plans (viewers and watchers use it too).
    public var token: String
    /// The plans to load; viewers and editors are spread over them round robin.
    public var plans: [String]
    /// Subscribing viewers.
    public var viewers = 100
    /// Viewers opened per second while ramping up; 0 opens them all at once (a subscribe storm).
    public var ramp = 2000.0
    /// Viewers that decode every frame in full and apply it to a copy, compared with a fresh
    /// snapshot at the end.
    public var sampleViewers = 20
    /// Viewers on the lws client transport (as editors are) instead of plain sockets, whose
    /// frame parsing costs a fraction of lws's per message (`wss://` always uses lws).
    public var viewersOnLWS = false
    /// Editors proposing.
    public var editors = 1
    /// lws client contexts the editors are spread over, each served by a thread of its own (at
    /// most one per editor); nil: one per processor when editors keep proposals in flight (an
    /// editor decodes and applies every confirmed change, and on one thread the editors' work
    /// lies in every answer's path), else one.
    public var editorThreads: Int?

    /// The editor threads this configuration runs.
    public var effectiveEditorThreads: Int {
        let threads = editorThreads ?? (inFlight > 0 ? sysconf(Int32(_SC_NPROCESSORS_ONLN)) : 1)
        return min(editors, max(1, threads))
    }
    /// Proposals per second, all editors together (ignored when `inFlight` > 0).
    public var rate = 10.0
    /// When above 0, each editor keeps this many proposals in flight, proposing again as soon as
    /// one is answered: as fast as the server confirms.
    public var inFlight = 0
    /// Seconds of proposing.
    public var duration = 10.0
    /// Timeline watchers with moving windows.
    public var watchers = 0
    /// Seconds between a watcher's window moves.
    public var watchInterval = 1.0
    /// The share of proposals built on stale originals on purpose (they must be rejected `staleTask`):
    /// spread evenly over each editor's proposals, its first one stale.
    public var staleRatio = 0.0
    /// In an automatic plan, the share of proposals that move a task before its predecessor ends
    /// on purpose (they must be rejected `scheduleConflict`), spread like the stale ones.
    public var conflictRatio = 0.0
    /// Viewers reconnect after a drop and resume with `since` (for a server restart during the run).
    public var reconnect = false
    /// Editors send a proposal answered `unavailable` again with its id (as a real client does)
    /// until it is decided, instead of counting the answer as its outcome.
    public var retryUnavailable = false
    /// Where to write the confirmed proposals (`VERSION ID` a line), to compare with the plan's log.
    public var answersPath: String?
    /// Seconds to wait at most for every viewer to hold its snapshot.
    public var connectTimeout = 120.0
    /// A plain-socket viewer that hears nothing for this many seconds drops its connection (and
    /// reconnects with `--reconnect`): a cut link shows no error. It pings the server 10 s before
    /// (the web client's 25 + 10 s by default). 0: never.
    public var idleTimeout = 35.0
    /// Seconds to wait after the load for answers and for the fresh snapshot (three times that
    /// for the viewers to settle) before judging what arrived.
    public var settleTimeout = 60.0
    /// The server's process id, for CPU and memory figures.
    public var serverPID: Int32?
    /// One JSON object instead of a table.
    public var json = false

    /// Creates a configuration.
    public init(server: String, token: String, plans: [String]) {
        self.server = server
        self.token = token
        self.plans = plans
    }
}
