import PlanStore
import Synchronization
import SystemSupport
import WebSocketServer
import WebSocketWire

/// The server's counters and latency histograms, rendered in the Prometheus text format for
/// `GET /metrics`. Safe to update from any thread.
public final class Metrics: Sendable {
    /// A latency histogram in seconds with fixed buckets.
    final class Histogram: Sendable {
        static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
        let state = Locked<(counts: [Int], sum: Double, count: Int)>(
            ([Int](repeating: 0, count: Histogram.bounds.count), 0, 0))

        func observe(_ seconds: Double) {
            state.withLock { state in
                if let index = Histogram.bounds.firstIndex(where: { seconds <= $0 }) { state.counts[index] += 1 }
                state.sum += seconds
                state.count += 1
            }
        }

        func render(_ name: String, help: String, into text: inout String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
            renderSeries(name, labels: "", into: &text)
        }

        /// The buckets, sum and count, each with `labels` (`stage="x",`) before `le`.
        func renderSeries(_ name: String, labels: String, into text: inout String) {
            let (counts, sum, count) = state.withLock { $0 }
            var cumulative = 0
            for (bound, bucket) in zip(Histogram.bounds, counts) {
                cumulative += bucket
                text += "\(name)_bucket{\(labels)le=\"\(bound)\"} \(cumulative)\n"
            }
            let plain = labels.isEmpty ? "" : "{\(labels.dropLast())}"
            text +=
                "\(name)_bucket{\(labels)le=\"+Inf\"} \(count)\n\(name)_sum\(plain) \(sum)\n\(name)_count\(plain) \(count)\n"
        }
    }

    let connections = Atomic<Int>(0)
    let subscriptions = Atomic<Int>(0)
    let loadedPlans = Atomic<Int>(0)
    let proposals = Locked<[String: Int]>([:])
    let trimmedLogRows = Atomic<Int>(0)
    /// Turns a session gave up with requests still waiting (`TurnBudget`).
    let yieldedTurns = Atomic<Int>(0)
    /// Transactions made for commits (one for all the plans of a group, or one per plan after a split).
    let commitTransactions = Atomic<Int>(0)
    /// Groups of commits whose transaction failed, then committed plan by plan (`CommitGroups`).
    let splitCommitGroups = Atomic<Int>(0)
    let commitLatency = Histogram()
    let fanoutLatency = Histogram()
    /// The database's durability as last read, and its connections' events (`renderDatabase`).
    let database = Locked<(durability: DatabaseDurability?, events: ConnectionEvents?)>((nil, nil))

    /// Where a proposal's time goes between its message and its answer, stage by stage
    /// (`chronosketch_stage_seconds{stage=…}`; publishing a commit is `chronosketch_fanout_seconds`):
    /// what `ops/bench commits` breaks down.
    enum Stage: String, CaseIterable, Sendable {
        /// An event waiting for the hub after it was posted (a message read, a result returned).
        case hubWait = "hub_wait"
        /// The hub handling one message: decoding, judging, queueing the answers it decided.
        case hubMessage = "hub_message"
        /// A commit waiting for its worker thread.
        case commitQueued = "commit_queued"
        /// A commit on its worker: encoding the rows, then one round trip with the transaction
        /// (its fsync wait included); once per group of plans committed together. Its three
        /// parts follow, once per transaction.
        case commitTransaction = "commit_transaction"
        /// Building a commit's statements, waiting for a pooled connection and sending them (mostly
        /// waiting, not encoding).
        case commitEncode = "commit_encode"
        /// The database executing a commit's statements, until the last result came back.
        case commitExecute = "commit_execute"
        /// The commit confirmed after the statements ran: the WAL flush (fsync) and its answer.
        case commitSync = "commit_sync"
        /// A `history` page on its worker: read, then encoded.
        case historyRead = "history_read"
        /// A `fetch` on its worker: the checkpoint and the log read, the version rebuilt, encoded.
        case fetchRebuild = "fetch_rebuild"
    }

    /// One histogram per stage.
    let stages: [Stage: Histogram] = Dictionary(uniqueKeysWithValues: Stage.allCases.map { ($0, Histogram()) })

