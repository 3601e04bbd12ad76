import ChronoSketchCore

/// What a client knows of a plan's history: the entries of the `history` pages it read and of the
/// `confirmed` stream since, by version. It answers the questions a client's undo and redo keys
/// ask (protocol.md §5.9: the server keeps no per-user stacks) and says who changed something
/// since a version, for a stale undo's message.
///
/// Undo and redo follow the classic two stacks, rebuilt from the entries of one user in version
/// order: a change is pushed on the undo stack (and clears the redo stack); an undo of a change
/// on the undo stack moves it to the redo stack as that undo; an undo of an undo on the redo
/// stack (a redo) pushes the redo on the undo stack again. Baseline ops cannot be undone and are
/// skipped. Only the entries the client holds count: a client that read the newest page knows
/// the user's last changes, which is what the keys need.
public struct ClientHistory: Sendable, Hashable {
    /// One version, as much of it as the client knows.
    public struct Entry: Sendable, Hashable {
        /// The version it produced.
        public var version: Int
        /// When the server confirmed it (RFC 3339, UTC); empty when not known.
        public var at: String
        /// The proposing user.
        public var user: String
        /// The version it undoes, for a confirmed undo (or redo).
        public var undoes: Int?
        /// The op as confirmed, once a `history` page told it (`confirmed` does not carry it).
        public var operation: PlanOperation?
        /// Whether the op is known: read from a `history` page (where it may still be nil: the
        /// log kept none).
        public var detailsRead: Bool
        /// The tasks and timeline entries it changed (from its `changes` and its op).
        public var touched: Set<String>
        /// Whether it set or removed a baseline (not undoable).
        public var isBaseline: Bool

        /// Combines the parts.
        public init(
            version: Int, at: String, user: String, undoes: Int?, operation: PlanOperation?, detailsRead: Bool,
            touched: Set<String>, isBaseline: Bool
        ) {
            self.version = version
            self.at = at
            self.user = user
            self.undoes = undoes
            self.operation = operation
            self.detailsRead = detailsRead
            self.touched = touched
            self.isBaseline = isBaseline
        }
    }

    /// The entries known, by version.
    public private(set) var entries: [Int: Entry] = [:]
    /// The log's start as the last `history` page said (versions from it on are readable).
    public private(set) var logStart: Int?
    /// Whether entries older than the oldest page read exist.
    public private(set) var more = true
    /// Whether the pages list versions below `logStart`: a log written before the server kept
    /// history, whose version at `logStart` has no undo either (a trimmed log lists none below it).
    public private(set) var listsBelowStart = false

    /// No entries.
    public init() {}

    /// The known versions, newest first.
    public var versionsNewestFirst: [Int] { entries.keys.sorted(by: >) }

    /// The versions whose op is not known yet (they came with `confirmed`), ascending.
    public var versionsWithoutDetails: [Int] { entries.values.filter { !$0.detailsRead }.map(\.version).sorted() }

    /// Takes in a `history` page.
    public mutating func receive(page: [HistoryEntry], logStart: Int, more: Bool) {
        if logStart != self.logStart { listsBelowStart = false }
        self.logStart = logStart
        if page.contains(where: { $0.version < logStart }) { listsBelowStart = true }
        for item in page {
            let operation = item.opJSON.flatMap { text in
                (try? JSONValue(parsing: Array(text.utf8))).flatMap { try? PlanOperation(json: $0) }
            }
            let changes = (try? JSONValue(parsing: Array(item.changesJSON.utf8))).flatMap { try? PlanChanges(json: $0) }
            entries[item.version] = Entry(
                version: item.version, at: item.at, user: item.user, undoes: item.undoes, operation: operation,
                detailsRead: true, touched: ClientHistory.touched(changes, operation),
                isBaseline: operation.map(ClientHistory.isBaseline) ?? (changes?.baselines != nil))
        }
        if let oldest = page.map(\.version).min(), oldest == (entries.keys.min() ?? oldest) { self.more = more }
    }

    /// Whether `version` can still be opened (`fetch`): versions below the log's start cannot (a
    /// log trimmed since, or written before the server kept history); their entries stay listed,
    /// as the audit trail the server still sends.
    public func isKept(_ version: Int) -> Bool {
        logStart.map { version >= $0 } ?? true
    }

