import ChronoSketchCore

/// One field of a form: free text (dates and numbers too) or a choice among options.
public struct FormField: Sendable, Hashable {
    /// What the field holds.
    public enum Value: Sendable, Hashable {
        /// Text typed by the user.
        case text(String)
        /// The index of the chosen option among `options`.
        case choice(Int)
        /// The indexes of the chosen options and the option under the cursor (several choices).
        case multiple(Set<Int>, cursor: Int)
        /// One of many, picked by typing (`FieldPicker`).
        case picker(FieldPicker)
    }

    /// The label shown before the value.
    public let label: String
    /// The current draft value.
    public var value: Value
    /// For a choice: the options' labels.
    public let options: [String]
    /// For a choice: the ids behind the options.
    public let optionIDs: [String]
    /// Whether the field must not be blank (a title, a name): Save is disabled while it is.
    public var isRequired = false
    /// A text field's cursor, in clusters from the start (nil: at the end).
    public var cursor: Int?

    /// A text field; a `required` one (a title, a name) disables Save while it is blank.
    public static func text(_ label: String, _ value: String, required: Bool = false) -> FormField {
        FormField(label: label, value: .text(value), options: [], optionIDs: [], isRequired: required)
    }

    /// A choice field with `(id, label)` options.
    public static func choice(_ label: String, _ options: [(id: String, label: String)], selected: String?) -> FormField
    {
        let index = options.firstIndex { $0.id == selected } ?? 0
        return FormField(
            label: label, value: .choice(index), options: options.map(\.label), optionIDs: options.map(\.id))
    }

    /// A field choosing one or more of `(id, label)` options (Left/Right move, Space toggles).
    public static func multiple(_ label: String, _ options: [(id: String, label: String)], selected: Set<String>)
        -> FormField
    {
        let chosen = Set(options.indices.filter { selected.contains(options[$0].id) })
        return FormField(
            label: label, value: .multiple(chosen, cursor: chosen.min() ?? 0), options: options.map(\.label),
            optionIDs: options.map(\.id))
    }

    /// A field that picks one of many by typing (`FieldPicker`).
    public static func picker(_ label: String, _ picker: FieldPicker) -> FormField {
        FormField(label: label, value: .picker(picker), options: [], optionIDs: [])
    }

    /// The ids of the chosen options of a multiple choice, in option order.
    public var selectedIDs: [String] {
        if case .picker(let picker) = value { return picker.pickedIDs }
        guard case .multiple(let chosen, _) = value else { return selectedID.map { [$0] } ?? [] }
        return chosen.sorted().compactMap { optionIDs.indices.contains($0) ? optionIDs[$0] : nil }
    }

    /// The text of a text field.
    public var text: String {
        if case .text(let text) = value { return text }
        return ""
    }

    /// The id of a choice's selected option, or nil when there are none.
    public var selectedID: String? {
        if case .picker(let picker) = value { return picker.chosen?.id }
        guard case .choice(let index) = value, optionIDs.indices.contains(index) else { return nil }
        return optionIDs[index]
    }

    /// What the form shows as the value.
    public var display: String {
        switch value {
        case .text(let text): return text
        case .choice(let index): return options.indices.contains(index) ? "◂ " + options[index] + " ▸" : "—"
        case .multiple(let chosen, let cursor):
            guard options.indices.contains(cursor) else { return "—" }
            let names = chosen.sorted().compactMap { options.indices.contains($0) ? options[$0] : nil }
            return "◂ " + (chosen.contains(cursor) ? "[x] " : "[ ] ") + options[cursor] + " ▸  = "
                + (names.isEmpty ? "—" : names.joined(separator: ", "))
        case .picker(let picker):
            return picker.summary
        }
    }
}

/// A form on a draft: fields, Save and Close. Save sends a proposal and the form waits for the
/// answer: `ack` closes it, `rejected` shows the localized reason and keeps the draft.
public struct TaskForm: Sendable, Hashable {
    /// Whether the form is being edited or waits for the server.
    public enum Phase: Sendable, Hashable {
        /// Being edited.
        case editing
        /// Saved as the proposal with this id; waiting for `ack` or `rejected`.
        case saving(proposalID: String)
    }

    /// What Save does with a key press.
    public enum Outcome: Sendable, Hashable {
        /// Nothing for the client to do.
        case none
        /// The user chose Save.
        case save
        /// The user chose Close: discard the draft.
        case close
    }

