import ChronoSketchCore
import PlanProtocol

/// What the client holds of the plan's past: the history it read, the history view's selection,
/// a past version opened read-only, the baseline drawn as a shadow, and the undos in flight.
public struct HistoryViewState: Sendable {
    /// A past version, fetched and shown read-only in the list and the timeline.
    public struct PastVersion: Sendable {
        /// The version.
        public let version: Int
        /// The plan as it was.
        public let snapshot: PlanSnapshot
        /// Its tasks as a collection; nil when they do not form one.
        public let collection: TaskCollection?
    }

    /// A baseline drawn under the live bars.
    public struct Shadow: Sendable {
        /// The baseline's name.
        public let name: String
        /// The version it names.
        public let version: Int
        /// Each task's row at that version, by id; nil until the version arrived.
        public var rows: [String: TaskRow]?
    }

    /// The entries read and heard.
    public internal(set) var log = ClientHistory()
    /// Whether the newest page was read since the subscription began.
    public internal(set) var loaded = false
    /// The `ref` of the `history` request waiting for its answer.
    public internal(set) var waitingFor: String?
    /// The history view's selected row and first row shown.
    public internal(set) var selectedIndex = 0
    /// See `selectedIndex`.
    public internal(set) var topRow = 0
    /// The past version shown, if any.
    public internal(set) var past: PastVersion?
    /// The version asked for with `fetch` to be shown.
    public internal(set) var pastRequested: Int?
    /// The baseline shadow, if one is chosen.
    public internal(set) var shadow: Shadow?
    /// Undo and redo proposals waiting for their answer: proposal id → the version undone.
    public internal(set) var undoProposals: [String: Int] = [:]
    /// What the log's entries do not name, by version, from each `confirmed`: that it changed
    /// the dependencies or the settings (`StaleValue.dependencies`, `.settings`).
    public internal(set) var planTouches: [Int: Set<String>] = [:]
    /// Counts requests, for their refs.
    var requests = 0

    /// The versions the history view lists, newest first.
    public var versions: [Int] { log.versionsNewestFirst }

    /// The selected entry of the history view.
    public var selectedEntry: ClientHistory.Entry? {
        let versions = versions
        return versions.indices.contains(selectedIndex) ? log.entries[versions[selectedIndex]] : nil
    }

    /// The `ref` of the next request of `kind` ("history", "view", "baseline").
    mutating func nextRef(_ kind: String) -> String {
        requests += 1
        return "\(kind)-\(requests)"
    }
}

extension HistoryViewState {
    /// Notes that version `version` changed the dependencies or the settings.
    mutating func notePlanTouches(version: Int, changes: PlanChanges) {
        var touched: Set<String> = []
        if changes.dependencies != nil { touched.insert(StaleValue.dependencies) }
        if changes.settings != nil { touched.insert(StaleValue.settings) }
        if !touched.isEmpty { planTouches[version] = touched }
    }

    /// The entries after `version` that touched any of `ids` (tasks, entries, or the pseudo ids of
    /// the dependencies and the settings), oldest first.
    func changes(after version: Int, touching ids: Set<String>) -> [ClientHistory.Entry] {
        log.entries.values.filter { entry in
            entry.version > version
                && (!entry.touched.isDisjoint(with: ids) || !(planTouches[entry.version] ?? []).isDisjoint(with: ids))
        }
        .sorted { $0.version < $1.version }
    }
}
