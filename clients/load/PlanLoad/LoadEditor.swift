import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization
import SystemSupport

/// What every editor's answers add up to.
final class EditorTallies: Sendable {
    struct Counts: Sendable {
        var ackLatencies: [Double] = []
        var outcomes: [String: Int] = [:]
        var kinds: [String: Int] = [:]
        var proposals = 0
        var staleSent = 0
        var staleAnsweredStale = 0
        var staleWrong: [String] = []
        var conflictSent = 0
        var conflictAnswered = 0
        var conflictStale = 0
        var conflictWrong: [String] = []
        var reconnects = 0
    }

    let counts = Locked(Counts())
    /// Proposals sent and not yet answered, all editors together.
    let inFlight = Atomic<Int>(0)
    /// Every decision by id, re-sends and `unavailable` answers.
    let ledger = AnswerLedger()
}

/// One editor: a `PlanConnection` subscribed to its plan (and watching the plan's timeline), that
/// forms realistic proposals from its confirmed copy: progress and date edits, title edits, adds
/// and removes, reorders, group changes, links and unlinks, timeline moves. Editors of one plan
/// split the tasks and entries between them by a hash of the id, so their proposals do not
/// collide; a task or entry with a proposal in flight is left alone until the answer. On
/// purpose, a share of the proposals names a stale original and must come back `staleTask`.
///
/// Every proposal id ends in `-sent=<monotonic ns>`, so every viewer can measure fan-out latency
/// from the `mutation.id` of the `confirmed` it receives.
final class LoadEditor: Sendable {
    struct Pending: Sendable {
        var sent: UInt64
        var kind: String
        var stale: Bool
        /// Formed to break a dependency of an automatic plan: must come back `scheduleConflict`.
        var conflict = false
        var busy: [String]
        var added: String?
        var removed: String?
        var original: GanttTask?
        var entry: String?
        /// What was proposed, to send again after `unavailable` (`--retry-unavailable`).
        var operation: PlanOperation?
    }

    struct State: Sendable {
        var pending: [String: Pending] = [:]
        var busy: Set<String> = []
        var added: [String] = []
        var originals: [String: GanttTask] = [:]
        var page: TimelinePage?
        var pageVersion = -1
        /// Entries moved by this editor: busy until a page of at least this version arrived.
        var entryWaits: [String: Int] = [:]
        var counter = 0
        /// The stale share owed so far: a proposal is stale once it reaches 1 (the first one is, when
        /// the ratio is above 0), so that a short run sends its share however few proposals it sends.
        var staleOwed = 1.0
        /// The conflict share owed so far, like `staleOwed`.
        var conflictOwed = 1.0
        var watchRequested = false
        /// Seeded per editor: a system generator here was a `getrandom` call per number.
        var random: SplitMix64
    }

    let connection: PlanConnection
    let plan: String
    let rank: Int
    let peers: Int
    let staleRatio: Double
    let conflictRatio: Double
    let window: Int
    let retryUnavailable: Bool
    let tallies: EditorTallies
    let running = Atomic<Bool>(true)
    /// Disconnected since the last welcome (the next one re-sends what is pending).
    let dropped = Atomic<Bool>(false)
    let state: Locked<State>
    /// The editor's number, and where a refusal by policy (1008) is recorded.
    let index: Int
    let refusal: Refusal

    init(
        configuration: LoadConfiguration, index: Int, transport: ClientTransport, tallies: EditorTallies,
        refusal: Refusal
    ) throws {
        self.index = index
        self.refusal = refusal
        plan = configuration.plans[index % configuration.plans.count]
        let editorsOnPlan = (0..<configuration.editors).filter {
            $0 % configuration.plans.count == index % configuration.plans.count
        }
        peers = editorsOnPlan.count
        rank = editorsOnPlan.firstIndex(of: index) ?? 0
        staleRatio = configuration.staleRatio
        conflictRatio = configuration.conflictRatio
        window = configuration.inFlight
        retryUnavailable = configuration.retryUnavailable
        self.tallies = tallies
        state = Locked(
            State(random: SplitMix64(seed: ProcessIO.monotonicNanoseconds() &+ UInt64(index) &* 0x9E37_79B9)))
        connection = try PlanConnection(
            options: .init(
                url: configuration.server, token: configuration.token, clientName: "plan-load/editor\(index)",
                reconnect: true),
            transport: transport)
    }

    /// Connects, subscribes, watches the timeline and starts listening. Answers are handled as
    /// they arrive, on the client transport's thread, so propose→ack is measured at arrival (as
    /// fan-out is) and not after a hop to a task.
    func start() -> Task<Void, Never> {
        let stream = connection.events
        connection.observeMessages(exclusively: true) { [self] message in handle(message) }
        let listener = Task { [self] in
            for await event in stream {
                switch event {
                case .message: break  // never: the observer has them
                case .disconnected(let code, let reason, let again):
                    refusal.record("editor \(index)", code: code, reason: reason)
                    guard again else { break }
                    tallies.counts.withLock { $0.reconnects += 1 }
                    dropped.store(true, ordering: .relaxed)
                case .welcome: break
                }
            }
        }
        connection.subscribe(plan)
        connection.start()
        return listener
    }

    /// Whether the copy and (if the plan has resources) a timeline page are there.
    var isReady: Bool {
        guard connection.isReady, let copy = connection.copy(of: plan) else { return false }
        if copy.snapshot.resources.isEmpty { return true }
        let (hasPage, watch) = state.withLock { state -> (Bool, Bool) in
            defer { state.watchRequested = true }
            return (state.page != nil, !state.watchRequested)
        }
        if watch, let query = timelineQuery(copy) { connection.watch(plan, query: query, id: "editor") }
        if !hasPage { return false }
        return true
    }

