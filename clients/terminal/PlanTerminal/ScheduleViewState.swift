import ChronoSketchCore
import PlanProtocol

/// What the task views show of automatic scheduling besides the confirmed tasks
/// (scheduling.md §4 and §6): the tasks the last version pushed, marked for a moment; the
/// figures of the rows on screen, asked with at most one `schedule` request outstanding; and a
/// rejected proposal's conflict, offered again at its earliest date.
public struct ScheduleViewState: Sendable, Hashable {
    /// How long a version's pushed tasks stay marked.
    public static let pushedMarkMilliseconds = 2_000

    /// The tasks the last version pushed, while they are marked.
    public internal(set) var pushed: Set<String> = []
    /// The version whose pushes are marked (the wake token is its negation).
    public internal(set) var pushedVersion: Int?
    /// The figures known for the version `figuresVersion`, by task id.
    public internal(set) var figures: [String: ScheduleFigures.Task] = [:]
    /// The version the figures are of.
    public internal(set) var figuresVersion: Int?
    /// Ids asked at the figures' version that have no figures (unscheduled, summaries).
    private(set) var unscheduledAsked: Set<String> = []
    /// A `schedule` request in flight: its ref, the version and the ids asked.
    public struct Request: Sendable, Hashable {
        /// The request's ref.
        public let ref: String
        /// The version asked.
        public let version: Int
        /// The ids asked.
        public let ids: [String]
    }

    /// The `schedule` request in flight.
    public internal(set) var outstanding: Request?
    /// The last conflict, offered again at its earliest date (the `M` key).
    public internal(set) var offer: ConflictOffer?
    /// The task ops of our proposals in flight, by proposal id (a conflict is offered from them).
    private(set) var inFlight: [String: PlanOperation] = [:]

    /// Creates the empty state.
    public init() {}

    /// Whether the task is critical at the figures' version.
    public func isCritical(_ id: String) -> Bool { figures[id]?.critical ?? false }

    // MARK: Pushed tasks

    /// A version pushed `ids`: they are marked until the wake with the returned token.
    mutating func markPushed(_ ids: [String], version: Int) -> Int? {
        guard !ids.isEmpty else { return nil }
        pushed = Set(ids)
        pushedVersion = version
        return -version
    }

    /// A wake with `token`: the marks of that version end (a later version's stay).
    mutating func wake(token: Int) {
        guard token < 0, pushedVersion == -token else { return }
        pushed = []
        pushedVersion = nil
    }

    // MARK: Figures

    /// The ids to ask figures for at `version`: nil when a request is in flight or the figures
    /// of that version cover every id on screen; else those of `around` (the screen and a screen
    /// above and below it, so that scrolling asks again only every screen or so) not yet known.
    func idsToAsk(onScreen ids: [String], around: [String], version: Int) -> [String]? {
        guard outstanding == nil, !ids.isEmpty else { return nil }
        guard figuresVersion == version else { return around }
        let known = { (id: String) in self.figures[id] != nil || self.unscheduledAsked.contains(id) }
        guard !ids.allSatisfy(known) else { return nil }
        return around.filter { !known($0) }
    }

    /// A request for `ids` at `version` went out under `ref`.
    mutating func asked(ref: String, version: Int, ids: [String]) {
        outstanding = Request(ref: ref, version: version, ids: ids)
    }

    /// The answer to the request in flight: the figures replace those of an older version and
    /// join those of the same one. False when it answers no request of ours.
    mutating func receive(_ answer: ScheduleAnswer, ref: String?) -> Bool {
        guard let outstanding, ref == outstanding.ref else { return false }
        self.outstanding = nil
        if figuresVersion != answer.version {
            figures = [:]
            unscheduledAsked = []
            figuresVersion = answer.version
        }
        for row in answer.tasks { figures[row.id] = row.figures }
        for id in outstanding.ids where figures[id] == nil { unscheduledAsked.insert(id) }
        return true
    }

    /// The request in flight failed (an error answering its ref): the next screen asks again.
    mutating func failed(ref: String?) -> Bool {
        guard let outstanding, ref == outstanding.ref else { return false }
        self.outstanding = nil
        return true
    }

    // MARK: Conflicts

    /// Offers `operation` again with its conflicting task at the conflict's earliest date.
    mutating func offer(_ operation: PlanOperation, conflict: ConflictDetail, calendar: PlanCalendar) {
        offer = ConflictOffer(operation, conflict: conflict, calendar: calendar)
    }

    /// Forgets the offer (taken, or another key pressed).
    mutating func dropOffer() { offer = nil }

    /// A task proposal went out as `id`.
    mutating func send(_ operation: PlanOperation, id: String) { inFlight[id] = operation }

    /// The op of proposal `id`, forgotten now that it is decided; nil when it was none of ours.
    mutating func sent(_ id: String) -> PlanOperation? { inFlight.removeValue(forKey: id) }

    /// The connection dropped: a request in flight will not be answered (proposals are resent
    /// under their ids by the connection, so their ops stay).
    mutating func connectionLost() { outstanding = nil }
}

/// A proposal rejected with `scheduleConflict`, rebuilt with its conflicting task placed on the
/// earliest date the conflict names, keeping its working duration (scheduling.md §3.5).
public struct ConflictOffer: Sendable, Hashable {
    /// The task that could not stay where the proposal put it.
    public let taskID: String
    /// Its earliest start.
    public let earliest: CivilDate
    /// The proposal to send: the same change at the earliest date; nil when the op cannot be
    /// rebuilt that way (then the conflict is only shown).
    public let operation: PlanOperation?

    /// Rebuilds `operation` (a replace or an add of the task) with the task at the earliest date.
    public init(_ operation: PlanOperation, conflict: ConflictDetail, calendar: PlanCalendar) {
        taskID = conflict.task
        earliest = conflict.earliest
        let time = WorkingTime(calendar)
        func moved(_ task: GanttTask) -> GanttTask? {
            guard task.id == conflict.task, let duration = time.workingDuration(of: task.kind),
                let kind = time.placing(task.kind, on: conflict.earliest.dayNumber, workingDays: duration)
            else { return nil }
            return task.with(kind: kind)
        }
        switch operation {
        case .replace(let previous, let proposed):
            self.operation = moved(proposed).map { .replace(previous: previous, proposed: $0) }
        case .add(let task):
            self.operation = moved(task).map { .add($0) }
        default:
            self.operation = nil
        }
    }
}
