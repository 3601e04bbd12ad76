import ChronoSketchCore
import PlanProtocol

/// The filter line (`F`): the task views show only mine, late, unscheduled or critical tasks,
/// with the groups above them. The rows are built in one pass over the plan when the filter is
/// set and again for each version shown while it is on (`refreshFind`, after every event), except
/// that the late and unscheduled filters follow a confirmed change of values only for the tasks it
/// touched (`followFilter`); the critical filter asks the server for the figures of the whole plan
/// once per version.
extension ClientModel {
    /// The key after `F`: a filter's key sets it, `x` (or `F` again) takes it off, Escape leaves
    /// the filter as it was.
    mutating func chooseFilter(_ key: Key) -> [ClientAction] {
        find.choosingFilter = false
        switch key {
        case .character(let character):
            if let filter = TaskFilter.allCases.first(where: { $0.key == character }) {
                setFilter(filter)
                return refreshFind()
            }
            if character == "x" || character == "F" { setFilter(nil) }
        default:
            break
        }
        return []
    }

    /// Sets the filter (nil: off), keeping the selected task selected where it is shown.
    mutating func setFilter(_ filter: TaskFilter?) {
        let selectedID = selectedTask?.id
        find.filter = filter
        find.filtered = nil
        find.current = nil
        if filter == nil {
            reselect(selectedID)
            refreshMatches()
        } else {
            rebuildFilter(selecting: selectedID)
        }
    }

    /// After every event: the filter's rows follow the version shown (and the critical figures or
    /// the history that arrived), and the critical filter asks for the figures it lacks.
    mutating func refreshFind() -> [ClientAction] {
        refreshPicker()
        // A request lost with the connection is not answered: asked again after the reconnect.
        if connection != .connected { find.criticalRequest = nil }
        guard let filter = find.filter else { return [] }
        let actions = filter == .critical ? askCritical() : []
        let source = filterSource(filter)
        if find.filtered?.key != shownKey || find.filteredSource != source {
            // The selection as the rows stood (the unfiltered rows when the version changed).
            let selectedID = selectedTask?.id
            rebuildFilter(selecting: selectedID)
        }
        return actions
    }

    /// What the filter's rows were made from besides the version: the critical figures' version,
    /// or how many versions of the history the client holds.
    private func filterSource(_ filter: TaskFilter) -> Int {
        switch filter {
        case .critical: find.criticalVersion ?? -1
        case .mine: history.log.entries.count
        case .late, .unscheduled: 0
        }
    }

    /// A confirmed change of values only (nothing added, removed, moved or reordered), with the
    /// filter's rows at the version before it: the late and unscheduled filters (which ask only
    /// the task itself) update their rows for the tasks it touched, not in a pass over the plan.
    /// Anything else is left to `refreshFind`'s rebuild.
    mutating func followFilter(changes: PlanChanges, rows: RowsChange, version: Int, selecting selectedID: String?) {
        guard let filter = find.filter, filter == .late || filter == .unscheduled, rows != .structure,
            history.past == nil, dataError == nil, var filtered = find.filtered, filtered.key == version - 1,
            let shown = shownCollection
        else { return }
        find.filtered = nil  // the rows are held only here while they change: no copy
        let today = settings.today
        let tasks = shown.tasks
        let touched = changes.upsert.compactMap { shown.position(of: $0.id) }
        let keep = { (position: Int) in filter.keeps(tasks[position], today: today, ids: []) }
        guard filtered.outline.refilter(touched: touched, in: shown, keeping: keep) else { return }
        find.filtered = (filtered.outline, version)
        reselect(selectedID)
    }

    private mutating func rebuildFilter(selecting selectedID: String?) {
        find.filterPasses += 1
        guard let filter = find.filter, let shown = shownCollection else {
            find.filtered = nil
            return
        }
        let ids = filterIDs(filter)
        let today = settings.today
        let tasks = shown.tasks
        let rows = TaskOutline(shown) { filter.keeps(tasks[$0], today: today, ids: ids) }
        find.filtered = (rows, shownKey)
        find.filteredSource = filterSource(filter)
        reselect(selectedID)
        // The rows changed (the filter, or the critical figures or history it waited for).
        refreshMatches()
    }

    private mutating func reselect(_ id: String?) {
        if let id, let shown = shownCollection, let index = outline.nearestIndex(of: id, in: shown) {
            selectedIndex = index
        } else {
            selectedIndex = 0
        }
        clampSelection()
    }

    /// The ids the filter needs: the critical tasks, or the tasks the user changed.
    private func filterIDs(_ filter: TaskFilter) -> Set<String> {
        switch filter {
        case .critical:
            return history.past == nil ? find.criticalIDs ?? [] : []
        case .mine:
            guard let user else { return [] }
            var ids: Set<String> = []
            for entry in history.log.entries.values where entry.user == user { ids.formUnion(entry.touched) }
            return ids
        case .late, .unscheduled:
            return []
        }
    }

    /// The critical filter's request: the figures of every scheduled task of the current version
    /// (`schedule` without ids), one in flight.
    private mutating func askCritical() -> [ClientAction] {
        guard connection == .connected, !roleEnded, history.past == nil, let version = copy?.version,
            find.criticalVersion != version, find.criticalRequest == nil
        else { return [] }
        let ref = nextID("c")
        find.criticalRequest = (ref, version)
        return [.schedule(version: version, ids: [], ref: ref)]
    }

    /// The answer to the critical filter's request (or an error answering it); true when it was one.
    mutating func receiveFind(_ message: ServerMessage) -> Bool {
        switch message {
        case .schedule(let answer, let ref?) where ref == find.criticalRequest?.ref:
            find.criticalRequest = nil
            find.criticalIDs = Set(answer.tasks.lazy.filter(\.figures.critical).map(\.id))
            find.criticalVersion = answer.version
            return true
        case .error(_, let text, let ref?) where ref == find.criticalRequest?.ref:
            // Not asked again for this version (a refusal would come back at every event).
            find.criticalVersion = find.criticalRequest?.version
            find.criticalIDs = find.criticalIDs ?? []
            find.criticalRequest = nil
            self.message = strings.serverError(text)
            return true
        default:
            return false
        }
    }

    /// The line the footer shows while one takes the keys (search, date, filter choice, `g`).
    var findLine: String? {
        if let line = find.searchLine {
            let count = strings.matchCount(find.current, of: find.matches.count, query: find.query)
            let hint = width >= 100 ? "   " + strings.searchHint : ""
            let room = max(width - count.displayWidth - hint.displayWidth - 3, 8)
            return "/" + line.display(width: room) + "  " + count + hint
        }
        if let line = find.dateLine {
            let prompt = strings.goToDatePrompt
            return prompt + line.display(width: max(width - prompt.displayWidth - 1, 8))
        }
        if find.choosingFilter { return strings.filterChoices(find.filter) }
        if find.goPending { return strings.goPrefixHint }
        return nil
    }

    /// What the footer of a task view shows of the search kept and the filter on; nil when
    /// there is nothing of either.
    var findStatus: String? {
        guard mode == .list || mode == .timeline else { return nil }
        var parts: [String] = []
        if !find.query.isEmpty {
            parts.append("/" + find.query + "  " + strings.matchCount(find.current, of: find.matches.count, query: ""))
        }
        if let filter = find.filter {
            let waiting = filter == .critical && find.criticalIDs == nil
            parts.append(waiting ? strings.filterWaiting : strings.filterStatus(filter, rows: outline.count))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "  ·  ")
    }
}