    /// Records the time one stage took.
    func observe(_ stage: Stage, _ duration: Duration) {
        stages[stage]?.observe(duration.inSeconds)
    }

    /// Creates zeroed metrics.
    public init() {}

    /// Applies a change the hub decided.
    func record(_ measurement: Measurement) {
        switch measurement {
        case .connections(let delta): connections.wrappingAdd(delta, ordering: .relaxed)
        case .subscriptions(let delta): subscriptions.wrappingAdd(delta, ordering: .relaxed)
        case .loadedPlans(let delta): loadedPlans.wrappingAdd(delta, ordering: .relaxed)
        case .decided(.confirmed): countProposal(outcome: "confirmed")
        case .decided(.noop): countProposal(outcome: "noop")
        case .decided(.rejected(let code)): countProposal(outcome: "rejected", code: code.rawValue)
        case .yieldedTurn: yieldedTurns.wrappingAdd(1, ordering: .relaxed)
        case .commitLatency(let duration): commitLatency.observe(duration.inSeconds)
        case .trimmedLogRows(let count): trimmedLogRows.wrappingAdd(count, ordering: .relaxed)
        }
    }

    /// Counts one settled proposal: `outcome` is confirmed, noop or rejected; `code` the rejection code.
    func countProposal(outcome: String, code: String? = nil) {
        let key = code.map { "outcome=\"\(outcome)\",code=\"\($0)\"" } ?? "outcome=\"\(outcome)\""
        proposals.withLock { $0[key, default: 0] += 1 }
    }

    /// What the transport reports for `/metrics`.
    public struct TransportFigures: Sendable {
        /// Bytes queued and not yet written (a buffer counted once per connection it waits for).
        public var queuedBytes = 0
        /// Bytes the send queues hold, each buffer counted once, and the budget for them.
        public var heldBytes = 0
        public var queueBudget = 0
        /// The share of one user's connections, and how long unsent bytes may make no progress.
        public var userQueueShare = 0
        public var writeTimeoutSeconds = 0
        /// Messages read and not yet taken by the hub.
        public var intakeBacklog = 0
        /// Times reading a connection was paused because the hub was behind.
        public var intakePauses = 0
        /// Connections refused because their address (a proxied client's, once known) held its limit.
        public var refusedConnections = 0
        /// Broadcast passes shared with write helpers, and the connections the helpers wrote.
        public var sharedPasses = 0
        public var helperWrittenConnections = 0
        /// Connections closed by one of the transport's bounds, by bound.
        public var closes: [CloseCause: Int] = [:]

        /// No figures (a transport that is not running yet).
        public init() {}

        /// The figures of `transport` now.
        public init(_ transport: WebSocketTransport) {
            queuedBytes = transport.queuedBytes
            heldBytes = transport.ledger.heldBytes
            queueBudget = transport.ledger.budget
            userQueueShare = transport.ledger.accountShare
            writeTimeoutSeconds = Int(transport.configuration.connection.writeTimeout / 1_000_000_000)
            intakeBacklog = transport.intakeWaiting
            intakePauses = transport.intakePauses
            sharedPasses = transport.sharedPassCount
            helperWrittenConnections = transport.helperWrittenConnections
            refusedConnections = transport.refusedConnectionCount
            closes = transport.boundedCloses
        }
    }

