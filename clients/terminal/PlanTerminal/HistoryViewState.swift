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