    /// The action.
    public let action: TaskAction
    /// The task the form was opened on, as it was then (the stale check's `previous`); after
    /// "Apply mine", the task as it is now.
    public internal(set) var original: GanttTask?
    /// The form's heading.
    public let title: String
    /// The draft.
    public var fields: [FormField]
    /// The focused field; `fields.count` is Save, `fields.count + 1` is Close.
    public var focus = 0
    /// Editing or saving.
    public var phase = Phase.editing
    /// The last error: a validation message or a localized rejection reason.
    public var error: String?
    /// A note explaining why saving is not possible (e.g. no sibling to order against).
    public var note: String?
    /// Read-only lines shown above the fields (an entry's details).
    public var info: [String] = []
    /// The id of the proposal this draft was last saved as, kept until the server decides it (a
    /// retry after `unavailable` or a reconnect is the same proposal, never applied twice).
    public var proposalID: String?
    /// The id of what the draft adds (an entry), kept across every retry.
    public var newID: String?
    /// The settings form's `previous`: the plan's settings when it was opened.
    public var originalSettings: PlanSettings?
    /// The confirmed version the form's values were read at (when it opened, or when "Apply
    /// mine" put the draft on the current value): a stale rejection says what changed since.
    public internal(set) var baseVersion: Int?
    /// After a stale rejection: what changed since, and whether the draft can go on the current
    /// value. Save then becomes "Apply mine to the current version" (or is gone), Close "Discard".
    public internal(set) var conflict: FormConflict?
    /// The proposal the conflict is about (its words follow what arrives after the rejection).
    var staleOperation: PlanOperation?

    /// Creates a form.
    public init(action: TaskAction, original: GanttTask?, title: String, fields: [FormField], note: String? = nil) {
        self.action = action
        self.original = original
        self.title = title
        self.fields = fields
        self.note = note
    }

    /// Whether the form only shows (a task's or an entry's details): no Save, only Close.
    public var isReadOnly: Bool { action == .entryDetails || action == .info }

    /// The first required field that is blank (seed 000: Save is disabled for empty titles).
    public var blankRequiredField: FormField? {
        fields.first { $0.isRequired && $0.text.trimmed.isEmpty }
    }

    /// Whether Save (or "Apply mine") is possible: not while the form waits, explains why it
    /// cannot save, only shows, has a blank title, or conflicts with a value that is gone.
    public var canSave: Bool {
        note == nil && phase == .editing && !isReadOnly && blankRequiredField == nil && conflict?.applicable != false
    }

    /// Whether the Save slot is drawn: not on a read-only form, nor after a conflict whose value
    /// is gone (only Discard is left).
    var showsSave: Bool { !isReadOnly && conflict?.applicable != false }

    /// Feeds a key to the form.
    public mutating func handle(_ key: Key) -> Outcome {
        if phase == .editing, fields.indices.contains(focus), case .picker(var picker) = fields[focus].value,
            picker.handle(key)
        {
            fields[focus].value = .picker(picker)
            error = nil
            return .none
        }
        if key == .escape { return .close }
        if editText(key) { return .none }
        let count = fields.count + 2
        switch key {
        case .tab, .down:
            focus = (focus + 1) % count
            if focus == fields.count && !showsSave { focus += 1 }
        case .backTab, .up:
            focus = (focus + count - 1) % count
            if focus == fields.count && !showsSave { focus -= 1 }
        case .enter:
            if focus == fields.count + 1 { return .close }
            // On Save, and on the last (or only) field: save; on another field: the next one.
            if focus >= fields.count - 1 { return canSave ? .save : .none }
            focus += 1
        case .left, .right:
            guard phase == .editing, fields.indices.contains(focus) else {
                if focus >= fields.count { focus = key == .left ? fields.count : fields.count + 1 }
                return .none
            }
            step(key == .right ? 1 : -1)
        case .shiftLeft, .shiftRight:
            guard phase == .editing, fields.indices.contains(focus) else { return .none }
            step(key == .shiftRight ? 1 : -1)
        case .character(let character):
            guard phase == .editing, fields.indices.contains(focus) else { return .none }
            if character == " ", case .multiple(var chosen, let cursor) = fields[focus].value {
                if chosen.remove(cursor) == nil { chosen.insert(cursor) }
                fields[focus].value = .multiple(chosen, cursor: cursor)
                error = nil
            } else if character == " " {
                step(1)
            }
        default:
            break
        }
        return .none
    }

    /// Left/Right: the previous/next option of a choice; one day or one unit more or less for a
    /// date, a date and time (the time kept) or a number.
    private mutating func step(_ delta: Int) {
        switch fields[focus].value {
        case .choice(let index):
            let count = fields[focus].options.count
            guard count > 0 else { return }
            fields[focus].value = .choice((index + delta + count) % count)
        case .multiple(let chosen, let cursor):
            let count = fields[focus].options.count
            guard count > 0 else { return }
            fields[focus].value = .multiple(chosen, cursor: (cursor + delta + count) % count)
        case .picker:
            return
        case .text(let text):
            fields[focus].cursor = nil
            if let date = try? CivilDate(text), let moved = try? date.adding(days: delta) {
                fields[focus].value = .text(moved.description)
            } else if let time = try? LocalDateTime(text), let day = try? time.date.adding(days: delta),
                let moved = try? LocalDateTime(date: day, hour: time.hour, minute: time.minute)
            {
                fields[focus].value = .text(moved.description)
            } else if let number = Int(text) {
                fields[focus].value = .text(String(number + delta))
            }
        }
        error = nil
    }

