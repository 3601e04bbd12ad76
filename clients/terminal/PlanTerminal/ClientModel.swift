import ChronoSketchCore
import PlanProtocol

/// The interactive client as a state machine: feed it events, perform the actions it returns,
/// and draw `render()`. The screen is a pure function of the confirmed data, the view state and
/// the terminal size; nothing changes on screen before `confirmed`.
public struct ClientModel: Sendable {
    /// The settings (the language switches with `w`).
    public internal(set) var settings: ClientSettings
    /// The terminal size.
    public internal(set) var width = 80
    /// The terminal height.
    public internal(set) var height = 24
    /// The connection's state.
    public internal(set) var connection = ConnectionState.connecting
    /// The confirmed copy, after the first snapshot.
    public internal(set) var copy: ClientPlanCopy?
    /// The copy's tasks as a collection (for rows, summaries and arrows).
    public internal(set) var collection: TaskCollection?
    /// Why the copy could not become a collection.
    public internal(set) var dataError: String?
    /// The other sessions on the plan.
    public internal(set) var presence: [PresenceSession] = []
    /// The view shown.
    public var mode = ViewMode.list
    /// Whether the help screen is open.
    public internal(set) var showsHelp = false
    /// The first help line shown (the help scrolls on a short terminal).
    public internal(set) var helpTop = 0
    /// The list's and the timeline's rows, each view with its own collapsed summaries.
    public internal(set) var taskViews = TaskViews()
    /// The selected row's index among the visible rows.
    public internal(set) var selectedIndex = 0
    /// The first row shown.
    public internal(set) var topRow = 0
    /// The chart's horizontal window and zoom.
    public internal(set) var viewport: ChartViewport
    /// The open form. A form opened on confirmed data keeps the version it read them at (a
    /// stale rejection says what changed since).
    public internal(set) var form: TaskForm? {
        didSet { if form != nil && form?.baseVersion == nil { form?.baseVersion = copy?.version } }
    }
    /// Proposals waiting for an answer: id → the task it concerns.
    public internal(set) var pending: [String: String] = [:]
    /// The footer message (errors, confirmations).
    public internal(set) var message: String?
    /// The resource view's state.
    public internal(set) var resources: ResourceViewState
    /// The user the server authenticated.
    public internal(set) var user: String?
    /// Whether the role on the plan ended (see `ClientModel+Roles`).
    public internal(set) var roleEnded = false
    /// The history read, a past version shown, the baseline shadow, undos in flight.
    public internal(set) var history = HistoryViewState()
    /// Pushed tasks marked, the figures of the rows on screen, a conflict offered again.
    public internal(set) var scheduling = ScheduleViewState()
    /// The plan details (`I`) and the calendar feed's address, asked for when first shown.
    public internal(set) var planInfo = PlanInfoState()
    /// The search, the filter and the "go to" keys (see `ClientModel+Find`).
    public internal(set) var find = FindState()
    /// A bar dragged with the mouse (see `ClientModel+Mouse`).
    public internal(set) var drag: BarDrag?
    /// The task view (list or timeline) a past version opens in.
    var lastTaskView = ViewMode.list
    /// The task selected when a task view was left (selected again in the next one).
    var lastSelectedTaskID: String?
    /// The resource selected when the resources view was left.
    var lastResourceIndex = 0
    var counter = 0

    /// A client with nothing received yet.
    public init(settings: ClientSettings) {
        self.settings = settings
        resources = ResourceViewState(idPrefix: settings.idPrefix)
        viewport = ChartViewport(axis: TimeAxis(horizon: settings.horizon, zoom: settings.zoom), visibleColumns: 1)
        layoutChanged()
    }

    /// The localized strings.
    public var strings: TerminalStrings { TerminalStrings(settings.language) }

    /// The tasks shown: the past version opened, else the confirmed plan.
    public var shownCollection: TaskCollection? { history.past.map(\.collection) ?? collection }

