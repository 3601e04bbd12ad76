import ChronoSketchCore
import PlanProtocol

extension ClientModel {
    /// Tab: the next view. The list and the timeline each keep their own collapsed groups; the
    /// task selected in one is selected in the other (or its nearest shown group), and the
    /// resources view keeps its own selection.
    mutating func switchView() {
        switch mode {
        case .list, .timeline: lastSelectedTaskID = selectedTask?.id
        case .resources: lastResourceIndex = selectedIndex
        case .history: break
        }
        mode = mode.next
        topRow = 0
        switch mode {
        case .list, .timeline:
            lastTaskView = mode
            selectedIndex =
                shownCollection.flatMap { shown in
                    lastSelectedTaskID.flatMap { outline.nearestIndex(of: $0, in: shown) }
                } ?? 0
        case .resources: selectedIndex = lastResourceIndex
        case .history: break
        }
        layoutChanged()
    }

    /// Save on a task form: the draft becomes a proposal and the form waits for the answer. The
    /// proposal id is kept until the server decides it (a retry after `unavailable` or
    /// `rateLimited` is the same proposal, never applied twice), and a task the form adds keeps its
    /// id across every retry (seed 000's stable draft id).
    mutating func saveTaskForm(_ form: inout TaskForm) -> [ClientAction] {
        guard let collection else { return [] }
        if form.newID == nil, form.action == .addTask || form.action == .addChild {
            form.newID = nextID("t")
        }
        let newID = form.newID ?? ""
        let operation: PlanOperation
        do throws(FormError) {
            operation = try form.operation(in: collection, newID: newID, language: settings.language)
        } catch {
            form.error = error.message
            self.form = form
            return []
        }
        let id = beginSaving(&form)
        pending[id] = form.original?.id ?? newID
        scheduling.send(operation, id: id)
        return [.propose(operation, id: id)]
    }

    /// Enter (or `i`) on a task: its details and the actions its kind allows, each with its key
    /// (read-only for a past version: no actions).
    mutating func openTaskInfo() {
        guard let shown = shownCollection, let task = selectedTask else {
            message = strings.noSelection
            return
        }
        var form = TaskForm(action: .info, original: task, title: task.title, fields: [])
        form.info = TaskForm.infoLines(
            of: outline.row(at: selectedIndex, in: shown), in: shown,
            actions: history.past == nil ? allowedActions(for: task) : [], strings: strings,
            figures: history.past == nil && scheduling.figuresVersion == copy?.version
                ? scheduling.figures[task.id] : nil)
        form.focus = 1
        self.form = form
    }

    /// A key while a task's details are open: an action's key opens that action's form (one the
    /// role does not allow is refused in the footer, the details staying open).
    mutating func pressInTaskInfo(_ character: Character) -> Bool {
        guard form?.action == .info, history.past == nil,
            let action = TaskAction.available(for: form?.original).first(where: { $0.key == character })
        else { return false }
        guard allowed(action) else { return true }
        form = nil
        open(action)
        return true
    }
}

extension TaskForm {
    /// A task's details: title, kind, dates and length, progress, group, predecessors and
    /// successors (by title), and the actions with their keys.
    static func infoLines(
        of row: TaskRow, in collection: TaskCollection, actions: [TaskAction], strings: TerminalStrings,
        figures: ScheduleFigures.Task? = nil
    ) -> [String] {
        let labels = strings.taskInfoLabels
        let width = labels.width + 1
        let list = ListRenderer(language: strings.language)
        func titles(_ ids: [String]) -> String {
            ids.isEmpty ? "—" : ids.map { collection[$0]?.title ?? $0 }.joined(separator: ", ")
        }
        var dates = list.dates(of: row)
        if let days = row.task.schedule?.days { dates += " (" + strings.days(days) + ")" }
        var lines = [
            labels.title.padded(to: width) + " " + row.task.title,
            labels.kind.padded(to: width) + " " + strings.kind(row.task.kind),
            labels.dates.padded(to: width) + " " + dates,
        ]
        if let figures {
            lines.append(
                strings.slackColumn.padded(to: width) + " " + strings.slack(figures) + " · "
                    + strings.scheduleColumns.lateStart + " " + strings.date(figures.lateStart))
        }
        let progress = list.progress(of: row)
        if !progress.isEmpty { lines.append(labels.progress.padded(to: width) + " " + progress) }
        let group = row.task.parentID.map { collection[$0]?.title ?? $0 } ?? strings.topLevel
        lines += [
            labels.group.padded(to: width) + " " + group,
            labels.predecessors.padded(to: width) + " " + titles(collection.predecessorIDs(of: row.id)),
            labels.successors.padded(to: width) + " " + titles(collection.successorIDs(of: row.id)),
        ]
        guard !actions.isEmpty else { return lines }
        let keys = actions.map { String($0.key) + " " + $0.title(strings.language) }
        return lines + keys.joinedInLines(after: strings.entryActionsHeading, width: 64)
    }
}
