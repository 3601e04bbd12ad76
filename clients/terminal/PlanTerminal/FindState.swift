import ChronoSketchCore
import PlanProtocol

/// What a filter keeps of the task views' rows (with the groups above each kept task, so that the
/// tree stays readable).
public enum TaskFilter: String, Sendable, Hashable, CaseIterable {
    /// The tasks the signed-in user changed: those a version proposed by the user added or
    /// changed, among the versions the client holds (the history pages read, the newest when the
    /// plan opens, and every version confirmed since). Tasks have no assignee in this protocol,
    /// and a booking's task is the server's own business (not on the wire), so "mine" cannot mean
    /// "assigned to me".
    case mine
    /// Activities whose end is before today (their last day before today) with progress below 100 %.
    case late
    /// Activities without dates.
    case unscheduled
    /// The critical tasks (slack ≤ 0) by the server's figures of the current version
    /// (scheduling.md §6), asked for the whole plan once per version while the filter is on.
    case critical

    /// The key that picks it on the filter line.
    public var key: Character {
        switch self {
        case .mine: "m"
        case .late: "l"
        case .unscheduled: "u"
        case .critical: "c"
        }
    }

    /// Whether `task` is kept (`critical`: the critical ids of the current version; `mine`: the
    /// ids the user changed).
    func keeps(_ task: GanttTask, today: CivilDate, ids: Set<String>) -> Bool {
        switch self {
        case .mine, .critical: return ids.contains(task.id)
        case .late:
            guard case .activity(let schedule?, let progress) = task.kind else { return false }
            return schedule.end <= today && progress < 100
        case .unscheduled:
            if case .activity(nil, _) = task.kind { return true }
            return false
        }
    }
}

/// The task views' search, filter and "go to" state: the search line while it is typed and the
/// query kept after it (`n`/`N`), the filter and the rows it shows, the `g` prefix and the date
/// line, and the critical figures the critical filter asked for.
public struct FindState: Sendable {
    /// The search line while it is typed (nil when closed).
    public internal(set) var searchLine: LineEditor?
    /// The query searched: the one being typed, or the one kept after Enter.
    public internal(set) var query = ""
    /// The matches' ranks (`TaskSearchIndex`), ascending.
    public internal(set) var matches: [Int32] = []
    /// The match selected, as an index into `matches`.
    public internal(set) var current: Int?
    /// The search index, made when a search first needs it for the collection shown.
    var index: TaskSearchIndex?
    /// The matches of each query typed on the way.
    var incremental = IncrementalSearch()
    /// The selection and the first row when the search line opened (Escape returns there).
    var origin: (selected: Int, top: Int)?
    /// The filter on, if any.
    public internal(set) var filter: TaskFilter?
    /// The rows the filter shows, and the version (negative: a past version) they are of.
    var filtered: (outline: TaskOutline, key: Int)?
    /// What else the filter's rows were made from (`ClientModel.filterSource`).
    var filteredSource = 0
    /// How many times the filter's rows were built in a pass over the plan (for the tests).
    var filterPasses = 0
    /// The filter line is open: the next key picks a filter.
    public internal(set) var choosingFilter = false
    /// `g` was pressed: the next key says where to go.
    public internal(set) var goPending = false
    /// The date line (`g` then a digit) while it is typed.
    public internal(set) var dateLine: LineEditor?
    /// The critical tasks' ids of the version `criticalVersion`.
    var criticalIDs: Set<String>?
    /// The version of `criticalIDs`.
    var criticalVersion: Int?
    /// The `schedule` request of the critical filter in flight: its ref and version.
    var criticalRequest: (ref: String, version: Int)?

    /// The pickers' indexes, each with the version it was made at.
    var pickers: [FieldPicker.Source: (version: Int, index: PickerIndex)] = [:]

    /// Nothing searched or filtered.
    public init() {}

    /// Whether a line (search, date, filter choice, `g` prefix) takes the keys.
    public var takesKeys: Bool { searchLine != nil || dateLine != nil || choosingFilter || goPending }

    /// The filtered rows, when a filter is on and they are of `key` (the version shown).
    func filteredOutline(key: Int) -> TaskOutline? {
        guard filter != nil, let filtered, filtered.key == key else { return nil }
        return filtered.outline
    }

    /// Forgets the search (the query, its matches and the line).
    mutating func clearSearch() {
        searchLine = nil
        query = ""
        matches = []
        current = nil
        origin = nil
        incremental.reset()
    }
}