    /// The task view shown, or the one last shown (in the resources and history views).
    public var taskView: ViewMode { mode == .list || mode == .timeline ? mode : lastTaskView }

    /// The rows of the task view (`taskView`), kept between key presses.
    public var outline: TaskOutline { find.filteredOutline(key: shownKey) ?? taskViews.outline(taskView) }

    /// The collapsed summaries of the task view (each view keeps its own).
    public var collapsed: Set<String> { outline.collapsed }

    /// Every visible row of the task view (the screen builds only the rows it shows).
    public var rows: [TaskRow] { shownCollection.map { outline.allRows(in: $0) } ?? [] }

    /// The rows `indexes` of the task view, for drawing.
    func rows(_ indexes: Range<Int>) -> [TaskRow] {
        shownCollection.map { outline.rows(indexes, in: $0) } ?? []
    }

    /// The selected task.
    public var selectedTask: GanttTask? {
        guard let collection = shownCollection, selectedIndex >= 0, selectedIndex < outline.count else { return nil }
        return collection.tasks[outline.position(at: selectedIndex)]
    }

    /// The task ids with pending proposals.
    public var pendingTaskIDs: Set<String> {
        Set(pending.filter { resources.pendingEntries[$0.key] == nil }.values)
    }

    /// The timeline entry ids with pending proposals (moves and reassignments).
    public var pendingEntryIDs: Set<String> { Set(resources.pendingEntries.values) }

    /// How many rows of tasks fit in the body.
    var bodyHeight: Int { max(height - 3, 1) }
    var visibleRowCount: Int {
        max(bodyHeight - (mode == .list || mode == .history ? 1 : ChartRenderer.headerHeight), 1)
    }
    var nameWidth: Int { min(max(width / 4, 14), 32) }

    // MARK: Events

    /// Feeds an event; returns what to do (and, after it, the figures the screen needs).
    public mutating func handle(_ event: ClientEvent) -> [ClientAction] {
        let actions = dispatch(event)
        return actions + refreshFind() + askFigures()
    }

    private mutating func dispatch(_ event: ClientEvent) -> [ClientAction] {
        switch event {
        case .resize(let width, let height):
            self.width = max(width, 20)
            self.height = max(height, 6)
            layoutChanged()
            return resourceWatch()
        case .welcome(let user):
            connection = .connected
            self.user = user
            // A reconnect: what was missed comes as confirmed; their ops with a fresh page.
            return (history.loaded ? readHistory() : []) + askFeedIfShown()
        case .disconnected(let reason, let willReconnect):
            connection = willReconnect ? .reconnecting(reason: reason) : .closed(reason: reason)
            scheduling.connectionLost()
            planInfo.connectionLost()
            // Who else is here is unknown until the server tells again after the reconnect.
            presence = []
            return []
        case .copy(let copy):
            let first = self.copy == nil
            let role = self.copy?.role
            receive(copy)
            roleChanged(from: role)
            return resourceWatch() + (first ? readHistory() : [])
        case .server(let message):
            defer { refreshConflict() }
            if case .confirmed(let plan, let version, let mutationID, let user, let changes, _, _) = message,
                plan == settings.plan
            {
                let notice = notice(mutationID: mutationID, user: user, changes: changes)
                follow(version: version, changes: changes)
                let actions = receive(message) + resourceWatch() + followPushes(changes, version: version)
                if let notice { self.message = notice }
                return actions
            }
            return receive(message)
        case .key(let key):
            return press(key)
        case .wake(let token) where token < 0:
            scheduling.wake(token: token)
            return []
        case .wake(let token):
            return resources.planner.wake(token: token).map(ClientAction.init)
        }
    }

