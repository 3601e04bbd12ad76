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
        var reconnects = 0
    }

    let counts = Mutex(Counts())
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
        var watchRequested = false
        /// Seeded per editor: a system generator here was a `getrandom` call per number.
        var random: SplitMix64
    }

    let connection: PlanConnection
    let plan: String
    let rank: Int
    let peers: Int
    let staleRatio: Double
    let window: Int
    let retryUnavailable: Bool
    let tallies: EditorTallies
    let running = Atomic<Bool>(true)
    /// Disconnected since the last welcome (the next one re-sends what is pending).
    let dropped = Atomic<Bool>(false)
    let state: Mutex<State>

    init(
        configuration: LoadConfiguration, index: Int, transport: ClientTransport, tallies: EditorTallies
    ) throws {
        plan = configuration.plans[index % configuration.plans.count]
        let editorsOnPlan = (0..<configuration.editors).filter {
            $0 % configuration.plans.count == index % configuration.plans.count
        }
        peers = editorsOnPlan.count
        rank = editorsOnPlan.firstIndex(of: index) ?? 0
        staleRatio = configuration.staleRatio
        window = configuration.inFlight
        retryUnavailable = configuration.retryUnavailable
        self.tallies = tallies
        state = Mutex(State(random: SplitMix64(seed: ProcessIO.monotonicNanoseconds() &+ UInt64(index) &* 0x9E37_79B9)))
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
                case .disconnected(_, _, let again):
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
        case .rejected(let id, _, let code, let text, let version, _):
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
            if Double.random(in: 0..<1, using: &generator) < staleRatio,
                let stale = staleProposal(copy, &state, sent: sent, using: &generator)
            {
                return stale
            }
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
        }
        connection.propose(operation, plan: plan, id: proposalID)
    }

    // MARK: Forming proposals

    private func owns(_ id: String) -> Bool {
        var hash = fnvOffsetBasis
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(max(1, peers))) == rank
    }

    /// A random task of the copy that this editor owns, is free and satisfies `accept`.
    private func pick(
        _ copy: ClientPlanCopy, _ state: State, using generator: inout SplitMix64,
        where accept: (GanttTask) -> Bool
    ) -> GanttTask? {
        let tasks = copy.tasks
        guard !tasks.isEmpty else { return nil }
        for _ in 0..<24 {
            let task = tasks[Int.random(in: 0..<tasks.count, using: &generator)]
            if owns(task.id), !state.busy.contains(task.id), accept(task) { return task }
        }
        return nil
    }

    private func randomSummary(
        _ copy: ClientPlanCopy, using generator: inout SplitMix64
    ) -> GanttTask? {
        let tasks = copy.tasks
        guard !tasks.isEmpty else { return nil }
        for _ in 0..<16 {
            let task = tasks[Int.random(in: 0..<tasks.count, using: &generator)]
            if task.kind.isSummary { return task }
        }
        return nil
    }

    private func replace(_ previous: GanttTask, _ proposed: GanttTask, kind: String, sent: UInt64) -> (
        PlanOperation, Pending
    ) {
        (
            .replace(previous: previous, proposed: proposed),
            Pending(sent: sent, kind: kind, stale: false, busy: [previous.id], original: previous)
        )
    }

    private func addProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        // An id this editor owns, so that no other editor touches the task.
        let base = "\(connection.nextProposalID())-t"
        var suffix = 0
        while !owns("\(base)\(suffix)"), suffix < 1000 { suffix += 1 }
        let id = "\(base)\(suffix)"
        let start = try? CivilDate("2026-09-01").adding(days: Int.random(in: 0..<60, using: &generator))
        let schedule = start.flatMap { try? TaskSchedule(start: $0, days: Int.random(in: 1...10, using: &generator)) }
        let parent = Bool.random(using: &generator) ? randomSummary(copy, using: &generator)?.id : nil
        guard
            let task = try? GanttTask(
                id: id, title: "load sent=\(sent)", parentID: parent, kind: .activity(schedule: schedule, progress: 0))
        else { return nil }
        return (.add(task), Pending(sent: sent, kind: "add", stale: false, busy: [], added: id))
    }

    /// Tasks an editor adds before it removes instead of adding.
    static let ownTaskLimit = 30

    /// Removes a task this editor added (keeps the plan's size steady).
    private func removeProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard !state.added.isEmpty else { return nil }
        let id = state.added[Int.random(in: 0..<state.added.count, using: &generator)]
        guard !state.busy.contains(id), let task = copy[id] else { return nil }
        return (.remove(previous: task), Pending(sent: sent, kind: "remove", stale: false, busy: [id], removed: id))
    }

    private func realisticProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        let roll = Int.random(in: 0..<100, using: &generator)
        switch roll {
        case 0..<16:
            // Past a few dozen tasks of its own, an editor removes instead: the plan keeps its size.
            if state.added.count >= LoadEditor.ownTaskLimit {
                return removeProposal(copy, &state, sent: sent, using: &generator)
            }
            return addProposal(copy, &state, sent: sent, using: &generator)
        case 16..<26:
            guard let task = pick(copy, state, using: &generator, where: { _ in true }) else { return nil }
            var proposed = task
            proposed.title = "edit sent=\(sent)"
            return replace(task, proposed, kind: "title", sent: sent)
        case 26..<44:
            guard
                let task = pick(copy, state, using: &generator, where: { $0.progress != nil }),
                case .activity(let schedule, _) = task.kind
            else { return nil }
            var proposed = task
            proposed.kind = .activity(schedule: schedule, progress: Double(Int.random(in: 0...100, using: &generator)))
            return replace(task, proposed, kind: "progress", sent: sent)
        case 44..<58:
            guard let task = pick(copy, state, using: &generator, where: { !$0.kind.isSummary }) else { return nil }
            var proposed = task
            let shift = Int.random(in: 1...5, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
            switch task.kind {
            case .activity(let schedule, let progress):
                let start =
                    schedule.flatMap { try? $0.start.adding(days: shift) } ?? (try? CivilDate("2026-09-15"))
                guard let start, let moved = try? TaskSchedule(start: start, days: schedule?.days ?? 5) else {
                    return nil
                }
                proposed.kind = .activity(schedule: moved, progress: progress)
            case .milestone(let date):
                guard let moved = try? date.adding(days: shift) else { return nil }
                proposed.kind = .milestone(date: moved)
            case .summary:
                return nil
            }
            return replace(task, proposed, kind: "dates", sent: sent)
        case 58..<66:
            guard let task = pick(copy, state, using: &generator, where: { _ in true }),
                let sibling = pick(
                    copy, state, using: &generator, where: { $0.parentID == task.parentID && $0.id != task.id })
            else { return nil }
            let position: TaskOrderPosition = Bool.random(using: &generator) ? .before : .after
            return (
                .reorder(previous: task, relativeTo: sibling, position: position),
                Pending(sent: sent, kind: "reorder", stale: false, busy: [task.id, sibling.id])
            )
        case 66..<72:
            guard let task = pick(copy, state, using: &generator, where: { !$0.kind.isSummary }) else { return nil }
            let parent = randomSummary(copy, using: &generator)?.id
            guard parent != task.parentID else { return nil }
            var proposed = task
            proposed.parentID = parent
            return replace(task, proposed, kind: "group", sent: sent)
        case 72..<82:
            guard state.added.count > 2 else { return nil }
            return removeProposal(copy, &state, sent: sent, using: &generator)
        case 82..<88:
            // Link from a task without predecessors: that can never close a cycle.
            let dependencies = copy.dependencies
            let successors = Set(dependencies.map(\.successorID))
            guard
                let from = pick(
                    copy, state, using: &generator, where: { !$0.kind.isSummary && !successors.contains($0.id) }),
                let to = pick(copy, state, using: &generator, where: { !$0.kind.isSummary && $0.id != from.id })
            else { return nil }
            let dependency = TaskDependency(predecessorID: from.id, successorID: to.id)
            guard !dependencies.contains(dependency) else { return nil }
            return (.link(dependency), Pending(sent: sent, kind: "link", stale: false, busy: [from.id, to.id]))
        case 88..<93:
            let mine = copy.dependencies.filter {
                owns($0.predecessorID) && owns($0.successorID) && !state.busy.contains($0.predecessorID)
                    && !state.busy.contains($0.successorID)
            }
            guard let dependency = mine.randomElement(using: &generator) else { return nil }
            return (
                .unlink(dependency),
                Pending(
                    sent: sent, kind: "unlink", stale: false, busy: [dependency.predecessorID, dependency.successorID])
            )
        default:
            return timelineMove(&state, sent: sent, using: &generator)
        }
    }

    private func timelineMove(
        _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard let page = state.page else { return nil }
        let entries = page.entries.filter { owns($0.id) && !state.busy.contains($0.id) }
        guard let entry = entries.randomElement(using: &generator),
            let assignment = page.assignments.first(where: { $0.entryID == entry.id })
        else { return nil }
        let shift = Bool.random(using: &generator) ? 60 : -60
        guard let start = moved(entry.start, by: shift), let end = moved(entry.end, by: shift),
            let proposed = try? entry.with(start: start, end: end)
        else { return nil }
        let original = TimelineAssignedEntry(entry: entry, assignment: assignment)
        return (
            .timelineApply(
                original: original, proposed: TimelineAssignedEntry(entry: proposed, assignment: assignment)),
            Pending(sent: sent, kind: "timeline", stale: false, busy: [entry.id], entry: entry.id)
        )
    }

    private func moved(_ time: LocalDateTime, by minutes: Int) -> LocalDateTime? {
        let number = time.minuteNumber + minutes
        guard let date = try? CivilDate(dayNumber: number / 1440) else { return nil }
        return try? LocalDateTime(date: date, hour: number % 1440 / 60, minute: number % 60)
    }

    /// A replace whose `previous` is an older value of the task (one this editor replaced
    /// before), or, without one, a value the task does not have: it must be rejected `staleTask`.
    private func staleProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard let task = pick(copy, state, using: &generator, where: { $0.progress != nil }),
            case .activity(let schedule, let progress) = task.kind
        else { return nil }
        var previous = state.originals[task.id] ?? task
        if previous == task {
            previous.kind = .activity(schedule: schedule, progress: progress >= 50 ? progress - 1 : progress + 1)
        }
        var proposed = previous
        proposed.title = "stale sent=\(sent)"
        return (
            .replace(previous: previous, proposed: proposed),
            Pending(sent: sent, kind: "stale", stale: true, busy: [task.id])
        )
    }
}
