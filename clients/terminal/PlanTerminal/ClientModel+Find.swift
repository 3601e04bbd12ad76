import ChronoSketchCore
import PlanProtocol

/// The keys that find and move: the search (`/`, `n`, `N`), the `g` prefix (`gg` the first row,
/// `g` and a digit a date line), `G` the last row, Ctrl-D/Ctrl-U half a page, `f` the selected
/// task's bar, and the key bindings of the configuration file. The search looks through every
/// task of the plan shown (the client holds all of them: `snapshot` carries every task), in tree
/// order; see `TaskSearchIndex` for what a key costs.
extension ClientModel {
    /// What `route` did with a key.
    enum KeyRoute {
        /// Done: these are the actions.
        case handled([ClientAction])
        /// For the view's own keys: this key (a bound key translated to the one it stands for).
        case pass(Key)
    }

    /// A key outside forms and help: an open line (search, date, filter choice, `g` prefix)
    /// takes it; the mouse goes to `pressMouse`; the find keys are handled; any other key is
    /// passed on, translated by the configuration's bindings.
    mutating func route(_ pressed: Key) -> KeyRoute {
        if find.searchLine != nil { return .handled(pressInSearchLine(pressed)) }
        if find.dateLine != nil { return .handled(pressInDateLine(pressed)) }
        if find.choosingFilter { return .handled(chooseFilter(pressed)) }
        if case .mouse(let event) = pressed { return pressMouse(event) }
        let key = settings.config.bindings.translate(pressed)
        if find.goPending { return pressAfterG(key) }
        let taskView = mode == .list || mode == .timeline
        // The keys below begin afresh: the footer's message goes (a key passed on clears it too).
        message = nil
        switch key {
        case .character("g"): find.goPending = true
        case .character("G"): return .pass(.end)
        case .control("d"): return halfPage(1)
        case .control("u"): return halfPage(-1)
        case .character("/") where taskView: openSearch()
        case .character("n") where taskView && !find.query.isEmpty: stepSearch(forward: true)
        case .character("N") where taskView && !find.query.isEmpty: stepSearch(forward: false)
        case .character("F") where taskView: find.choosingFilter = true
        case .character("f") where taskView: showSelectedBar()
        case .escape where taskView && history.past == nil && !find.query.isEmpty: find.clearSearch()
        case .escape where taskView && history.past == nil && find.filter != nil: setFilter(nil)
        default: return .pass(key)
        }
        scheduling.dropOffer()
        return .handled([])
    }

    /// The version shown as a key: the confirmed version, or a past one (below zero).
    var shownKey: Int { history.past.map { -1 - $0.version } ?? copy?.version ?? 0 }

    // MARK: Search

    /// `/`: the search line opens where the selection is.
    private mutating func openSearch() {
        find.clearSearch()
        find.searchLine = LineEditor()
        find.origin = (selectedIndex, topRow)
    }

    private mutating func pressInSearchLine(_ key: Key) -> [ClientAction] {
        guard var line = find.searchLine else { return [] }
        switch key {
        case .enter:
            find.searchLine = nil
            if find.query.isEmpty { find.clearSearch() }
        case .escape:
            if let origin = find.origin {
                selectedIndex = origin.selected
                topRow = origin.top
                clampSelection()
            }
            find.clearSearch()
        case .down, .tab: stepSearch(forward: true)
        case .up, .backTab: stepSearch(forward: false)
        default:
            guard line.handle(key) == .edited else {
                find.searchLine = line
                return []
            }
            find.searchLine = line
            find.query = line.text
            runSearch()
        }
        return []
    }

    /// The matches of the query as typed, the selection on the first one at or after where the
    /// search began (back there when nothing matches).
    private mutating func runSearch() {
        guard let index = searchIndex() else { return }
        find.matches = visibleMatches(find.incremental.matches(for: find.query, in: index))
        let origin = find.origin ?? (selectedIndex, topRow)
        let from = rank(ofRow: origin.selected, in: index) ?? 0
        find.current = IncrementalSearch.step(find.matches, from: from, forward: true, inclusive: true)
        if let current = find.current {
            select(rank: find.matches[current], in: index)
        } else {
            selectedIndex = origin.selected
            topRow = origin.top
            clampSelection()
        }
    }

    /// `n`/`N` (↓/↑ on the search line): the next or previous match after the selection, wrapping.
    private mutating func stepSearch(forward: Bool) {
        guard let index = searchIndex() else { return }
        let from = rank(ofRow: selectedIndex, in: index) ?? 0
        find.current = IncrementalSearch.step(find.matches, from: from, forward: forward)
        guard let current = find.current else {
            message = strings.noMatch(find.query)
            return
        }
        select(rank: find.matches[current], in: index)
    }

