/// The language of the chart's labels: English or German.
///
/// Holds only the localized strings the time axis needs; the terminal client keeps its other
/// texts itself.
public enum PlanLanguage: String, Sendable, Hashable, CaseIterable {
    /// English labels: "September 2026", "Week 53 2020", "Unscheduled".
    case english = "en"
    /// German labels: "September 2026", "KW 53 2020", "Nicht geplant".
    case german = "de"

    /// The full name of a month, `month` in 1…12: "January" / "Januar", "March" / "März".
    public func monthName(_ month: Int) -> String {
        precondition((1...12).contains(month), "month must be in 1...12")
        switch self {
        case .english: return PlanLanguage.englishMonths[month - 1]
        case .german: return PlanLanguage.germanMonths[month - 1]
        }
    }

    /// The three-letter name of a month, `month` in 1…12: "Mar" / "Mär", "Oct" / "Okt".
    public func shortMonthName(_ month: Int) -> String {
        precondition((1...12).contains(month), "month must be in 1...12")
        switch self {
        case .english: return PlanLanguage.englishShortMonths[month - 1]
        case .german: return PlanLanguage.germanShortMonths[month - 1]
        }
    }

    /// The word written before an ISO week number: "Week" / "KW".
    public var weekWord: String {
        switch self {
        case .english: "Week"
        case .german: "KW"
        }
    }

    /// The abbreviation written directly before an ISO week number in narrow sections: "W" / "KW".
    public var shortWeekWord: String {
        switch self {
        case .english: "W"
        case .german: "KW"
        }
    }

    /// The label of a row without dates: "Unscheduled" / "Nicht geplant".
    public var unscheduledLabel: String {
        switch self {
        case .english: "Unscheduled"
        case .german: "Nicht geplant"
        }
    }

    private static let englishMonths = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    private static let germanMonths = [
        "Januar", "Februar", "März", "April", "Mai", "Juni",
        "Juli", "August", "September", "Oktober", "November", "Dezember",
    ]
    private static let englishShortMonths = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    private static let germanShortMonths = [
        "Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez",
    ]
}
