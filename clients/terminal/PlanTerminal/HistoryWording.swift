import ChronoSketchCore
import PlanProtocol

/// A version of the history in words, in English or German: "moved Storage layer to
/// 2026-09-28 – 2026-10-02", "undid v37: renamed “Spec” to “Draft”". Pure: the titles of tasks an
/// op names only by id (dependencies) come from `title`.
public struct HistoryWording: Sendable {
    /// The labels' language.
    public let language: PlanLanguage
    /// A task's title by id, for ops that name tasks only by id; nil: the id is shown.
    public let title: @Sendable (String) -> String?

    /// A wording in `language`.
    public init(language: PlanLanguage, title: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.language = language
        self.title = title
    }

    var de: Bool { language == .german }
    var strings: TerminalStrings { TerminalStrings(language) }

    /// What an entry did, in words. `undid(v)` is the version `v` undid when `v` was an undo
    /// itself (nil otherwise): undoing that undo is a redo, said "redid v5" after the version
    /// brought back, as the web client says it.
    public func describe(_ entry: ClientHistory.Entry, undid: (Int) -> Int? = { _ in nil }) -> String {
        guard let operation = entry.operation else {
            return entry.detailsRead
                ? (de ? "(keine Einzelheiten gespeichert)" : "(no details kept)") : (de ? "…" : "…")
        }
        let text = describe(operation)
        guard let undone = entry.undoes else { return text }
        if let redone = undid(undone) {
            return (de ? "stellte v\(redone) wieder her: " : "redid v\(redone): ") + text
        }
        return (de ? "machte v\(undone) rückgängig: " : "undid v\(undone): ") + text
    }

    /// What an op does, in words.
    public func describe(_ operation: PlanOperation) -> String {
        switch operation {
        case .replace(let previous, let proposed): return replaced(previous, proposed)
        case .add(let task):
            return (de ? "fügte " : "added ") + quoted(task.title) + into(task.parentID) + (de ? " hinzu" : "")
        case .restore(let task, _, _):
            return (de ? "stellte " : "restored ") + quoted(task.title) + (de ? " wieder her" : "")
        case .remove(let previous): return (de ? "entfernte " : "removed ") + quoted(previous.title)
        case .reorder(let previous, let relativeTo, let position):
            let where_ = position == .before ? (de ? " vor " : " before ") : (de ? " hinter " : " after ")
            return (de ? "verschob " : "moved ") + quoted(previous.title) + where_ + quoted(relativeTo.title)
        case .link(let dependency): return (de ? "verknüpfte " : "linked ") + arrow(dependency)
        case .unlink(let dependency):
            return (de ? "löste die Abhängigkeit " : "removed the dependency ") + arrow(dependency)
        case .relink(_, let proposed):
            return (de ? "änderte die Abhängigkeit " : "changed the dependency ") + arrow(proposed)
        case .settingsReplace(let previous, let proposed):
            guard previous.scheduling != proposed.scheduling else {
                return de ? "änderte Arbeitstage und Feiertage" : "changed the working days and holidays"
            }
            let mode =
                proposed.isAutomatic ? (de ? "automatisch" : "automatic") : (de ? "manuell" : "manual")
            return (de ? "stellte die Planung auf " : "set scheduling to ") + mode
        case .restoring(let base, let restores):
            let count = restores.count
            return describe(base)
                + (de ? " und stellte \(count) verschobene Aufgaben wieder her" : " and put back \(count) pushed tasks")
        case .timelineApply(let original, let proposed): return applied(original, proposed)
        case .timelineAdd(let entry, let assignments):
            let resources = assignments.map(\.resourceID).joined(separator: ", ")
            return (de ? "buchte " : "booked ") + quoted(entry.title) + (de ? " auf " : " on ") + resources
        case .timelineRemove(let entry):
            return (de ? "entfernte den Eintrag " : "removed the entry ") + quoted(entry.title)
        case .baselineSet(let name, let version):
            let at = version.map { " (v\($0))" } ?? ""
            return (de ? "setzte die Basislinie " : "set the baseline ") + quoted(name) + at
        case .baselineRemove(let name):
            return (de ? "entfernte die Basislinie " : "removed the baseline ") + quoted(name)
        case .undo(let version): return de ? "machte v\(version) rückgängig" : "undid v\(version)"
        }
    }