    private func timelineQuery(_ copy: ClientPlanCopy) -> TimelineQuery? {
        guard let start = try? LocalDateTime("2026-06-01T00:00"), let end = try? LocalDateTime("2027-07-01T00:00")
        else { return nil }
        return try? TimelineQuery(start: start, end: end, resourceIDs: copy.snapshot.resources.map(\.id))
    }

    private func handle(_ message: ServerMessage) {
        guard recordAnswer(message) else { return }
        switch message {
        case .ack(let id, _, let version, let noop, _):
            settle(id, outcome: noop ? "noop" : "confirmed", version: version, confirmed: !noop)
        case .rejected(let id, _, let code, let text, let version, _, _):
            settle(id, outcome: code.rawValue, version: version ?? 0, confirmed: false, message: text)
        case .page(_, .some("editor"), let version, _, let page, _):
            state.withLock { state in
                state.page = page
                state.pageVersion = version
                for (entry, wait) in state.entryWaits where wait <= version {
                    state.entryWaits[entry] = nil
                    state.busy.remove(entry)
                }
            }
        default:
            break
        }
    }

    private func settle(_ id: String, outcome: String, version: Int, confirmed: Bool, message: String = "") {
        let now = ProcessIO.monotonicNanoseconds()
        guard
            let pending = state.withLock({ state -> Pending? in
                guard let pending = state.pending.removeValue(forKey: id) else { return nil }
                for busy in pending.busy where busy != pending.entry { state.busy.remove(busy) }
                if let entry = pending.entry {
                    if confirmed, state.pageVersion < version {
                        state.entryWaits[entry] = version
                    } else {
                        state.busy.remove(entry)
                    }
                }
                if confirmed {
                    if let added = pending.added { state.added.append(added) }
                    if let removed = pending.removed { state.added.removeAll { $0 == removed } }
                    if let original = pending.original { state.originals[original.id] = original }
                }
                return pending
            })
        else { return }
        tallies.inFlight.wrappingSubtract(1, ordering: .relaxed)
        tallies.counts.withLock { counts in
            counts.ackLatencies.append(Double(now - pending.sent) / 1e6)
            counts.outcomes[outcome, default: 0] += 1
            if pending.stale {
                if outcome == "staleTask" {
                    counts.staleAnsweredStale += 1
                } else if counts.staleWrong.count < 10 {
                    counts.staleWrong.append("\(id): \(outcome) \(message)")
                } else {
                    counts.staleWrong.append("…")
                }
            } else if pending.conflict {
                // staleTask too: a cascade of another editor's may have pushed the task meanwhile.
                if outcome == "scheduleConflict" {
                    counts.conflictAnswered += 1
                } else if outcome == "staleTask" {
                    counts.conflictStale += 1
                } else if counts.conflictWrong.count < 10 {
                    counts.conflictWrong.append("\(id): \(outcome) \(message)")
                } else if counts.conflictWrong.last != "…" {
                    counts.conflictWrong.append("…")
                }
            } else if outcome != "confirmed", outcome != "noop", counts.outcomes[outcome] == 1 {
                ProcessIO.printError("note: \(pending.kind) \(id) came back \(outcome): \(message)")
            }
        }
        if window > 0, running.load(ordering: .relaxed) { proposeNext() }
    }

    /// Forms and sends one proposal from the confirmed copy.
    func proposeNext() {
        guard let copy = connection.copy(of: plan) else { return }
        let sent = ProcessIO.monotonicNanoseconds()
        let proposalID = connection.nextProposalID() + "-sent=\(sent)"
        let formed = state.withLock { state -> (PlanOperation, Pending)? in
            state.counter += 1
            var generator = state.random
            defer { state.random = generator }
            if staleRatio > 0, state.staleOwed >= 1,
                let stale = staleProposal(copy, &state, sent: sent, using: &generator)
            {
                state.staleOwed += staleRatio - 1
                return stale
            }
            if staleRatio > 0 { state.staleOwed += staleRatio }
            if conflictRatio > 0, state.conflictOwed >= 1,
                let conflict = conflictProposal(copy, state, sent: sent, using: &generator)
            {
                state.conflictOwed += conflictRatio - 1
                return conflict
            }
            if conflictRatio > 0 { state.conflictOwed += conflictRatio }
            for _ in 0..<4 {
                if let formed = realisticProposal(copy, &state, sent: sent, using: &generator) { return formed }
            }
            if state.added.count >= LoadEditor.ownTaskLimit,
                let remove = removeProposal(copy, &state, sent: sent, using: &generator)
            {
                return remove
            }
            return addProposal(copy, &state, sent: sent, using: &generator)
        }
        guard let (operation, formedPending) = formed else { return }
        var pending = formedPending
        pending.operation = operation
        state.withLock { state in
            state.pending[proposalID] = pending
            state.busy.formUnion(pending.busy)
        }
        tallies.inFlight.wrappingAdd(1, ordering: .relaxed)
        tallies.counts.withLock { counts in
            counts.proposals += 1
            counts.kinds[pending.kind, default: 0] += 1
            if pending.stale { counts.staleSent += 1 }
            if pending.conflict { counts.conflictSent += 1 }
        }
        connection.propose(operation, plan: plan, id: proposalID)
    }
}
