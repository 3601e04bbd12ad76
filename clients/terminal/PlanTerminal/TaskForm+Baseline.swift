import ChronoSketchCore
import PlanProtocol

extension TaskForm {
    /// The baseline form: set a baseline (a name, at a version: by default the current one; an
    /// existing name moves) or remove one (protocol.md §5.8).
    static func baselineForm(version: Int, name: String, language: PlanLanguage) -> TaskForm {
        let de = language == .german
        let choices: [(id: String, label: String)] = [
            ("set", de ? "setzen" : "set"), ("remove", de ? "entfernen" : "remove"),
        ]
        return TaskForm(
            action: .baseline, original: nil, title: TaskAction.baseline.title(language),
            fields: [
                .choice(de ? "Basislinie" : "Baseline", choices, selected: "set"),
                .text(de ? "Name" : "Name", name, required: true),
                .text(de ? "Version" : "Version", String(version)),
            ])
    }

    /// The baseline form's draft as an op.
    /// - Parameter current: the plan's confirmed version (a baseline cannot name a later one).
    func baselineOperation(current: Int, language: PlanLanguage) throws(FormError) -> PlanOperation {
        let de = language == .german
        let name = fields[1].text.trimmed
        guard !name.isEmpty else { throw FormError(message: de ? "Der Name ist leer." : "The name is empty.") }
        guard name.unicodeScalars.count <= 128 else {
            throw FormError(
                message: de ? "Der Name ist zu lang (höchstens 128)." : "The name is too long (128 at most).")
        }
        if fields[0].selectedID == "remove" { return .baselineRemove(name: name) }
        guard let version = Int(fields[2].text.trimmed), (0...current).contains(version) else {
            throw FormError(
                message: (de ? "Bitte eine Version von 0 bis " : "Enter a version from 0 to ") + "\(current): "
                    + fields[2].text)
        }
        return .baselineSet(name: name, version: version)
    }
}

extension ClientModel {
    /// Save on the baseline form: the proposal (its id kept until the server decides it).
    mutating func saveBaselineForm(_ form: inout TaskForm) -> [ClientAction] {
        let (current, language) = (copy?.version ?? 0, settings.language)
        return savePlanForm(&form) { form throws(FormError) in
            try form.baselineOperation(current: current, language: language)
        }
    }

    /// Save on a form of the plan (a baseline, the settings): the op `operation` makes of the
    /// draft, or its error shown in the form.
    mutating func savePlanForm(
        _ form: inout TaskForm, _ operation: (TaskForm) throws(FormError) -> PlanOperation
    ) -> [ClientAction] {
        let made: PlanOperation
        do throws(FormError) {
            made = try operation(form)
        } catch {
            form.error = error.message
            self.form = form
            return []
        }
        let id = beginSaving(&form)
        pending[id] = ""
        return [.propose(made, id: id)]
    }
}
