import ChronoSketchCore
import PlanProtocol

/// The history: reading it (`history` pages and the `confirmed` stream), undo and redo of the
/// user's own changes, a past version opened read-only, and baselines (set, removed, drawn as a
/// shadow).
extension ClientModel {
    /// How many entries one `history` request asks for.
    static let historyPage = 200

    // MARK: What the server says

    /// Takes in the history-related messages; returns what to do, nil for other messages.
    mutating func receiveHistory(_ message: ServerMessage) -> [ClientAction]? {
        switch message {
        case .confirmed(let plan, let version, _, let user, let changes, let at, let undoes) where plan == settings.plan:
            history.log.receiveConfirmed(version: version, user: user, at: at, undoes: undoes, changes: changes)
            history.notePlanTouches(version: version, changes: changes)
            if let baselines = changes.baselines { return baselinesChanged(baselines) }
            return mode == .history ? readMissingDetails() : []
        case .history(let plan, let entries, let logStart, let more, let ref) where plan == settings.plan:
            history.log.receive(page: entries, logStart: logStart, more: more)
            if ref == history.waitingFor {
                history.waitingFor = nil
                history.loaded = true
            }
            clampHistorySelection()
        case .snapshot(let snapshot, let ref) where snapshot.historical && snapshot.plan == settings.plan:
            receivePast(snapshot, ref: ref)
        case .error(let code, _, let ref?) where ref == history.waitingFor:
            history.waitingFor = nil
            self.message = strings.historyError(code)
        case .error(let code, _, let ref?) where ref.hasPrefix("view-") || ref.hasPrefix("baseline-"):
            if ref.hasPrefix("view-") { history.pastRequested = nil } else { history.shadow = nil }
            self.message = strings.historyError(code)
        default:
            return answerUndo(message) ? [] : nil
        }
        return []
    }

    /// The first snapshot, or a reconnect: read the newest page of the history again (what was
    /// missed while away arrives as `confirmed` too, but without its op).
    mutating func readHistory() -> [ClientAction] {
        guard history.waitingFor == nil, !roleEnded else { return [] }
        let ref = history.nextRef("history")
        history.waitingFor = ref
        return [.requestHistory(before: nil, limit: ClientModel.historyPage, ref: ref)]
    }

    /// While the history view is open, the ops of versions heard only as `confirmed` are read.
    mutating func readMissingDetails() -> [ClientAction] {
        guard history.waitingFor == nil, !roleEnded, let oldest = history.log.versionsWithoutDetails.first,
            let newest = copy?.version
        else { return [] }
        let ref = history.nextRef("history")
        history.waitingFor = ref
        return [.requestHistory(before: newest + 1, limit: min(newest - oldest + 1, 500), ref: ref)]
    }

    /// The next older page, when the history view's selection reaches its end.
    private mutating func readOlder() -> [ClientAction] {
        guard history.waitingFor == nil, !roleEnded, history.log.more, let oldest = history.versions.last, oldest > 1
        else {
            return []
        }
        let ref = history.nextRef("history")
        history.waitingFor = ref
        return [.requestHistory(before: oldest, limit: ClientModel.historyPage, ref: ref)]
    }

