import ChronoSketchCore
import PlanProtocol

extension TaskForm {
    /// The weekdays' short names, Monday first (ISO weekday 1…7).
    static func weekdayNames(_ language: PlanLanguage) -> [String] {
        language == .german
            ? ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"] : ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    }

    /// The settings form (scheduling.md §1): the mode, the working weekdays (several choices)
    /// and the holidays as dates separated by spaces or commas.
    static func settingsForm(_ current: PlanSettings, language: PlanLanguage) -> TaskForm {
        let de = language == .german
        let modes: [(id: String, label: String)] = [
            (
                SchedulingMode.manual.rawValue,
                de ? "manuell (Abhängigkeiten nur gezeichnet)" : "manual (links only drawn)"
            ),
            (
                SchedulingMode.automatic.rawValue,
                de ? "automatisch (Nachfolger werden verschoben)" : "automatic (successors pushed)"
            ),
        ]
        let days = weekdayNames(language).enumerated().map { (id: String($0.offset + 1), label: $0.element) }
        var form = TaskForm(
            action: .settings, original: nil, title: TaskAction.settings.title(language),
            fields: [
                .choice(de ? "Planung" : "Scheduling", modes, selected: current.scheduling.rawValue),
                .multiple(
                    de ? "Arbeitstage" : "Working days", days,
                    selected: Set(current.calendar.workingDays.map(String.init))),
                .text(
                    de ? "Feiertage (JJJJ-MM-TT …)" : "Holidays (YYYY-MM-DD …)",
                    current.calendar.holidays.map(\.description).joined(separator: " ")),
            ])
        form.originalSettings = current
        return form
    }

    /// The settings form's draft as `settings.replace` from the settings it was opened on.
    func settingsOperation(language: PlanLanguage) throws(FormError) -> PlanOperation {
        let de = language == .german
        guard let previous = originalSettings else { throw FormError(message: de ? "Kein Plan." : "No plan.") }
        let mode = SchedulingMode(rawValue: fields[0].selectedID ?? "") ?? previous.scheduling
        let weekdays = fields[1].selectedIDs.compactMap { Int($0) }
        guard !weekdays.isEmpty else {
            throw FormError(
                message: de ? "Mindestens ein Arbeitstag ist nötig." : "At least one working day is needed.")
        }
        var holidays: [CivilDate] = []
        for word in fields[2].text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }) {
            guard let date = try? CivilDate(String(word)) else {
                throw FormError(message: (de ? "Ungültiges Datum: " : "Not a date: ") + word + " (YYYY-MM-DD)")
            }
            if !holidays.contains(date) { holidays.append(date) }
        }
        do {
            let calendar = try PlanCalendar(workingDays: weekdays, holidays: holidays)
            return .settingsReplace(previous: previous, proposed: PlanSettings(scheduling: mode, calendar: calendar))
        } catch {
            throw FormError(message: (de ? "Ungültiger Kalender: " : "Invalid calendar: ") + error.description)
        }
    }
}