    /// The Prometheus text exposition, with the transport's figures.
    public func render(_ transport: TransportFigures) -> String {
        let queuedBytes = transport.queuedBytes
        var text = ""
        func gauge(_ name: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
        }
        func counter(_ name: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(value)\n"
        }
        gauge("chronosketch_connections", "Open WebSocket connections.", connections.load(ordering: .relaxed))
        gauge("chronosketch_subscriptions", "Plan subscriptions.", subscriptions.load(ordering: .relaxed))
        gauge("chronosketch_loaded_plans", "Plans held in memory.", loadedPlans.load(ordering: .relaxed))
        gauge("chronosketch_send_queue_bytes", "Bytes queued and not yet written to sockets.", queuedBytes)
        renderBudgets(transport, into: &text)
        renderDatabase(into: &text)
        gauge(
            "chronosketch_intake_backlog", "Messages read from sockets and not yet handled by the hub.",
            transport.intakeBacklog)
        counter(
            "chronosketch_intake_pauses_total", "Times a connection was not read because the hub was behind.",
            transport.intakePauses)
        counter(
            "chronosketch_shared_passes_total",
            "Broadcast passes to 1024 connections or more after a quiet while, shared with write helpers.",
            transport.sharedPasses)
        counter(
            "chronosketch_helper_written_connections_total",
            "Connections the write helpers wrote in shared broadcast passes.", transport.helperWrittenConnections)
        text += "# HELP chronosketch_proposals_total Proposals settled, by outcome and rejection code.\n"
        text += "# TYPE chronosketch_proposals_total counter\n"
        for (labels, count) in proposals.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            text += "chronosketch_proposals_total{\(labels)} \(count)\n"
        }
        counter(
            "chronosketch_log_rows_trimmed_total", "Mutation log rows deleted behind the kept versions.",
            trimmedLogRows.load(ordering: .relaxed))
        counter(
            "chronosketch_yielded_turns_total", "Turns a session gave up with requests still waiting.",
            yieldedTurns.load(ordering: .relaxed))
        counter(
            "chronosketch_commit_transactions_total", "Transactions made for commits (a group of plans is one).",
            commitTransactions.load(ordering: .relaxed))
        counter(
            "chronosketch_commit_groups_split_total", "Groups of commits that failed together, then went alone.",
            splitCommitGroups.load(ordering: .relaxed))
        commitLatency.render(
            "chronosketch_commit_seconds", help: "Time of one plan's group commit, from its start to its result.",
            into: &text)
        fanoutLatency.render(
            "chronosketch_fanout_seconds",
            help: "Time from COMMIT to the confirmed message queued to every subscriber.",
            into: &text)
        text += "# HELP chronosketch_stage_seconds Time spent in each stage between a message and its answer.\n"
        text += "# TYPE chronosketch_stage_seconds histogram\n"
        for stage in Stage.allCases {
            stages[stage]?.renderSeries(
                "chronosketch_stage_seconds", labels: "stage=\"\(stage.rawValue)\",", into: &text)
        }
        return text
    }
}

extension Metrics {
    /// The bounds of unsent data and of connections, and how often each closed a connection.
    func renderBudgets(_ transport: TransportFigures, into text: inout String) {
        func line(_ name: String, _ type: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        line(
            "chronosketch_send_queue_held_bytes", "gauge",
            "Memory the send queues hold, each buffer counted once however many connections wait for it.",
            transport.heldBytes)
        line(
            "chronosketch_send_queue_budget_bytes", "gauge",
            "The budget of chronosketch_send_queue_held_bytes (0: none); past it the heaviest connections close.",
            transport.queueBudget)
        line(
            "chronosketch_user_queue_share_bytes", "gauge",
            "Unsent bytes one user's connections may be charged together (welcome.limits.maxUserQueueBytes).",
            transport.userQueueShare)
        line(
            "chronosketch_write_timeout_seconds", "gauge",
            "Seconds unsent bytes may make no progress before their connection closes (writeTimeoutSeconds).",
            transport.writeTimeoutSeconds)
        line(
            "chronosketch_connections_refused_total", "counter",
            "Connections refused because their address (a proxied client's) held --max-connections-per-address.",
            transport.refusedConnections)
        text += "# HELP chronosketch_bounded_closes_total Connections closed by a bound, by bound.\n"
        text += "# TYPE chronosketch_bounded_closes_total counter\n"
        let causes: [(CloseCause, String)] = [
            (.queueFull, "queue_full"), (.writeTimeout, "write_timeout"), (.silentPeer, "silent_peer"),
            (.memoryBudget, "memory_budget"), (.accountShare, "user_share"),
        ]
        for (cause, label) in causes {
            text += "chronosketch_bounded_closes_total{bound=\"\(label)\"} \(transport.closes[cause, default: 0])\n"
        }
    }
}
