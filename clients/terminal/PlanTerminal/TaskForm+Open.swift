import ChronoSketchCore

extension TaskForm {
    /// The form for `action` on `task` (nil only for `addTask`), with the draft taken from the
    /// confirmed data in `collection`.
    public static func open(
        _ action: TaskAction, task: GanttTask?, in collection: TaskCollection, language: PlanLanguage,
        today: CivilDate
    ) -> TaskForm {
        let opening = FormOpening(action: action, task: task, collection: collection, language: language, today: today)
        switch action {
        case .details, .dates, .duration, .progress, .remove: return opening.valueForm()
        case .group: return opening.groupForm()
        case .order: return opening.orderForm()
        case .addTask, .addChild: return opening.addForm()
        case .link: return opening.linkForm()
        case .unlink: return opening.unlinkForm()
        case .info:
            return TaskForm(action: action, original: task, title: task?.title ?? "", fields: [])
        case .moveEntry, .reassignEntry, .addEntry, .removeEntry, .resizeEntry, .retitleEntry, .entryDetails,
            .baseline, .settings:
            return opening.form([], note: opening.strings.actionUnavailable)
        }
    }
}

/// What opening one task form needs: the action, the task and the confirmed data, in one language.
private struct FormOpening {
    let action: TaskAction
    let task: GanttTask?
    let collection: TaskCollection
    let language: PlanLanguage
    let today: CivilDate
    var de: Bool { language == .german }
    var strings: TerminalStrings { TerminalStrings(language) }
    var heading: String { action.title(language) + (task.map { ": " + $0.title } ?? "") }
    var start: String { de ? "Beginn" : "Start" }
    var days: String { de ? "Tage" : "Days" }
    var topLevel: (id: String, label: String) { ("", de ? "(oberste Ebene)" : "(top level)") }

    func form(_ fields: [FormField], note: String? = nil) -> TaskForm {
        TaskForm(action: action, original: task, title: heading, fields: fields, note: note)
    }

    /// Details, dates, duration, progress and removal: the task's own values.
    func valueForm() -> TaskForm {
        switch action {
        case .details:
            return form([.text(de ? "Titel" : "Title", task?.title ?? "", required: true)])
        case .dates:
            switch task?.kind {
            case .milestone(let date):
                return form([.text(de ? "Datum" : "Date", date.description)])
            case .activity(let schedule, _):
                var fields: [FormField] = [.text(start, (schedule?.start ?? today).description)]
                if schedule == nil { fields.append(.text(days, "1")) }
                return form(fields)
            default:
                return form([], note: strings.actionUnavailable)
            }
        case .duration:
            return form([.text(days, String(task?.schedule?.days ?? 1))])
        case .progress:
            return form([.text(de ? "Fortschritt (%)" : "Progress (%)", String(Int(task?.progress ?? 0)))])
        default:
            return form([])
        }
    }

    /// "(top level)" as a picker's first option.
    var topLevelOption: PickerOption { PickerOption(id: topLevel.id, label: topLevel.label) }

    /// The group `id` as a picker's option (top level for nil).
    func groupOption(_ id: String?) -> PickerOption {
        guard let id, let group = collection[id] else { return topLevelOption }
        return PickerOption(id: group.id, label: group.title)
    }

    /// The group: picked by typing among the groups that are not the task or inside it.
    func groupForm() -> TaskForm {
        let excluded = task.map { TaskForm.descendants(of: $0.id, in: collection).union([$0.id]) } ?? []
        let picker = FieldPicker(
            .groups, chosen: groupOption(task?.parentID), excluded: excluded, extra: topLevelOption)
        return form([.picker(de ? "Gruppe" : "Group", picker)])
    }

    func orderForm() -> TaskForm {
        let siblings = collection.childIDs(of: task?.parentID).filter { $0 != task?.id }.compactMap {
            collection[$0]
        }
        let positions: [(id: String, label: String)] = [
            ("before", de ? "vor" : "before"), ("after", de ? "nach" : "after"),
        ]
        return form(
            [
                .choice(de ? "Position" : "Position", positions, selected: "after"),
                .choice(de ? "Geschwister" : "Sibling", siblings.map { ($0.id, $0.title) }, selected: nil),
            ],
            note: siblings.isEmpty
                ? (de
                    ? "Keine Geschwister: die Reihenfolge kann nicht geändert werden."
                    : "No siblings: the order cannot change.") : nil)
    }

    func addForm() -> TaskForm {
        let kinds: [(id: String, label: String)] = [
            ("activity", strings.kind(.activity(schedule: nil, progress: 0))),
            ("milestone", strings.kind(.milestone(date: today))), ("summary", strings.kind(.summary)),
        ]
        let group = FieldPicker(
            .groups, chosen: groupOption(action == .addChild ? task?.id : nil), extra: topLevelOption)
        return TaskForm(
            action: action, original: action == .addChild ? task : nil, title: heading,
            fields: [
                .text(de ? "Titel" : "Title", "", required: true),
                .choice(de ? "Art" : "Kind", kinds, selected: "activity"),
                .text(start + (de ? " (leer: nicht geplant)" : " (empty: unscheduled)"), today.description),
                .text(days, "1"),
                .picker(de ? "Gruppe" : "Group", group),
            ])
    }

    /// The other task: picked by typing among every task but groups and the task itself.
    func linkForm() -> TaskForm {
        let hasOthers = collection.tasks.contains { !$0.kind.isSummary && $0.id != task?.id }
        let roles: [(id: String, label: String)] = [
            ("predecessor", de ? "Vorgänger" : "predecessor"), ("successor", de ? "Nachfolger" : "successor"),
        ]
        let types: [(id: String, label: String)] = DependencyType.allCases.map {
            ($0.rawValue, strings.dependencyType($0))
        }
        return form(
            [
                .choice(de ? "Diese Aufgabe ist" : "This task is", roles, selected: "predecessor"),
                .picker(
                    de ? "von" : "of", FieldPicker(.tasks, chosen: nil, excluded: Set([task?.id].compactMap { $0 }))),
                .choice(de ? "Art" : "Type", types, selected: DependencyType.finishToStart.rawValue),
                .text(de ? "Abstand (Arbeitstage, negativ: Vorlauf)" : "Lag (working days, negative: lead)", "0"),
            ],
            note: hasOthers ? nil : strings.actionUnavailable)
    }

    func unlinkForm() -> TaskForm {
        let touching = collection.dependencies.filter { $0.predecessorID == task?.id || $0.successorID == task?.id }
        let options = touching.map { dependency in
            (
                id: dependency.predecessorID + "\u{0}" + dependency.successorID,
                label: (collection[dependency.predecessorID]?.title ?? dependency.predecessorID) + " → "
                    + (collection[dependency.successorID]?.title ?? dependency.successorID)
                    + strings.dependencySuffix(dependency)
            )
        }
        return form(
            [.choice(de ? "Abhängigkeit" : "Dependency", options, selected: nil)],
            note: options.isEmpty ? (de ? "Keine Abhängigkeiten." : "No dependencies.") : nil)
    }
}