    /// The index of the collection shown, made anew for another version (the query is then
    /// searched again, once).
    private mutating func searchIndex() -> TaskSearchIndex? {
        guard let shown = shownCollection else { return nil }
        if let index = find.index, index.version == shownKey, index.count == shown.count { return index }
        let index = TaskSearchIndex(shown, version: shownKey)
        find.index = index
        find.incremental.reset()
        refreshMatches()
        return index
    }

    /// A kept search finds among the rows shown now (`n`/`N`, the footer's count).
    mutating func refreshMatches() {
        guard !find.query.isEmpty, let index = find.index else {
            find.matches = []
            return
        }
        find.matches = visibleMatches(find.incremental.matches(for: find.query, in: index))
    }

    /// With a filter on, only the matches among its rows.
    func visibleMatches(_ matches: [Int32]) -> [Int32] {
        guard find.filter != nil, let index = find.index else { return matches }
        let rows = outline
        return matches.filter { rows.index(ofPosition: Int(index.positionAtRank[Int($0)])) != nil }
    }

    private func rank(ofRow row: Int, in index: TaskSearchIndex) -> Int? {
        guard row >= 0, row < outline.count else { return nil }
        let position = outline.position(at: row)
        return index.rankAtPosition.indices.contains(position) ? Int(index.rankAtPosition[position]) : nil
    }

    /// Selects the task at `rank`, opening the collapsed groups around it, near the screen's middle.
    private mutating func select(rank: Int32, in index: TaskSearchIndex) {
        guard let shown = shownCollection else { return }
        let position = Int(index.positionAtRank[Int(rank)])
        if outline.index(ofPosition: position) == nil, find.filter == nil {
            var parent = shown.parentPosition(of: position)
            while let current = parent {
                let id = shown.tasks[current].id
                if outline.collapsed.contains(id) { taskViews.setCollapsed(id, false, in: taskView, of: shown) }
                parent = shown.parentPosition(of: current)
            }
        }
        guard let row = outline.index(ofPosition: position) else { return }
        selectedIndex = row
        if row < topRow || row >= topRow + visibleRowCount { topRow = row - visibleRowCount / 2 }
        clampSelection()
    }

    // MARK: Moving

    /// Ctrl-D / Ctrl-U: half a page down or up, the rows scrolling with the selection.
    private mutating func halfPage(_ direction: Int) -> KeyRoute {
        if mode == .history { return .pass(direction > 0 ? .pageDown : .pageUp) }
        message = nil
        let step = max(visibleRowCount / 2, 1) * direction
        if mode != .resources { topRow += step }
        selectedIndex += step
        clampSelection()
        return .handled(mode == .resources ? resourceWatch() : [])
    }

    /// The key after `g`: `g` the first row, a digit opens the date line with it.
    private mutating func pressAfterG(_ key: Key) -> KeyRoute {
        find.goPending = false
        switch key {
        case .character("g"): return .pass(.home)
        case .character(let digit) where digit.isASCII && digit.isNumber:
            find.dateLine = LineEditor(String(digit))
        default: break
        }
        return .handled([])
    }

    private mutating func pressInDateLine(_ key: Key) -> [ClientAction] {
        guard var line = find.dateLine else { return [] }
        switch key {
        case .escape: find.dateLine = nil
        case .enter:
            find.dateLine = nil
            guard let date = DateInput.parse(line.text) else {
                message = strings.notADate(line.text)
                return []
            }
            return goTo(date)
        default:
            line.handle(key)
            find.dateLine = line
        }
        return []
    }

    /// Shows `date` at the timeline's left edge (the list switches to the timeline).
    private mutating func goTo(_ date: CivilDate) -> [ClientAction] {
        if mode == .list { switchView() }
        let horizon = settings.horizon
        if date < horizon.start || date > horizon.lastDate {
            message = strings.outsideHorizon(date, from: horizon.start, to: horizon.lastDate)
        }
        viewport.show(date)
        return mode == .resources ? resourceWatch() : []
    }

    /// `f`: the selected task's bar, its start at the timeline's left edge (a group's from its
    /// summary values; an unscheduled task has none).
    private mutating func showSelectedBar() {
        guard let shown = shownCollection, selectedIndex < outline.count else { return }
        let row = outline.row(at: selectedIndex, in: shown)
        guard let start = row.start else {
            message = strings.noBar(row.task.title)
            return
        }
        if mode == .list { switchView() }
        viewport.show(start)
    }
}

/// A date typed on the date line: ISO (`2026-10-01`) or German (`1.10.2026`, `01.10.2026`).
enum DateInput {
    /// The date `text` names, or nil.
    static func parse(_ text: String) -> CivilDate? {
        let trimmed = text.trimmed
        if let date = try? CivilDate(trimmed) { return date }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2]),
            parts[2].count == 4
        else { return nil }
        return try? CivilDate(year: year, month: month, day: day)
    }
}
