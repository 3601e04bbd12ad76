/// How a cell is drawn on a terminal: attributes and, where the terminal shows colours, a
/// foreground and a background. A pure value (golden tests compare them); plain text output
/// ignores it, and `CursesScreen` maps it to ncurses attributes and colour pairs.
public struct CellStyle: Sendable, Hashable {
    /// Text attributes.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        /// Creates attributes from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bold (or bright).
        public static let bold = Attributes(rawValue: 1)
        /// Foreground and background swapped.
        public static let reverse = Attributes(rawValue: 2)
        /// Dim.
        public static let dim = Attributes(rawValue: 4)
        /// Underlined.
        public static let underline = Attributes(rawValue: 8)
    }

    /// The attributes.
    public var attributes: Attributes
    /// The text's colour; nil: the terminal's default.
    public var foreground: TerminalColour?
    /// The cell's background; nil: the terminal's default.
    public var background: TerminalColour?

    /// A style from its parts.
    public init(_ attributes: Attributes = [], foreground: TerminalColour? = nil, background: TerminalColour? = nil) {
        self.attributes = attributes
        self.foreground = foreground
        self.background = background
    }

    /// Ordinary text.
    public static let normal = CellStyle()
    /// Headings and the selected view's name.
    public static let bold = CellStyle(.bold)
    /// The selected row, the focused form field (without colours).
    public static let reverse = CellStyle(.reverse)
    /// Secondary text: labels such as "Unscheduled", disabled actions.
    public static let dim = CellStyle(.dim)
    /// The critical path's bars and diamonds without colours (`Palette.critical` has them red).
    public static let critical = CellStyle([.bold, .underline])

    /// Whether the style uses a colour.
    public var isColoured: Bool { foreground != nil || background != nil }

    /// This style with another background.
    public func on(_ background: TerminalColour?) -> CellStyle {
        CellStyle(attributes, foreground: foreground, background: background)
    }
}

/// A terminal colour: an index of the 256-colour palette (0…7 are the eight basic colours, 8…15
/// their bright forms).
public struct TerminalColour: Sendable, Hashable, CustomStringConvertible {
    /// The palette index, 0…255.
    public let index: UInt8

    /// The colour of palette index `index`.
    public init(_ index: UInt8) { self.index = index }

    /// The basic colours, present on every colour terminal.
    public static let black = TerminalColour(0)
    public static let red = TerminalColour(1)
    public static let green = TerminalColour(2)
    public static let yellow = TerminalColour(3)
    public static let blue = TerminalColour(4)
    public static let magenta = TerminalColour(5)
    public static let cyan = TerminalColour(6)
    public static let white = TerminalColour(7)

    /// "c" and the index, for golden files.
    public var description: String { "c\(index)" }
}
