import ChronoSketchCore

extension TaskForm {
    /// The timeline proposal an entry form's draft stands for: move (the length kept), resize
    /// (start and end each as typed), retitle, reassign (`timeline.apply` on `target`), remove
    /// (`timeline.remove`) or add (`timeline.add`, with the form's `newID` and one assignment per
    /// chosen resource).
    /// - Throws: `FormError` for a draft that is not a valid value (a bad time, an end not after
    ///   the start, a blank title, no resource).
    public func entryOperation(target: TimelineAssignedEntry?, language: PlanLanguage) throws(FormError)
        -> PlanOperation
    {
        let strings = TerminalStrings(language)
        func time(_ index: Int) throws(FormError) -> LocalDateTime {
            let text = fields[index].text.trimmed.replacingSpace(with: "T")
            do { return try LocalDateTime(text) } catch { throw FormError(message: strings.notATime) }
        }
        func interval(_ entry: TimelineEntry, _ start: LocalDateTime, _ end: LocalDateTime) throws(FormError)
            -> TimelineEntry
        {
            do { return try entry.with(start: start, end: end) } catch {
                throw FormError(message: strings.endNotAfterStart)
            }
        }
        func title(_ index: Int) throws(FormError) -> String {
            let title = fields[index].text.trimmed
            guard !title.isEmpty else { throw FormError(message: strings.titleEmpty) }
            return title
        }
        if action == .addEntry { return try addition(title: title(0), start: time(1), end: time(2), strings: strings) }
        guard let target else { throw FormError(message: strings.noEntrySelected) }
        var proposed = target
        switch action {
        case .moveEntry:
            let start = try time(0)
            guard let end = LocalDateTime(minuteNumber: start.minuteNumber + target.entry.minutes) else {
                throw FormError(message: strings.notATime)
            }
            proposed.entry = try interval(target.entry, start, end)
        case .resizeEntry:
            proposed.entry = try interval(target.entry, time(0), time(1))
        case .retitleEntry:
            proposed.entry = target.entry.with(title: try title(0))
        case .reassignEntry:
            guard let resource = fields[0].selectedID else { throw FormError(message: strings.noResourceChosen) }
            proposed.assignment = target.assignment.with(resourceID: resource)
        case .removeEntry:
            return .timelineRemove(entry: target.entry)
        default:
            throw FormError(message: strings.actionUnavailable)
        }
        return .timelineApply(original: target, proposed: proposed)
    }

    private func addition(title: String, start: LocalDateTime, end: LocalDateTime, strings: TerminalStrings)
        throws(FormError) -> PlanOperation
    {
        let resourceIDs = fields[3].selectedIDs
        guard !resourceIDs.isEmpty else { throw FormError(message: strings.noResourceChosen) }
        guard let newID else { throw FormError(message: strings.actionUnavailable) }
        do {
            let entry = try TimelineEntry(id: newID, title: title, start: start, end: end)
            let assignments = try resourceIDs.enumerated().map { index, resource throws(TimelineError) in
                try TimelineAssignment(id: newID + "-a\(index + 1)", entryID: newID, resourceID: resource)
            }
            return .timelineAdd(entry: entry, assignments: assignments)
        } catch {
            throw FormError(message: strings.endNotAfterStart)
        }
    }
}

extension String {
    /// The string with its first space (between a date and a time) replaced.
    func replacingSpace(with replacement: Character) -> String {
        guard let index = firstIndex(of: " ") else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: String(replacement))
        return copy
    }
}

extension TaskForm {
    /// A line-editing key on the focused text field (`LineEditor`): true when it was one.
    /// ←/→ move the cursor there (Shift-←/→ step a date, a time or a number).
    mutating func editText(_ key: Key) -> Bool {
        guard phase == .editing, fields.indices.contains(focus), case .text(let text) = fields[focus].value else {
            return false
        }
        switch key {
        case .tab, .backTab, .up, .down, .enter, .escape, .shiftLeft, .shiftRight, .mouse: return false
        default: break
        }
        var editor = LineEditor(text, cursor: fields[focus].cursor)
        let outcome = editor.handle(key)
        guard outcome != .unhandled else { return false }
        fields[focus].value = .text(editor.text)
        fields[focus].cursor = editor.cursor == editor.text.count ? nil : editor.cursor
        if outcome == .edited { error = nil }
        return true
    }
}