    private mutating func receive(_ message: ServerMessage) -> [ClientAction] {
        endDragGhost(answering: message)
        if receiveFind(message) { return [] }
        if let actions = receiveHistory(message) { return actions }
        if receiveFeed(message) { return [] }
        if receiveScheduling(message) { return [] }
        switch message {
        case .ack(let id, _, _, let noop, _):
            _ = scheduling.sent(id)
            pending[id] = nil
            resources.pendingEntries[id] = nil
            // Seed 000: a no-op reorder stays silent (the form closes, nothing is said).
            var silent = false
            if case .saving(id)? = form?.phase {
                silent = noop && form?.action == .order
                form = nil
                resources.formTarget = nil
            }
            self.message = silent ? nil : noop ? strings.unchanged : strings.saved
        case .rejected(let id, _, let code, _, _, _, let conflict):
            // A conflict of a task proposal of ours is offered again at its earliest date.
            if code == .scheduleConflict, receiveConflict(id: id, conflict: conflict) { break }
            let operation = scheduling.sent(id)
            pending[id] = nil
            resources.pendingEntries[id] = nil
            if case .saving(id)? = form?.phase {
                let reason = strings.rejection(code)
                form?.phase = .editing
                form?.error = reason
                // A decided proposal id is answered the same forever: the next Save needs a new
                // one. `unavailable` and `rateLimited` are no decisions: the retry keeps it.
                if code != .unavailable && code != .rateLimited { form?.proposalID = nil }
                // A stale value: what changed since, and the draft offered on the current value.
                if code.namesStaleValue { explainStale(operation) }
            } else {
                self.message = rejectedText(code)
            }
        case .presence(let plan, _, let sessions) where plan == settings.plan:
            presence = sessions
        case .role(let plan, _) where plan == settings.plan:
            receiveRole(message)
        case .planError(_, _, let plan) where plan == settings.plan:
            endRole()
        case .error(let code, _, nil) where endsRole(code):
            endRole()
        case .error(let code, let text, _):
            // A watch has no ref: a badQuery while the view loads is its answer.
            if code == .badQuery { resources.planner.refused(text) }
            self.message = strings.serverError(text)
        case .page(let plan, let watch, _, _, let page, _) where plan == settings.plan:
            receivePage(watch: watch, page: page)
        default:
            break
        }
        return []
    }

    // MARK: Keys

    private mutating func press(_ pressed: Key) -> [ClientAction] {
        var key = pressed
        if showsHelp {
            pressInHelp(key)
            return []
        }
        if planInfo.shown {
            planInfo.shown = false
            return []
        }
        if form != nil { return pressInForm(key) }
        switch route(key) {
        case .handled(let actions): return actions
        case .pass(let passed): key = passed
        }
        message = nil
        let offer = scheduling.offer
        scheduling.dropOffer()
        if key == .character("M") { return takeConflictOffer(offer) }
        if mode == .history, let actions = pressInHistory(key) { return actions }
        switch key {
        case .character("q"): return [.quit]
        case .character("?"), .character("h"): showsHelp = true
        case .character("w"): switchLanguage()
        case .tab, .character("v"):
            switchView()
            return resourceWatch() + (mode == .history ? readMissingDetails() : [])
        case .escape where history.past != nil: closePast()
        case .character("z"): return pressUndo(redo: false)
        case .character("Z"): return pressUndo(redo: true)
        case .character("b"): openBaselineForm()
        case .character("S"): openSettingsForm()
        case .character("B"): return cycleShadow()
        case .character("I"): return openPlanInfo()
        case .up, .character("k"): moveSelection(-1)
        case .down, .character("j"): moveSelection(1)
        case .pageUp: moveSelection(-visibleRowCount)
        case .pageDown: moveSelection(visibleRowCount)
        case .home: moveSelection(-selectedIndex)
        case .end: moveSelection(mode == .resources ? resources.rowCount(copy: copy) : outline.count)
        case .character(" ") where mode == .resources: toggleResource()
        case .character(" "): toggleDisclosure()
        case .left, .character("["):
            if mode == .list { setCollapsed(true) } else { viewport.movePrevious() }
        case .right, .character("]"):
            if mode == .list { setCollapsed(false) } else { viewport.moveNext() }
        case .character("t"): viewport.showToday(settings.today)
        case .character("+"), .character("="): zoom(viewport.axis.zoom.finer)
        case .character("-"): zoom(viewport.axis.zoom.coarser)
        case .enter where mode == .resources:
            openEntryDetails()
            return []
        case .enter:
            open(.info)
        case .character(let character):
            if mode == .resources { return pressInResources(character) }
            if let action = TaskAction.allCases.first(where: { !$0.isEntryAction && $0.key == character }) {
                open(action)
            }
        default:
            break
        }
        return mode == .resources ? resourceWatch() : []
    }