    /// Whether `version` can be undone: kept, and not the start of a log written before the
    /// server kept history (protocol.md §4.7).
    public func isUndoable(_ version: Int) -> Bool {
        guard let logStart else { return true }
        return version > logStart || (version == logStart && !listsBelowStart)
    }

    /// Takes in a `confirmed` (its op stays unknown until a `history` page tells it).
    public mutating func receiveConfirmed(
        version: Int, user: String, at: String, undoes: Int?, changes: PlanChanges
    ) {
        guard entries[version]?.detailsRead != true else { return }
        entries[version] = Entry(
            version: version, at: at, user: user, undoes: undoes, operation: nil, detailsRead: false,
            touched: ClientHistory.touched(changes, nil), isBaseline: changes.baselines != nil)
    }

    /// Forgets everything (another plan, or a start over).
    public mutating func reset() {
        self = ClientHistory()
    }

    /// The version `user`'s undo key undoes: the top of the undo stack; nil when there is none,
    /// or when it can no longer be undone (`isUndoable`).
    public func undoTarget(user: String) -> Int? { stacks(of: user).undo.last.flatMap(undoable) }

    /// The version `user`'s redo key undoes (an undo of theirs): the top of the redo stack.
    public func redoTarget(user: String) -> Int? { stacks(of: user).redo.last.flatMap(undoable) }

    /// `version` when it can be undone, else nil.
    private func undoable(_ version: Int) -> Int? { isUndoable(version) ? version : nil }

    /// The newest version that undid `version` and is not undone itself (by a redo), if any.
    public func undoing(_ version: Int) -> Int? {
        entries.values.filter { $0.undoes == version }.map(\.version).sorted(by: >).first { undoing($0) == nil }
    }

    /// The newest entry after `version` that touched any of `ids`: who changed it since.
    public func lastChange(after version: Int, touching ids: Set<String>) -> Entry? {
        entries.values.filter { $0.version > version && !$0.touched.isDisjoint(with: ids) }
            .max { $0.version < $1.version }
    }

    private func stacks(of user: String) -> (undo: [Int], redo: [Int]) {
        var undo: [Int] = []
        var redo: [Int] = []
        // Over every entry held, those below the log's start included: an undo above it may pair
        // with a change below it.
        for entry in entries.values.sorted(by: { $0.version < $1.version }) where entry.user == user {
            if entry.isBaseline { continue }
            if let target = entry.undoes, let index = undo.lastIndex(of: target) {
                undo.remove(at: index)
                redo.append(entry.version)
            } else if let target = entry.undoes, let index = redo.lastIndex(of: target) {
                redo.remove(at: index)
                undo.append(entry.version)
            } else {
                undo.append(entry.version)
                redo = []
            }
        }
        return (undo, redo)
    }

    /// The ids a version changed: its changes' tasks and entries, and the tasks its op names.
    static func touched(_ changes: PlanChanges?, _ operation: PlanOperation?) -> Set<String> {
        var ids = Set(changes?.upsert.map(\.id) ?? [])
        ids.formUnion(changes?.remove ?? [])
        ids.formUnion(changes?.entries ?? [])
        switch operation {
        case .replace(let previous, _), .remove(let previous): ids.insert(previous.id)
        case .add(let task), .restore(let task, _, _): ids.insert(task.id)
        case .reorder(let previous, let relativeTo, _): ids.formUnion([previous.id, relativeTo.id])
        case .link(let dependency), .unlink(let dependency), .relink(_, let dependency):
            ids.formUnion([dependency.predecessorID, dependency.successorID])
        case .restoring(let base, let restores):
            ids.formUnion(touched(nil, base))
            ids.formUnion(restores.map(\.previous.id))
        case .timelineApply(let original, _): ids.insert(original.entry.id)
        case .timelineAdd(let entry, _), .timelineRemove(let entry): ids.insert(entry.id)
        case .settingsReplace, .baselineSet, .baselineRemove, .undo, nil: break
        }
        return ids
    }

    static func isBaseline(_ operation: PlanOperation) -> Bool {
        switch operation {
        case .baselineSet, .baselineRemove: true
        default: false
        }
    }
}