    private func replaced(_ previous: GanttTask, _ proposed: GanttTask) -> String {
        var parts: [String] = []
        let name = quoted(previous.title)
        if previous.title != proposed.title {
            parts.append(
                (de ? "benannte " : "renamed ") + name + (de ? " in " : " to ") + quoted(proposed.title)
                    + (de ? " um" : ""))
        }
        // The task by name (after a rename, by its new title): no pronoun to decline.
        func subject() -> String { parts.isEmpty ? name : quoted(proposed.title) }
        switch (previous.kind, proposed.kind) {
        case (.milestone(let old), .milestone(let new)) where old != new:
            parts.append((de ? "verschob " : "moved ") + subject() + (de ? " auf " : " to ") + strings.date(new))
        case (.activity(let oldSchedule, let oldProgress), .activity(let newSchedule, let newProgress)):
            if oldSchedule != newSchedule { parts.append(scheduled(subject(), oldSchedule, newSchedule)) }
            if oldProgress != newProgress {
                parts.append(
                    (de ? "setzte den Fortschritt von " : "set the progress of ") + subject() + (de ? " auf " : " to ")
                        + percent(newProgress))
            }
        case (let old, let new) where old != new:
            parts.append((de ? "machte " : "made ") + subject() + " " + kindPhrase(new))
        default:
            break
        }
        if previous.parentID != proposed.parentID {
            parts.append((de ? "verschob " : "moved ") + subject() + into(proposed.parentID, moving: true))
        }
        return parts.isEmpty ? (de ? "bearbeitete " : "edited ") + name : parts.joined(separator: "; ")
    }

    private func scheduled(_ subject: String, _ old: TaskSchedule?, _ new: TaskSchedule?) -> String {
        guard let new else { return (de ? "nahm " : "unscheduled ") + subject + (de ? " aus dem Plan" : "") }
        let range = strings.date(new.start) + " – " + strings.date(new.lastDate)
        if let old, old.start == new.start {
            let days = de ? "\(new.days) Tag\(new.days == 1 ? "" : "e")" : "\(new.days) day\(new.days == 1 ? "" : "s")"
            return (de ? "änderte die Dauer von " : "changed the duration of ") + subject + (de ? " auf " : " to ")
                + days
                + " (" + range + ")"
        }
        return (de ? "verschob " : "moved ") + subject + (de ? " auf " : " to ") + range
    }

    private func applied(_ original: TimelineAssignedEntry, _ proposed: TimelineAssignedEntry) -> String {
        let name = quoted(original.entry.title)
        var parts: [String] = []
        if original.entry.title != proposed.entry.title {
            parts.append(
                (de ? "benannte " : "renamed ") + name + (de ? " in " : " to ") + quoted(proposed.entry.title)
                    + (de ? " um" : ""))
        }
        func subject() -> String { parts.isEmpty ? name : quoted(proposed.entry.title) }
        if original.entry.start != proposed.entry.start || original.entry.end != proposed.entry.end {
            parts.append(
                (de ? "verschob " : "moved ") + subject() + (de ? " auf " : " to ") + proposed.entry.start.description
                    + " – " + proposed.entry.end.description)
        }
        if original.assignment.resourceID != proposed.assignment.resourceID {
            parts.append(
                (de ? "ordnete " : "reassigned ") + subject() + (de ? " " : " to ") + proposed.assignment.resourceID
                    + (de ? " zu" : ""))
        }
        return parts.isEmpty ? (de ? "bearbeitete " : "edited ") + name : parts.joined(separator: "; ")
    }

    /// "an activity" / "zu einem Vorgang", for "made X …".
    private func kindPhrase(_ kind: GanttTaskKind) -> String {
        switch kind {
        case .activity: de ? "zu einem Vorgang" : "an activity"
        case .milestone: de ? "zu einem Meilenstein" : "a milestone"
        case .summary: de ? "zu einer Gruppe" : "a summary"
        }
    }

    private func into(_ parentID: String?, moving: Bool = false) -> String {
        guard let parentID else { return moving ? (de ? " auf die oberste Ebene" : " to the top level") : "" }
        return (de ? " in " : " into ") + quoted(title(parentID) ?? parentID)
    }

    private func arrow(_ dependency: TaskDependency) -> String {
        quoted(title(dependency.predecessorID) ?? dependency.predecessorID) + " → "
            + quoted(title(dependency.successorID) ?? dependency.successorID)
    }

    private func quoted(_ text: String) -> String { de ? "„" + text + "“" : "“" + text + "”" }

    private func percent(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return (de ? String(text.map { $0 == "." ? "," : $0 }) : text) + " %"
    }
}
