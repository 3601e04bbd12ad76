/// Whether dependencies only draw (manual) or hold as minimums the server keeps (automatic).
public enum SchedulingMode: String, Sendable, Hashable, CaseIterable {
    /// Dependencies are drawings; dates may break them (the default, today's rules).
    case manual
    /// Every dependency between scheduled tasks holds at every version; successors are pushed.
    case automatic
}

/// A plan's scheduling settings (scheduling.md §1): the mode and the working calendar.
public struct PlanSettings: Sendable, Hashable {
    /// Manual or automatic.
    public var scheduling: SchedulingMode
    /// The calendar working-day arithmetic uses.
    public var calendar: PlanCalendar

    /// Manual, every day working, no holidays: what every plan starts with.
    public static let `default` = PlanSettings(scheduling: .manual, calendar: .allDaysWorking)

    /// Creates settings from their parts.
    public init(scheduling: SchedulingMode, calendar: PlanCalendar) {
        self.scheduling = scheduling
        self.calendar = calendar
    }

    /// Whether the plan is scheduled automatically.
    public var isAutomatic: Bool { scheduling == .automatic }
}
