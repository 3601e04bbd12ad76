/// A form field that picks one of many (a link's other task, a group, a resource) by typing: the
/// query is edited like any text field, the model answers it from a `PickerIndex` (`needsMatches`
/// says when), ↓↑ move through the matches and Enter picks one. The value is the option picked;
/// a picker of several (`several`) keeps a list instead: Enter ticks or unticks the highlighted
/// match (the list stays open for the next), and Backspace on an empty query unticks the last.
public struct FieldPicker: Sendable, Hashable {
    /// What the picker offers.
    public enum Source: String, Sendable, Hashable {
        /// Every task but groups (a dependency's other end).
        case tasks
        /// The groups (summaries).
        case groups
        /// The plan's resources.
        case resources
    }

    /// What it offers.
    public let source: Source
    /// Ids not offered (the form's own task, a task's own descendants for its group).
    public let excluded: Set<String>
    /// An option that is not in the index, offered first while it matches ("(top level)").
    public let extra: PickerOption?
    /// The query.
    public internal(set) var query = LineEditor()
    /// The matches of `answered`, ranked.
    public internal(set) var matches: [PickerOption] = []
    /// Whether there were more than `matches`.
    public internal(set) var more = false
    /// The match under the cursor.
    public internal(set) var highlighted = 0
    /// The option picked: the field's value.
    public internal(set) var chosen: PickerOption?
    /// Whether the matches are shown (typing or ↓ opens them, Enter or Escape closes them).
    public internal(set) var listOpen = false
    /// The query the matches answer (nil before the first).
    public internal(set) var answered: String?
    /// Whether it picks several options (`picked`) rather than one (`chosen`).
    public let multiple: Bool
    /// A picker of several: the options picked, in the order they were picked.
    public internal(set) var picked: [PickerOption] = []

    /// A picker of `source` with `chosen` picked.
    public init(_ source: Source, chosen: PickerOption?, excluded: Set<String> = [], extra: PickerOption? = nil) {
        self.source = source
        self.chosen = chosen
        self.excluded = excluded
        self.extra = extra
        multiple = false
    }

    /// A picker of several options of `source`, `picked` already picked.
    public init(several source: Source, picked: [PickerOption]) {
        self.source = source
        self.picked = picked
        excluded = []
        extra = nil
        chosen = nil
        multiple = true
    }

    /// The ids of what the field holds: the options picked, or the one chosen.
    public var pickedIDs: [String] {
        multiple ? picked.map(\.id) : chosen.map { [$0.id] } ?? []
    }

    /// What the field shows as its value: the picked labels, or the chosen one, or "—".
    public var summary: String {
        guard multiple else { return chosen?.label ?? "—" }
        return picked.isEmpty ? "—" : picked.map(\.label).joined(separator: ", ")
    }

    /// Ticks `option` when it is not picked, else unticks it.
    mutating func toggle(_ option: PickerOption) {
        if let index = picked.firstIndex(where: { $0.id == option.id }) {
            picked.remove(at: index)
        } else {
            picked.append(option)
        }
    }

    /// Whether the query changed since the matches were made.
    public var needsMatches: Bool { answered != query.text }

    /// Takes the matches of the current query (`extra` first when it matches).
    public mutating func receive(_ found: [PickerOption], more: Bool) {
        var list = found
        if let extra,
            query.text.trimmed.isEmpty || TextFolding.fold(extra.label).contains(TextFolding.fold(query.text.trimmed))
        {
            list.insert(extra, at: 0)
        }
        matches = list
        self.more = more
        answered = query.text
        highlighted = min(highlighted, max(list.count - 1, 0))
    }

    /// A key on the focused field; false when it is not the picker's (the form moves on).
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .down where listOpen && !matches.isEmpty:
            highlighted = (highlighted + 1) % matches.count
        case .up where listOpen && !matches.isEmpty:
            highlighted = (highlighted + matches.count - 1) % matches.count
        case .enter where listOpen && !matches.isEmpty && multiple:
            toggle(matches[highlighted])
        case .enter where listOpen && !matches.isEmpty:
            chosen = matches[highlighted]
            listOpen = false
        case .backspace where multiple && query.text.isEmpty && !picked.isEmpty:
            picked.removeLast()
        case .escape where listOpen:
            listOpen = false
        case .tab, .backTab, .up, .down, .enter, .escape, .shiftLeft, .shiftRight, .mouse:
            return false
        default:
            guard query.handle(key) != .unhandled else { return false }
            listOpen = true
            highlighted = 0
        }
        return true
    }

    /// The lines the form shows under the focused field: at most `rows` matches around the one
    /// highlighted (in `selection`), then how many there are.
    func listLines(rows: Int, strings: TerminalStrings, selection: CellStyle = .reverse) -> [(String, CellStyle)] {
        guard listOpen else {
            return [("  " + (multiple ? strings.severalClosedHint : strings.pickerClosedHint), .dim)]
        }
        let first = min(max(highlighted - rows / 2, 0), max(matches.count - rows, 0))
        var lines: [(String, CellStyle)] = multiple ? [("  = " + summary, .normal)] : []
        let ticked = Set(picked.map(\.id))
        for index in first..<min(first + rows, matches.count) {
            let option = matches[index]
            let tick = multiple ? (ticked.contains(option.id) ? "[x] " : "[ ] ") : ""
            let text =
                "  " + tick + option.label
                + (option.label == option.id || option.id.isEmpty ? "" : "  (" + option.id + ")")
            lines.append((text, index == highlighted ? selection : .normal))
        }
        let hint = multiple ? strings.severalHint : strings.pickerHint
        lines.append(("  " + strings.pickerCount(matches.count, more: more) + " · " + hint, .dim))
        return lines
    }
}
