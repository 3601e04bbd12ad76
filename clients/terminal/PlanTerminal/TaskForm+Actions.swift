import ChronoSketchCore

/// A draft that cannot become a proposal, with a message for people.
public struct FormError: Error, Sendable, Hashable {
    /// The localized message.
    public let message: String
}

extension TaskForm {
    /// The form for `action` on `task` (nil only for `addTask`), with the draft taken from the
    /// confirmed data in `collection`.
    public static func open(
        _ action: TaskAction, task: GanttTask?, in collection: TaskCollection, language: PlanLanguage,
        today: CivilDate
    ) -> TaskForm {
        let de = language == .german
        let strings = TerminalStrings(language)
        let heading = action.title(language) + (task.map { ": " + $0.title } ?? "")
        let start = de ? "Beginn" : "Start"
        let days = de ? "Tage" : "Days"
        switch action {
        case .details:
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [.text(de ? "Titel" : "Title", task?.title ?? "")]
            )
        case .dates:
            switch task?.kind {
            case .milestone(let date):
                return TaskForm(
                    action: action, original: task, title: heading,
                    fields: [.text(de ? "Datum" : "Date", date.description)])
            case .activity(let schedule, _):
                var fields: [FormField] = [.text(start, (schedule?.start ?? today).description)]
                if schedule == nil { fields.append(.text(days, "1")) }
                return TaskForm(action: action, original: task, title: heading, fields: fields)
            default:
                return TaskForm(
                    action: action, original: task, title: heading, fields: [], note: strings.actionUnavailable)
            }
        case .duration:
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [.text(days, String(task?.schedule?.days ?? 1))])
        case .progress:
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [.text(de ? "Fortschritt (%)" : "Progress (%)", String(Int(task?.progress ?? 0)))])
        case .group:
            let excluded = task.map { descendants(of: $0.id, in: collection).union([$0.id]) } ?? []
            var options: [(id: String, label: String)] = [("", de ? "(oberste Ebene)" : "(top level)")]
            for candidate in collection.tasks where candidate.kind.isSummary && !excluded.contains(candidate.id) {
                options.append((candidate.id, candidate.title))
            }
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [.choice(de ? "Gruppe" : "Group", options, selected: task?.parentID ?? "")])
        case .order:
            let siblings = collection.childIDs(of: task?.parentID).filter { $0 != task?.id }.compactMap {
                collection[$0]
            }
            let positions: [(id: String, label: String)] = [
                ("before", de ? "vor" : "before"), ("after", de ? "nach" : "after"),
            ]
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [
                    .choice(de ? "Position" : "Position", positions, selected: "after"),
                    .choice(de ? "Geschwister" : "Sibling", siblings.map { ($0.id, $0.title) }, selected: nil),
                ],
                note: siblings.isEmpty
                    ? (de
                        ? "Keine Geschwister: die Reihenfolge kann nicht geändert werden."
                        : "No siblings: the order cannot change.") : nil)
        case .addTask, .addChild:
            let kinds: [(id: String, label: String)] = [
                ("activity", strings.kind(.activity(schedule: nil, progress: 0))),
                ("milestone", strings.kind(.milestone(date: today))), ("summary", strings.kind(.summary)),
            ]
            var groups: [(id: String, label: String)] = [("", de ? "(oberste Ebene)" : "(top level)")]
            for candidate in collection.tasks where candidate.kind.isSummary {
                groups.append((candidate.id, candidate.title))
            }
            return TaskForm(
                action: action, original: action == .addChild ? task : nil, title: heading,
                fields: [
                    .text(de ? "Titel" : "Title", ""), .choice(de ? "Art" : "Kind", kinds, selected: "activity"),
                    .text(start + (de ? " (leer: nicht geplant)" : " (empty: unscheduled)"), today.description),
                    .text(days, "1"),
                    .choice(de ? "Gruppe" : "Group", groups, selected: action == .addChild ? task?.id : ""),
                ])
        case .remove:
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [], note: nil)
        case .link:
            let others = collection.tasks.filter { !$0.kind.isSummary && $0.id != task?.id }
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [
                    .choice(
                        de ? "Diese Aufgabe ist" : "This task is",
                        [
                            ("predecessor", de ? "Vorgänger" : "predecessor"),
                            ("successor", de ? "Nachfolger" : "successor"),
                        ],
                        selected: "predecessor"),
                    .choice(de ? "von" : "of", others.map { ($0.id, $0.title) }, selected: nil),
                ],
                note: others.isEmpty ? strings.actionUnavailable : nil)
        case .moveEntry, .reassignEntry, .addEntry, .removeEntry, .resizeEntry, .retitleEntry, .entryDetails:
            return TaskForm(action: action, original: task, title: heading, fields: [], note: strings.actionUnavailable)
        case .unlink:
            let touching = collection.dependencies.filter { $0.predecessorID == task?.id || $0.successorID == task?.id }
            let options = touching.map { dependency in
                (
                    id: dependency.predecessorID + "\u{0}" + dependency.successorID,
                    label: (collection[dependency.predecessorID]?.title ?? dependency.predecessorID) + " → "
                        + (collection[dependency.successorID]?.title ?? dependency.successorID)
                )
            }
            return TaskForm(
                action: action, original: task, title: heading,
                fields: [.choice(de ? "Abhängigkeit" : "Dependency", options, selected: nil)],
                note: options.isEmpty ? (de ? "Keine Abhängigkeiten." : "No dependencies.") : nil)
        }
    }

    /// The ids of every descendant of `id`.
    static func descendants(of id: String, in collection: TaskCollection) -> Set<String> {
        var result = Set<String>()
        var queue = collection.childIDs(of: id)
        while let next = queue.popLast() {
            if result.insert(next).inserted { queue += collection.childIDs(of: next) }
        }
        return result
    }

    /// The proposal the draft stands for. Moving keeps the duration, changing the duration keeps
    /// the start, changing the progress keeps the dates.
    /// - Parameter newID: the id for a task the form adds.
    /// - Throws: `FormError` for a draft that is not a valid value (a bad date, a blank title).
    public func operation(in collection: TaskCollection, newID: String, language: PlanLanguage) throws(FormError)
        -> PlanOperation
    {
        let de = language == .german
        func date(_ text: String) throws(FormError) -> CivilDate {
            do { return try CivilDate(text.trimmed) } catch {
                throw FormError(message: (de ? "Ungültiges Datum: " : "Not a date: ") + text + " (YYYY-MM-DD)")
            }
        }
        func number(_ text: String, _ range: ClosedRange<Int>) throws(FormError) -> Int {
            guard let value = Int(text.trimmed), range.contains(value) else {
                throw FormError(
                    message: (de ? "Bitte eine Zahl von " : "Enter a number from ") + "\(range.lowerBound)"
                        + (de ? " bis " : " to ") + "\(range.upperBound): " + text)
            }
            return value
        }
        func schedule(_ start: CivilDate, _ days: Int) throws(FormError) -> TaskSchedule {
            do { return try TaskSchedule(start: start, days: days) } catch {
                throw FormError(message: TerminalStrings(language).rejection(.invalidSchedule))
            }
        }
        let original = self.original
        switch action {
        case .details:
            guard let original else { break }
            let title = fields[0].text.trimmed
            guard !title.isEmpty else { throw FormError(message: de ? "Der Titel ist leer." : "The title is empty.") }
            return .replace(previous: original, proposed: original.with(title: title))
        case .dates:
            guard let original else { break }
            switch original.kind {
            case .milestone:
                return .replace(
                    previous: original, proposed: original.with(kind: .milestone(date: try date(fields[0].text))))
            case .activity(let old, let progress):
                let start = try date(fields[0].text)
                let days = fields.count > 1 ? try number(fields[1].text, 1...36_500) : (old?.days ?? 1)
                return .replace(
                    previous: original,
                    proposed: original.with(kind: .activity(schedule: try schedule(start, days), progress: progress)))
            case .summary:
                break
            }
        case .duration:
            guard let original, case .activity(let old?, let progress) = original.kind else { break }
            let days = try number(fields[0].text, 1...36_500)
            return .replace(
                previous: original,
                proposed: original.with(kind: .activity(schedule: try schedule(old.start, days), progress: progress)))
        case .progress:
            guard let original, case .activity(let schedule, _) = original.kind else { break }
            let progress = try number(fields[0].text, 0...100)
            return .replace(
                previous: original,
                proposed: original.with(kind: .activity(schedule: schedule, progress: Double(progress))))
        case .group:
            guard let original else { break }
            let parent = fields[0].selectedID.flatMap { $0.isEmpty ? nil : $0 }
            return .replace(previous: original, proposed: original.with(parentID: parent))
        case .order:
            guard let original, let siblingID = fields[1].selectedID, let sibling = collection[siblingID] else { break }
            return .reorder(
                previous: original, relativeTo: sibling, position: fields[0].selectedID == "before" ? .before : .after)
        case .addTask, .addChild:
            let title = fields[0].text.trimmed
            guard !title.isEmpty else { throw FormError(message: de ? "Der Titel ist leer." : "The title is empty.") }
            let startText = fields[2].text.trimmed
            let kind: GanttTaskKind
            switch fields[1].selectedID {
            case "milestone": kind = .milestone(date: try date(startText))
            case "summary": kind = .summary
            default:
                kind = .activity(
                    schedule: startText.isEmpty
                        ? nil : try schedule(date(startText), number(fields[3].text, 1...36_500)),
                    progress: 0)
            }
            let parent = fields[4].selectedID.flatMap { $0.isEmpty ? nil : $0 }
            do {
                return .add(try GanttTask(id: newID, title: title, parentID: parent, kind: kind))
            } catch {
                throw FormError(message: TerminalStrings(language).rejection(error.code))
            }
        case .remove:
            guard let original else { break }
            return .remove(previous: original)
        case .link:
            guard let original, let other = fields[1].selectedID else { break }
            return fields[0].selectedID == "successor"
                ? .link(TaskDependency(predecessorID: other, successorID: original.id))
                : .link(TaskDependency(predecessorID: original.id, successorID: other))
        case .moveEntry, .reassignEntry, .addEntry, .removeEntry, .resizeEntry, .retitleEntry, .entryDetails:
            break
        case .unlink:
            guard let id = fields[0].selectedID else { break }
            let parts = id.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            return .unlink(TaskDependency(predecessorID: parts[0], successorID: parts[1]))
        }
        throw FormError(message: TerminalStrings(language).actionUnavailable)
    }
}

extension String {
    /// The string without leading and trailing white space.
    var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