    mutating func open(_ action: TaskAction) {
        if action == .info {
            openTaskInfo()
            return
        }
        guard history.past == nil else {
            message = strings.readOnly(history.past?.version ?? 0)
            return
        }
        guard let collection, allowed(action) else { return }
        let task = selectedTask
        guard action == .addTask || task != nil else {
            message = strings.noSelection
            return
        }
        guard TaskAction.available(for: task).contains(action) else {
            message = strings.actionUnavailable
            return
        }
        form = TaskForm.open(action, task: task, in: collection, language: settings.language, today: settings.today)
    }

    private mutating func pressInForm(_ key: Key) -> [ClientAction] {
        guard var form else { return [] }
        if case .character(let character) = key, pressInDetails(character) || pressInTaskInfo(character) {
            return []
        }
        switch form.handle(key) {
        case .none:
            self.form = form
        case .close:
            self.form = nil
            resources.formTarget = nil
        case .save where form.conflict != nil:
            return applyMine(&form)
        case .save where form.action.isEntryAction:
            return saveEntryForm(&form)
        case .save where form.action == .baseline:
            return saveBaselineForm(&form)
        case .save where form.action == .settings:
            return saveSettingsForm(&form)
        case .save:
            return saveTaskForm(&form)
        }
        return []
    }

    // MARK: Selection, disclosure, layout

    private mutating func moveSelection(_ delta: Int) {
        selectedIndex += delta
        clampSelection()
    }

    mutating func clampSelection() {
        let count = mode == .resources ? resources.rowCount(copy: copy) : outline.count
        selectedIndex = min(max(selectedIndex, 0), max(count - 1, 0))
        if selectedIndex < topRow { topRow = selectedIndex }
        if selectedIndex >= topRow + visibleRowCount { topRow = selectedIndex - visibleRowCount + 1 }
        topRow = max(min(topRow, max(count - visibleRowCount, 0)), 0)
        if mode == .resources { clampResourceScroll() }
    }

    private mutating func toggleDisclosure() {
        guard let task = selectedTask, task.kind.isSummary else { return }
        setCollapsed(!collapsed.contains(task.id))
    }

    private mutating func setCollapsed(_ value: Bool) {
        guard let task = selectedTask, task.kind.isSummary, let shown = shownCollection else { return }
        taskViews.setCollapsed(task.id, value, in: taskView, of: shown)
        clampSelection()
    }

    /// Zooms, keeping the horizon start visible at the left edge and otherwise the date at the
    /// centre of the chart area (the column width in cells changes with the zoom).
    private mutating func zoom(_ zoom: TimelineZoom?) {
        guard let zoom else { return }
        let wasAtStart = viewport.firstColumn == 0
        let center = viewport.centerDate
        viewport.zoom(to: zoom)
        layoutChanged()
        guard !wasAtStart, let column = viewport.axis.columnIndex(of: center) else { return }
        viewport.scroll(toColumn: column - viewport.visibleColumns / 2)
    }

    mutating func layoutChanged() {
        let renderer = ChartRenderer(language: settings.language, nameWidth: nameWidth)
        var columns = renderer.visibleColumns(forWidth: width, zoom: viewport.axis.zoom)
        if mode == .resources {
            // No visible column beyond what one query may load.
            columns = min(columns, ResourceQueryPlanner.maximumVisibleColumns(zoom: viewport.axis.zoom))
        }
        viewport.resize(visibleColumns: columns)
        clampSelection()
    }
}
