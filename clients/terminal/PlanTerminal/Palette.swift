import ChronoSketchCore

/// How many colours the client uses.
public enum ColourDepth: Sendable, Hashable {
    /// None: attributes only (`NO_COLOR`, or a terminal without colours).
    case none
    /// The eight basic colours.
    case eight
    /// The 256-colour palette.
    case full

    /// The depth for a terminal of `terminalColours` colours: none when `noColor` (the
    /// `NO_COLOR` variable, https://no-color.org) is set and not empty, eight below 256.
    public static func decide(noColor: String?, terminalColours: Int) -> ColourDepth {
        if let noColor, !noColor.isEmpty { return .none }
        return terminalColours >= 256 ? .full : terminalColours >= 8 ? .eight : .none
    }
}

/// What a chart day is, for its column's colour.
public enum DayKind: Sendable, Hashable {
    /// An ordinary working day.
    case workday
    /// A day the plan does not work on by its weekday (Saturday and Sunday without a calendar).
    case weekend
    /// A holiday of the plan calendar.
    case holiday
    /// Today.
    case today

    /// The kind of `date`: today first, then the calendar's holidays, then non-working weekdays.
    public static func of(_ date: CivilDate, today: CivilDate?, calendar: PlanCalendar?) -> DayKind {
        if date == today { return .today }
        guard let calendar, calendar != .allDaysWorking else { return date.isoWeekday < 6 ? .workday : .weekend }
        // Not worked although its weekday is: a holiday.
        guard !calendar.isWorkingDay(date) else { return .workday }
        return calendar.workingDays.contains(date.isoWeekday) ? .holiday : .weekend
    }
}

/// The colour decisions of the screen, as styles: status (progress done, late, critical), the
/// columns of weekends, holidays and today, and the user's own selection. Without colours every
/// style is the plain one the screen had before colours (the selection reversed, critical bold
/// and underlined).
public struct Palette: Sendable, Hashable {
    /// The depth the styles use.
    public let depth: ColourDepth
    /// The colours the configuration file sets, in place of the defaults below.
    public let overrides: [ColourElement: ConfiguredColour]

    /// The palette of `depth`, with the configuration's colours.
    public init(_ depth: ColourDepth, overrides: [ColourElement: ConfiguredColour] = [:]) {
        self.depth = depth
        self.overrides = overrides
    }

    /// No colours.
    public static let none = Palette(.none)

    /// `element`'s colour: the configured one (on eight colours, a bright one as its basic form,
    /// and one beyond the sixteen not at all), else the default of the depth.
    private func pick(_ element: ColourElement? = nil, full: UInt8, eight: TerminalColour) -> TerminalColour? {
        guard depth != .none else { return nil }
        if let element, let configured = overrides[element] {
            switch configured {
            case .standard: return nil
            case .palette(let index) where depth == .full: return TerminalColour(UInt8(index))
            case .palette(let index) where index < 16: return TerminalColour(UInt8(index % 8))
            case .palette: break
            }
        }
        return depth == .eight ? eight : TerminalColour(full)
    }

    /// A critical task's mark: red and bold (bold and underlined without colours).
    public var critical: CellStyle {
        depth == .none ? .critical : CellStyle(.bold, foreground: pick(.critical, full: 196, eight: .red))
    }

    /// A late task's mark (its last day before today, not done): orange (yellow in eight).
    public var late: CellStyle { CellStyle(foreground: pick(.late, full: 208, eight: .yellow)) }

    /// The done part of a bar, and a finished task: green.
    public var done: CellStyle { CellStyle(foreground: pick(.progress, full: 71, eight: .green)) }

    /// The user's own selection: white on blue (reversed without colours).
    public var selection: CellStyle {
        depth == .none
            ? .reverse
            : CellStyle(
                .bold, foreground: pick(full: 231, eight: .white), background: pick(.selection, full: 25, eight: .blue))
    }

    /// The background of an empty chart cell on a day of `kind` (nil: none).
    public func background(_ kind: DayKind) -> TerminalColour? {
        switch kind {
        case .workday: nil
        // Grey and dark red need 256 colours, unless the configuration names a colour.
        case .weekend: depth == .full || overrides[.weekend] != nil ? pick(.weekend, full: 236, eight: .black) : nil
        case .holiday: depth == .full || overrides[.holiday] != nil ? pick(.holiday, full: 52, eight: .black) : nil
        case .today: pick(.today, full: 24, eight: .blue)
        }
    }

    /// The style of a day's label in the chart's header (and of the "·" shading a non-working day).
    public func dayLabel(_ kind: DayKind, base: CellStyle = .normal) -> CellStyle {
        guard depth != .none else { return base }
        switch kind {
        case .workday: return base
        case .weekend:
            return CellStyle(base.attributes, foreground: pick(full: 110, eight: .cyan), background: background(kind))
        case .holiday:
            return CellStyle(
                base.attributes, foreground: pick(full: 211, eight: .magenta), background: background(kind))
        case .today:
            return CellStyle(
                base.attributes.union(.bold), foreground: pick(full: 231, eight: .white), background: background(kind))
        }
    }
}

/// The terminal's colour pairs as the screen defines them: one per foreground and background
/// used, numbered from 1 in order of first use, as many as the terminal has.
struct ColourPairs {
    /// A pair's colours (nil: the terminal's default).
    struct Colours: Hashable {
        let foreground: UInt8?
        let background: UInt8?
    }

    private var numbers: [Colours: Int] = [:]
    /// The number of pairs the terminal has (pair 0 is its default and is never redefined).
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The pair of `colours`, and whether it is new (to be defined); nil when every pair is taken.
    mutating func pair(for colours: Colours) -> (Int, new: Bool)? {
        if let number = numbers[colours] { return (number, false) }
        let number = numbers.count + 1
        guard number < limit else { return nil }
        numbers[colours] = number
        return (number, true)
    }
}
