import ChronoSketchCore

/// An action on the selected task (or, for `addTask`, on the plan), each opening a form.
public enum TaskAction: String, Sendable, Hashable, CaseIterable {
    case details, dates, duration, progress, group, order, addTask, addChild, remove, link, unlink
    /// Resource view: move the selected timeline entry (keeping its length) or reassign it.
    case moveEntry, reassignEntry
    /// Resource view: add an entry, remove, resize or retitle the selected one, show its details.
    case addEntry, removeEntry, resizeEntry, retitleEntry, entryDetails
    /// The plan's baselines: set one (at a version) or remove one.
    case baseline
    /// The plan's scheduling settings (mode, working days, holidays): a plan action, owners only.
    case settings
    /// The selected task's details, with the actions its kind allows (Enter or `i`).
    case info

    /// The actions of the resources view, in the order the help and the details list them.
    public static let entryActions: [TaskAction] = [
        .entryDetails, .addEntry, .moveEntry, .resizeEntry, .retitleEntry, .reassignEntry, .removeEntry,
    ]

    /// Whether the action is one of the resources view's (on timeline entries).
    public var isEntryAction: Bool { TaskAction.entryActions.contains(self) }

    /// The key that opens the action's form.
    public var key: Character {
        switch self {
        case .details: "e"
        case .dates: "d"
        case .duration: "u"
        case .progress: "p"
        case .group: "m"
        case .order: "o"
        case .addTask: "a"
        case .addChild: "c"
        case .remove: "x"
        case .link: "l"
        case .unlink: "L"
        case .moveEntry: "m"
        case .reassignEntry: "r"
        case .addEntry: "a"
        case .removeEntry: "x"
        case .resizeEntry: "s"
        case .retitleEntry: "e"
        case .entryDetails: "i"
        case .baseline: "b"
        case .settings: "S"
        case .info: "i"
        }
    }

    /// The actions seed 000 allows for a task's kind: summaries details/group/order (and child
    /// creation); milestones details/dates/group/order; unscheduled activities everything but
    /// duration; scheduled activities everything. Removal and dependencies follow the data rules
    /// (summaries are no dependency endpoints).
    public static func available(for task: GanttTask?) -> [TaskAction] {
        guard let task else { return [.addTask] }
        switch task.kind {
        case .summary: return [.details, .group, .order, .addTask, .addChild, .remove]
        case .milestone: return [.details, .dates, .group, .order, .addTask, .remove, .link, .unlink]
        case .activity(let schedule, _):
            let all: [TaskAction] = [
                .details, .dates, .duration, .progress, .group, .order, .addTask, .remove, .link, .unlink,
            ]
            return schedule == nil ? all.filter { $0 != .duration } : all
        }
    }

    /// The action's name.
    public func title(_ language: PlanLanguage) -> String {
        let de = language == .german
        switch self {
        case .details: return de ? "Details" : "Details"
        case .dates: return de ? "Termine" : "Dates"
        case .duration: return de ? "Dauer" : "Duration"
        case .progress: return de ? "Fortschritt" : "Progress"
        case .group: return de ? "Gruppe ändern" : "Change group"
        case .order: return de ? "Reihenfolge ändern" : "Change order"
        case .addTask: return de ? "Aufgabe hinzufügen" : "Add task"
        case .addChild: return de ? "Unteraufgabe hinzufügen" : "Add child task"
        case .remove: return de ? "Entfernen" : "Remove"
        case .link: return de ? "Abhängigkeit hinzufügen" : "Add dependency"
        case .unlink: return de ? "Abhängigkeit entfernen" : "Remove dependency"
        case .moveEntry: return de ? "Eintrag verschieben" : "Move entry"
        case .reassignEntry: return de ? "Eintrag neu zuordnen" : "Reassign entry"
        case .addEntry: return de ? "Eintrag hinzufügen" : "Add entry"
        case .removeEntry: return de ? "Eintrag entfernen" : "Remove entry"
        case .resizeEntry: return de ? "Beginn und Ende ändern" : "Change start and end"
        case .retitleEntry: return de ? "Eintrag umbenennen" : "Rename entry"
        case .entryDetails: return de ? "Eintrag: Details" : "Entry details"
        case .baseline: return de ? "Basislinie setzen oder entfernen" : "Set or remove a baseline"
        case .settings:
            return de ? "Planung: Modus, Arbeitstage, Feiertage" : "Scheduling: mode, working days, holidays"
        case .info: return de ? "Aufgabe: Details und Aktionen" : "Task details and actions"
        }
    }
}