    private mutating func receivePast(_ snapshot: PlanSnapshot, ref: String?) {
        let collection = try? TaskCollection(snapshot.tasks, dependencies: snapshot.dependencies)
        if ref?.hasPrefix("view-") == true, history.pastRequested == snapshot.version {
            history.pastRequested = nil
            history.past = .init(version: snapshot.version, snapshot: snapshot, collection: collection)
            message = nil  // the banner says which version this is
            mode = lastTaskView
            taskViews.rebuild(collection)
            selectedIndex = 0
            topRow = 0
            layoutChanged()
        } else if ref?.hasPrefix("baseline-") == true, history.shadow?.version == snapshot.version {
            let rows = collection?.rows() ?? []
            history.shadow?.rows = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The baselines changed: a shadow whose baseline moved is fetched again, one removed ends.
    private mutating func baselinesChanged(_ baselines: [PlanBaseline]) -> [ClientAction] {
        guard let shadow = history.shadow else { return [] }
        guard let baseline = baselines.first(where: { $0.name == shadow.name }) else {
            history.shadow = nil
            message = strings.shadowEnded(shadow.name)
            return []
        }
        return baseline.version == shadow.version ? [] : showShadow(baseline)
    }

    // MARK: Keys

    /// The history view's keys: move, open a version (Enter), undo the selected version (z).
    mutating func pressInHistory(_ key: Key) -> [ClientAction]? {
        switch key {
        case .up, .character("k"): moveHistorySelection(-1)
        case .down, .character("j"): moveHistorySelection(1)
        case .pageUp: moveHistorySelection(-visibleRowCount)
        case .pageDown: moveHistorySelection(visibleRowCount)
        case .home: moveHistorySelection(-history.selectedIndex)
        case .end: moveHistorySelection(history.versions.count)
        case .enter, .character("z"):
            guard let entry = history.selectedEntry else { return [] }
            guard history.log.isKept(entry.version) else {
                message = strings.versionNotKept(entry.version, logStart: history.log.logStart ?? 0)
                return []
            }
            if key == .enter { return openPast(entry.version) }
            return allowed() ? undo(entry.version) : []
        default:
            return nil
        }
        return history.selectedIndex >= history.versions.count - 1 ? readOlder() : []
    }

    /// z: undo the user's last change; Z: redo the last one undone (protocol.md §5.9).
    mutating func pressUndo(redo: Bool) -> [ClientAction] {
        guard history.past == nil else {
            message = strings.readOnly(history.past?.version ?? 0)
            return []
        }
        guard allowed() else { return [] }
        guard let user, history.loaded else {
            message = strings.historyLoading
            return readHistory()
        }
        guard let target = redo ? history.log.redoTarget(user: user) : history.log.undoTarget(user: user) else {
            message = redo ? strings.nothingToRedo : strings.nothingToUndo
            return []
        }
        return undo(target)
    }

    private mutating func undo(_ version: Int) -> [ClientAction] {
        let id = nextID("p")
        history.undoProposals[id] = version
        let touched = history.log.entries[version]?.touched ?? []
        // The row it concerns: the first of the touched tasks there is (in input order).
        pending[id] =
            touched.compactMap { task in collection?.position(of: task).map { (task, $0) } }.min { $0.1 < $1.1 }?.0
            ?? ""
        message = history.log.entries[version]?.undoes.map { strings.redoing($0) } ?? strings.undoing(version)
        return [.propose(.undo(version: version), id: id)]
    }

    /// The answer to an undo or redo, in words; false when `id` was no undo.
    mutating func answerUndo(_ message: ServerMessage) -> Bool {
        switch message {
        case .ack(let id, _, let version, _, _):
            guard let undone = history.undoProposals.removeValue(forKey: id) else { return false }
            pending[id] = nil
            self.message =
                history.log.entries[undone]?.undoes.map { strings.redone($0, now: version) }
                ?? strings.undone(undone, now: version)
        case .rejected(let id, _, let code, _, _, _, _):
            guard let undone = history.undoProposals.removeValue(forKey: id) else { return false }
            pending[id] = nil
            let touched = history.log.entries[undone]?.touched ?? []
            let since = history.log.lastChange(after: undone, touching: touched)
            self.message = strings.notUndone(
                undone, code, changedBy: code.isStale ? since.map { ($0.user, $0.version) } : nil)
        default:
            return false
        }
        return true
    }

    /// Enter in the history view: fetch the version to show it read-only.
    private mutating func openPast(_ version: Int) -> [ClientAction] {
        history.pastRequested = version
        message = strings.loadingVersion(version)
        return [.fetch(version: version, ref: history.nextRef("view"))]
    }

    /// Esc while a past version is shown: back to the live plan.
    mutating func closePast() {
        history.past = nil
        taskViews.rebuild(collection)
        selectedIndex = 0
        topRow = 0
        message = strings.backToLive
        layoutChanged()
    }

    /// B: the next baseline as the shadow (none after the last).
    mutating func cycleShadow() -> [ClientAction] {
        let baselines = (copy?.snapshot.baselines ?? []).sorted { $0.name < $1.name }
        guard !baselines.isEmpty else {
            message = strings.noBaselines
            return []
        }
        let index = history.shadow.flatMap { shadow in baselines.firstIndex { $0.name == shadow.name } }
        let next = index.map { $0 + 1 } ?? 0
        guard baselines.indices.contains(next) else {
            history.shadow = nil
            message = strings.shadowOff
            return []
        }
        message = strings.shadowOn(baselines[next].name, version: baselines[next].version)
        return showShadow(baselines[next])
    }

    private mutating func showShadow(_ baseline: PlanBaseline) -> [ClientAction] {
        history.shadow = .init(name: baseline.name, version: baseline.version, rows: nil)
        return [.fetch(version: baseline.version, ref: history.nextRef("baseline"))]
    }

    /// b: the baseline form (set one at a version, or remove one).
    mutating func openBaselineForm() {
        guard history.past == nil else {
            message = strings.readOnly(history.past?.version ?? 0)
            return
        }
        guard allowed(.baseline) else { return }
        form = TaskForm.baselineForm(
            version: copy?.version ?? 0, name: history.shadow?.name ?? "", language: settings.language)
    }

    private mutating func moveHistorySelection(_ delta: Int) {
        history.selectedIndex += delta
        clampHistorySelection()
    }

    mutating func clampHistorySelection() {
        let count = history.versions.count
        history.selectedIndex = min(max(history.selectedIndex, 0), max(count - 1, 0))
        let visible = max(bodyHeight - 1, 1)
        if history.selectedIndex < history.topRow { history.topRow = history.selectedIndex }
        if history.selectedIndex >= history.topRow + visible { history.topRow = history.selectedIndex - visible + 1 }
        history.topRow = max(min(history.topRow, max(count - visible, 0)), 0)
    }
}

extension RejectionCode {
    /// Whether the code says a value the proposal named changed since.
    var isStale: Bool {
        switch self {
        case .staleTask, .staleEntry, .staleAssignment, .staleDependency: true
        default: false
        }
    }
}
