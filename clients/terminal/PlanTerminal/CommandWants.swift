import ChronoSketchCore
import PlanProtocol
import SystemSupport

/// What a scriptable command needs beyond the live snapshot, and what of it arrived: the plan as
/// it was at `--version`, the version a `--baseline` names, or a page of the history and the
/// titles of the tasks its words name by id.
struct CommandWants {
    /// Why a command cannot ask for what it needs.
    struct Failure: Error {
        let message: String
    }

    let options: PlanOptions
    /// The version asked for, when it arrived.
    private(set) var past: PlanSnapshot?
    /// The baseline's version, when it arrived.
    private(set) var baseline: PlanSnapshot?
    /// The history page, when it arrived.
    private(set) var history: (entries: [HistoryEntry], logStart: Int, more: Bool)?
    /// The schedule figures, when they arrived.
    private(set) var schedule: ScheduleAnswer?
    /// The titles of the tasks the history names by id alone, by id, when they arrived.
    private(set) var titles: [String: String]?
    /// The server does not know `tasks` (one that speaks only the contract, where it is this
    /// server's addition): the titles come from the live plan, subscribed to for them.
    private(set) var titlesFromLivePlan = false
    private var waiting: Set<String> = []

    init(options: PlanOptions) {
        self.options = options
    }

    /// Whether everything asked for has arrived.
    var isComplete: Bool { waiting.isEmpty }

    /// The requests `subcommand` needs (a baseline's version is looked up in the live `copy`,
    /// which only a `--baseline` needs).
    mutating func requests(
        for subcommand: PlanOptions.Subcommand, plan: String, copy: ClientPlanCopy?, language: PlanLanguage
    ) throws(Failure) -> [ClientMessage] {
        var requests: [ClientMessage] = []
        if subcommand == .history {
            requests.append(.history(plan: plan, before: options.before, limit: options.limit, ref: "history"))
        }
        if subcommand == .schedule || subcommand == .show {
            // The figures of any version come in one request (scheduling.md §6).
            requests.append(.schedule(plan: plan, version: options.version, ids: nil, ref: "schedule"))
        }
        if subcommand != .schedule, let version = options.version {
            requests.append(.fetch(plan: plan, version: version, ref: "version"))
        }
        if let name = options.baseline, let copy {
            guard let named = copy.snapshot.baselines.first(where: { $0.name == name }) else {
                let known = copy.snapshot.baselines.map(\.name).sorted().joined(separator: ", ")
                throw Failure(message: TerminalStrings(language).unknownBaseline(name, known: known))
            }
            requests.append(.fetch(plan: plan, version: named.version, ref: "baseline"))
        }
        waiting = Set(requests.compactMap(\.ref))
        return requests
    }

    /// Takes in an answer to one of the requests; false for other messages.
    mutating func receive(_ message: ServerMessage) -> Bool {
        switch message {
        case .snapshot(let snapshot, let ref?) where snapshot.historical && waiting.contains(ref):
            if ref == "version" { past = snapshot } else { baseline = snapshot }
            waiting.remove(ref)
        case .history(_, let entries, let logStart, let more, "history"?):
            history = (entries, logStart, more)
            waiting.remove("history")
        case .schedule(let answer, "schedule"?):
            schedule = answer
            waiting.remove("schedule")
        case .tasks(_, _, let tasks, _, "titles"?) where waiting.contains("titles"):
            titles = Dictionary(tasks.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            waiting.remove("titles")
        default:
            return false
        }
        return true
    }

    /// Each task's row at the baseline's version, for the chart's shadow.
    var baselineRows: [String: TaskRow]? {
        guard let baseline, let collection = try? TaskCollection(baseline.tasks, dependencies: baseline.dependencies)
        else { return nil }
        return Dictionary(collection.rows().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The request for the current titles of the tasks the history's words name by id alone (a
    /// parent, a dependency's ends), once the page arrived; nil when it names none, or was asked.
    mutating func titlesRequest(plan: String, language: PlanLanguage) -> ClientMessage? {
        guard titles == nil, !titlesFromLivePlan, !waiting.contains("titles") else { return nil }
        // The words decide which tasks they name by id alone: rendered once with no titles, the
        // ids they ask for are the ones to fetch (each once, in the order first named).
        let named = Locked<[String]>([])
        _ = historyText(language: language) { id in
            named.withLock { $0.append(id) }
            return nil
        }
        var seen = Set<String>()
        let ids = named.withLock { $0 }.filter { seen.insert($0).inserted }
        guard !ids.isEmpty else { return nil }
        waiting.insert("titles")
        return .tasks(plan: plan, ids: ids, ref: "titles")
    }

    /// The server answered the titles request `unsupported`: they are to come from the live plan
    /// (the caller subscribes). False when no such request was waiting.
    mutating func titlesUnsupported() -> Bool {
        guard waiting.remove("titles") != nil else { return false }
        titlesFromLivePlan = true
        return true
    }

    /// `plan history`: one line per version, newest first, as the history view shows it, each
    /// time in `zone` with its offset from UTC; tasks named by id alone are titled by `title`
    /// (nil: by their id).
    func historyText(language: PlanLanguage, zone: LocalTime = .utc, title: @escaping @Sendable (String) -> String?)
        -> String
    {
        guard let history else { return "" }
        var log = ClientHistory()
        log.receive(page: history.entries, logStart: history.logStart, more: history.more)
        let wording = HistoryWording(language: language, title: title)
        let strings = TerminalStrings(language)
        var text = ""
        for version in log.versionsNewestFirst {
            guard let entry = log.entries[version] else { continue }
            let undone = log.undoing(version).map { "  " + strings.undoneBy($0) } ?? ""
            let kept = log.isKept(version) ? "" : "  " + strings.notKept
            text +=
                "v\(version)  \(strings.time(entry.at, in: zone, offset: true))  \(entry.user)  "
                + "\(wording.describe(entry) { log.entries[$0]?.undoes })\(undone)\(kept)\n"
        }
        if history.more == false {
            let oldest = log.versionsNewestFirst.last
            text += strings.historyEnd(logStart: history.logStart, more: false, oldest: oldest) + "\n"
        }
        return text
    }
}
