import ChronoSketchCore
import PlanProtocol

extension ClientModel {
    /// A key of the resources view (outside a form).
    mutating func pressInResources(_ character: Character) -> [ClientAction] {
        var actions: [ClientAction] = []
        switch character {
        case "n":
            resources.entryIndex += 1
            let rows = resourceRows
            if rows.indices.contains(selectedIndex),
                resources.entryIndex >= resources.entries(of: rows[selectedIndex].id).count
            {
                resources.entryIndex = 0
            }
        case "R":
            actions = resources.planner.retry().map(ClientAction.init)
        default:
            if let action = TaskAction.entryActions.first(where: { $0.key == character }) { openEntryForm(action) }
        }
        return actions + resourceWatch()
    }

    /// Enter (or `i`) on an entry: its details and the actions, each with its key.
    mutating func openEntryDetails() {
        openEntryForm(.entryDetails)
    }

    /// Opens the form of an entry action on the selected entry (adding needs none).
    mutating func openEntryForm(_ action: TaskAction) {
        guard allowed(action) else { return }
        let labels = strings.entryLabels
        let heading = action.title(settings.language)
        if action == .addEntry {
            openAddEntry(heading: heading)
            return
        }
        guard let target = selectedEntry else {
            message = strings.noEntrySelected
            return
        }
        let entry = target.entry
        var form: TaskForm
        switch action {
        case .moveEntry:
            form = TaskForm(
                action: action, original: nil, title: heading + ": " + entry.title,
                fields: [.text(labels.start, entry.start.description)])
        case .resizeEntry:
            form = TaskForm(
                action: action, original: nil, title: heading + ": " + entry.title,
                fields: [.text(labels.start, entry.start.description), .text(labels.end, entry.end.description)])
        case .retitleEntry:
            form = TaskForm(
                action: action, original: nil, title: heading + ": " + entry.title,
                fields: [.text(labels.title, entry.title, required: true)])
        case .reassignEntry:
            form = TaskForm(
                action: action, original: nil, title: heading + ": " + entry.title,
                fields: [.picker(labels.resource, resourcePicker(chosen: target.assignment.resourceID))])
        case .removeEntry:
            form = TaskForm(action: action, original: nil, title: heading + ": " + entry.title, fields: [])
            form.info = [strings.confirmRemove(entry.title)]
        default:
            form = TaskForm(action: .entryDetails, original: nil, title: entry.title, fields: [])
            form.info = detailLines(of: target)
            form.focus = 1
        }
        resources.formTarget = target
        self.form = form
    }

    private mutating func openAddEntry(heading: String) {
        let labels = strings.entryLabels
        let visible = viewport.visibleColumnRange
        var day = settings.horizon.start
        if !visible.isEmpty {
            let first = viewport.axis.column(at: visible.lowerBound).firstDate
            let last = viewport.axis.column(at: visible.upperBound - 1).lastDate
            day = first <= settings.today && settings.today <= last ? settings.today : first
        }
        let start = (try? LocalDateTime(date: day, hour: 9, minute: 0)) ?? LocalDateTime(startOf: day)
        let end = LocalDateTime(minuteNumber: start.minuteNumber + 60) ?? start
        let rows = resourceRows
        let selected = rows.indices.contains(selectedIndex) ? [rows[selectedIndex]] : []
        var form = TaskForm(
            action: .addEntry, original: nil, title: heading,
            fields: [
                .text(labels.title, "", required: true), .text(labels.start, start.description),
                .text(labels.end, end.description),
                .picker(
                    labels.resources,
                    FieldPicker(several: .resources, picked: selected.map { PickerOption(id: $0.id, label: $0.label) })),
            ])
        form.newID = nextID("e")
        resources.formTarget = nil
        self.form = form
    }

    /// The details of an entry: title, interval, length, the resources it is loaded on, and the
    /// actions with their keys.
    func detailLines(of target: TimelineAssignedEntry) -> [String] {
        let labels = strings.entryLabels
        let entry = target.entry
        let names = Dictionary(resourceRows.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
        let assigned = resources.assignments(ofEntry: entry.id).map { names[$0.resourceID] ?? $0.resourceID }
        let width =
            ([labels.title, labels.start, labels.end, strings.durationLabel].map(\.displayWidth).max() ?? 0) + 1
        let lines = [
            labels.title.padded(to: width) + " " + entry.title,
            labels.start.padded(to: width) + " " + strings.dateTime(entry.start),
            labels.end.padded(to: width) + " " + strings.dateTime(entry.end),
            strings.durationLabel.padded(to: width) + " " + strings.duration(minutes: entry.minutes),
            labels.resources + ": " + (assigned.isEmpty ? "—" : assigned.joined(separator: ", ")),
        ]
        let actions = TaskAction.entryActions.filter { $0 != .entryDetails && $0 != .addEntry }
        let keys = actions.filter { roleRefusal($0) == nil }.map { String($0.key) + " " + $0.title(settings.language) }
        guard !keys.isEmpty else { return lines }
        return lines + keys.joinedInLines(after: strings.entryActionsHeading, width: 64)
    }

    /// Save on an entry form: the draft becomes a proposal (its id kept until the server
    /// decides it), and the form waits for the answer.
    mutating func saveEntryForm(_ form: inout TaskForm) -> [ClientAction] {
        let operation: PlanOperation
        do throws(FormError) {
            operation = try form.entryOperation(target: resources.formTarget, language: settings.language)
        } catch {
            form.error = error.message
            self.form = form
            return []
        }
        let id = beginSaving(&form)
        awaitEntryProposal(id, entryID: resources.formTarget?.entry.id ?? form.newID ?? id)
        return [.propose(operation, id: id)]
    }

    /// Proposal `id` about entry `entryID` waits for its answer (the views mark the entry).
    mutating func awaitEntryProposal(_ id: String, entryID: String) {
        pending[id] = entryID
        resources.pendingEntries[id] = entryID
    }

    /// Save on a form whose draft became a proposal: the proposal id the draft keeps until the
    /// server decides it (a retry is the same proposal), and the form waits for the answer.
    mutating func beginSaving(_ form: inout TaskForm) -> String {
        let id: String
        if let kept = form.proposalID {
            id = kept
        } else {
            id = nextID("p")
        }
        form.proposalID = id
        form.phase = .saving(proposalID: id)
        form.error = nil
        self.form = form
        return id
    }

    /// A key while an entry's details are open: an action's key opens that action's form.
    mutating func pressInDetails(_ character: Character) -> Bool {
        guard form?.action == .entryDetails,
            let action = TaskAction.entryActions.first(where: { $0.key == character && $0 != .addEntry })
        else { return false }
        guard allowed(action) else { return true }
        form = nil
        openEntryForm(action)
        return true
    }
}