    /// The form as it is drawn: a framed box `width` cells wide and at most `maxHeight` high
    /// (what does not fit is cut, a "…" line saying so, keeping the focused field in view). The
    /// focused text field shows its end, where the cursor is, when it is wider than the box. The
    /// focused field and a picker's highlighted match are drawn in `selection`.
    public func canvas(width: Int, strings: TerminalStrings, maxHeight: Int = .max, selection: CellStyle = .reverse)
        -> TextCanvas
    {
        let de = strings.language == .german
        let inner = width - 4
        let labelWidth = min((fields.map(\.label.displayWidth).max() ?? 0) + 1, width / 2)
        var lines: [(String, CellStyle)] = info.map { ($0, .normal) }
        if !info.isEmpty && !fields.isEmpty { lines.append(("", .normal)) }
        var focusLine: Int?
        for (index, field) in fields.enumerated() {
            let label = field.label.padded(to: labelWidth) + " "
            var value = field.display
            let room = max(inner - label.displayWidth, 1)
            if index == focus, case .text(let text) = field.value {
                value = LineEditor(text, cursor: field.cursor).display(width: room)
                focusLine = lines.count
            }
            if index == focus, case .picker(let picker) = field.value, picker.listOpen, phase == .editing {
                value = picker.query.display(width: room)
                focusLine = lines.count
            }
            lines.append((label + value, index == focus ? selection : .normal))
            if index == focus, case .picker(let picker) = field.value, phase == .editing {
                lines += picker.listLines(rows: 6, strings: strings, selection: selection)
            }
        }
        lines.append(("", .normal))
        if let note { lines += note.wrapped(to: inner).map { ($0, .dim) } }
        if let blank = blankRequiredField, phase == .editing {
            lines += strings.requiredBlank(blank.label).wrapped(to: inner).map { ($0, .dim) }
        }
        if let error { lines += ("! " + error).wrapped(to: inner).map { ($0, .bold) } }
        if let conflict, !conflict.text.isEmpty { lines += conflict.text.wrapped(to: inner).map { ($0, .bold) } }
        if case .saving = phase {
            lines.append((de ? "Wird gespeichert … warte auf den Server" : "Saving… waiting for the server", .dim))
        }
        lines = TaskForm.fitted(lines, into: max(maxHeight - 4, 1), keeping: focusLine)
        var canvas = TextCanvas(width: width, height: lines.count + 4)
        drawFrame(into: &canvas)
        for (offset, line) in lines.enumerated() {
            canvas.write(line.0.truncated(to: inner), x: 2, y: 1 + offset, style: line.1)
        }
        drawButtons(into: &canvas, strings: strings, selection: selection)
        return canvas
    }

    /// At most `count` of `lines`: cut at the end (or, to keep line `keeping` in view, at the
    /// start), with a "…" line where lines were left out.
    static func fitted(_ lines: [(String, CellStyle)], into count: Int, keeping: Int?) -> [(String, CellStyle)] {
        guard lines.count > count else { return lines }
        guard count > 1 else { return [("…", .dim)] }
        if let keeping, keeping >= count - 1 {
            let start = min(keeping - (count - 2), lines.count - (count - 1))
            return [("…", .dim)] + lines[start..<(start + count - 1)]
        }
        return lines.prefix(count - 1) + [("…", .dim)]
    }

    private func drawFrame(into canvas: inout TextCanvas) {
        let width = canvas.width
        canvas.write("┌" + String(repeating: "─", count: width - 2) + "┐", x: 0, y: 0)
        canvas.write(" " + title.truncated(to: max(width - 6, 1)) + " ", x: 2, y: 0, style: .bold, limit: width - 4)
        for row in 1..<(canvas.height - 1) {
            canvas.set("│", x: 0, y: row)
            canvas.set("│", x: width - 1, y: row)
        }
        canvas.write("└" + String(repeating: "─", count: width - 2) + "┘", x: 0, y: canvas.height - 1)
    }

    private func drawButtons(into canvas: inout TextCanvas, strings: TerminalStrings, selection: CellStyle) {
        let de = strings.language == .german
        // After a conflict Save would only repeat the rejection: it puts the draft on the current value.
        let save = "[ " + (conflict != nil ? strings.applyMine : de ? "Speichern" : "Save") + " ]"
        let close = "[ " + (conflict != nil ? strings.discard : de ? "Schließen" : "Close") + " ]"
        let buttons = canvas.height - 2
        if showsSave {
            // Disabled, it is dim even when focused.
            canvas.write(save, x: 2, y: buttons, style: !canSave ? .dim : (focus == fields.count ? selection : .normal))
        }
        canvas.write(
            close, x: showsSave ? 4 + save.displayWidth : 2, y: buttons,
            style: focus == fields.count + 1 ? selection : .normal)
    }
}

extension [String] {
    /// The items after `heading`, joined by " · " and broken into lines of at most `width`
    /// cells between items (an item is broken only when it is longer than a line).
    func joinedInLines(after heading: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = heading
        for item in self {
            let candidate = line.isEmpty ? item : line + (line == heading ? " " : " · ") + item
            if candidate.displayWidth <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line + " ·")
                line = item
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.flatMap { $0.wrapped(to: width) }
    }
}
