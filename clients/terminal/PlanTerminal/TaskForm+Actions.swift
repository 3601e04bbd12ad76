import ChronoSketchCore

/// A draft that cannot become a proposal, with a message for people.
public struct FormError: Error, Sendable, Hashable {
    /// The localized message.
    public let message: String
}

extension TaskForm {
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
        let reader = DraftReader(language: language)
        if let operation = try taskOperation(reader) { return operation }
        switch action {
        case .order:
            guard let original, let siblingID = fields[1].selectedID, let sibling = collection[siblingID] else { break }
            return .reorder(
                previous: original, relativeTo: sibling, position: fields[0].selectedID == "before" ? .before : .after)
        case .addTask, .addChild:
            return .add(try newTask(id: newID, reader))
        case .link:
            guard let original, let other = fields[1].selectedID else { break }
            let type = fields.indices.contains(2) ? DependencyType(rawValue: fields[2].selectedID ?? "") : nil
            let lag = fields.indices.contains(3) ? try reader.lag(fields[3].text) : 0
            let (from, to) = fields[0].selectedID == "successor" ? (other, original.id) : (original.id, other)
            return .link(TaskDependency(predecessorID: from, successorID: to, type: type ?? .finishToStart, lag: lag))
        case .unlink:
            guard let id = fields[0].selectedID else { break }
            let parts = id.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            // Named by value, type and lag included, as the copy holds it (scheduling.md §2).
            return .unlink(
                collection.dependency(from: parts[0], to: parts[1])
                    ?? TaskDependency(predecessorID: parts[0], successorID: parts[1]))
        default:
            break
        }
        throw FormError(message: reader.strings.actionUnavailable)
    }

    /// The actions that replace or remove the task itself; nil for the others (and for a draft
    /// that does not fit the task).
    private func taskOperation(_ reader: DraftReader) throws(FormError) -> PlanOperation? {
        guard let original else { return nil }
        switch (action, original.kind) {
        case (.details, _):
            return .replace(previous: original, proposed: original.with(title: try reader.title(fields[0].text)))
        case (.dates, .milestone):
            return .replace(
                previous: original, proposed: original.with(kind: .milestone(date: try reader.date(fields[0].text))))
        case (.dates, .activity(let old, let progress)):
            let start = try reader.date(fields[0].text)
            let days = fields.count > 1 ? try reader.number(fields[1].text, 1...36_500) : (old?.days ?? 1)
            return .replace(
                previous: original,
                proposed: original.with(
                    kind: .activity(schedule: try reader.schedule(start, days), progress: progress)))
        case (.duration, .activity(let old?, let progress)):
            let days = try reader.number(fields[0].text, 1...36_500)
            return .replace(
                previous: original,
                proposed: original.with(
                    kind: .activity(schedule: try reader.schedule(old.start, days), progress: progress)))
        case (.progress, .activity(let schedule, _)):
            let progress = try reader.number(fields[0].text, 0...100)
            return .replace(
                previous: original,
                proposed: original.with(kind: .activity(schedule: schedule, progress: Double(progress))))
        case (.group, _):
            let parent = fields[0].selectedID.flatMap { $0.isEmpty ? nil : $0 }
            return .replace(previous: original, proposed: original.with(parentID: parent))
        case (.remove, _):
            return .remove(previous: original)
        default:
            return nil
        }
    }

    /// The task an add form describes.
    private func newTask(id: String, _ reader: DraftReader) throws(FormError) -> GanttTask {
        let title = try reader.title(fields[0].text)
        let startText = fields[2].text.trimmed
        let kind: GanttTaskKind
        switch fields[1].selectedID {
        case "milestone": kind = .milestone(date: try reader.date(startText))
        case "summary": kind = .summary
        default:
            kind = .activity(
                schedule: startText.isEmpty
                    ? nil : try reader.schedule(reader.date(startText), reader.number(fields[3].text, 1...36_500)),
                progress: 0)
        }
        let parent = fields[4].selectedID.flatMap { $0.isEmpty ? nil : $0 }
        do {
            return try GanttTask(id: id, title: title, parentID: parent, kind: kind)
        } catch {
            throw FormError(message: reader.strings.rejection(error.code))
        }
    }
}

/// Reads a draft's fields as values, with messages in one language.
private struct DraftReader {
    let language: PlanLanguage
    var de: Bool { language == .german }
    var strings: TerminalStrings { TerminalStrings(language) }

    func title(_ text: String) throws(FormError) -> String {
        let title = text.trimmed
        guard !title.isEmpty else { throw FormError(message: de ? "Der Titel ist leer." : "The title is empty.") }
        return title
    }

    /// A lag: a whole number of working days in −1000…1000.
    func lag(_ text: String) throws(FormError) -> Int {
        // "+2" and "−2" (a typographic minus) read too.
        var written = String(text.trimmed.map { $0 == "−" ? "-" : $0 })
        if written.hasPrefix("+") { written.removeFirst() }
        guard let lag = Int(written), TaskDependency.lagRange.contains(lag) else {
            throw FormError(
                message: de
                    ? "Der Abstand ist eine ganze Zahl von Arbeitstagen zwischen −1000 und 1000."
                    : "The lag is a whole number of working days from −1000 to 1000.")
        }
        return lag
    }

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
            throw FormError(message: strings.rejection(.invalidSchedule))
        }
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
