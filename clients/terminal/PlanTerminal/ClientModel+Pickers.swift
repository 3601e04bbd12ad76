import ChronoSketchCore
import PlanProtocol

/// The forms' pickers (a link's other task, a group, a resource): the focused picker's query is
/// answered after every event from an index of the current version (`PickerIndex`), made the
/// first time a picker of that kind needs it after the version changed.
extension ClientModel {
    /// Answers the focused picker's query when it changed.
    mutating func refreshPicker() {
        guard var form, form.fields.indices.contains(form.focus),
            case .picker(var picker) = form.fields[form.focus].value, picker.needsMatches,
            let index = pickerIndex(picker.source)
        else { return }
        let excluded = picker.excluded
        let found = index.query(picker.query.text) { !excluded.contains($0.id) }
        picker.receive(found.matches, more: found.more)
        form.fields[form.focus].value = .picker(picker)
        self.form = form
    }

    /// The index of `source` at the current version.
    private mutating func pickerIndex(_ source: FieldPicker.Source) -> PickerIndex? {
        guard let copy else { return nil }
        if let kept = find.pickers[source], kept.version == copy.version { return kept.index }
        let options: [PickerOption]
        switch source {
        case .tasks:
            options = (collection?.tasks ?? []).lazy.filter { !$0.kind.isSummary }.map {
                PickerOption(id: $0.id, label: $0.title)
            }
        case .groups:
            options = (collection?.tasks ?? []).lazy.filter(\.kind.isSummary).map {
                PickerOption(id: $0.id, label: $0.title)
            }
        case .resources:
            options = copy.snapshot.resources.map { PickerOption(id: $0.id, label: $0.label) }
        }
        let index = PickerIndex(options)
        find.pickers[source] = (copy.version, index)
        return index
    }
}

extension ClientModel {
    /// A picker of the plan's resources with `chosen` picked.
    func resourcePicker(chosen id: String) -> FieldPicker {
        let resource = resourceRows.first { $0.id == id }
        return FieldPicker(.resources, chosen: resource.map { PickerOption(id: $0.id, label: $0.label) })
    }
}
