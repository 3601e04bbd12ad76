import ChronoSketchCore

/// The interactive client's configuration file, `$XDG_CONFIG_HOME/plan/config` (else
/// `~/.config/plan/config`): one setting a line, `#` starts a comment.
///
///     key search s          # the action `search` also on `s` (key names: see `KeyName`)
///     key half-page-down C-f
///     language de           # en or de; --language on the command line wins
///     colour critical red   # an element of `ColourElement` and a colour of `ConfiguredColour`
///     mouse off             # on (the default) or off
///
/// A line that does not parse is named in `problems` and ignored: the client still starts, and
/// says what it ignored.
public struct ClientConfig: Sendable, Hashable {
    /// The keys bound to actions.
    public internal(set) var bindings = KeyBindings()
    /// The language asked for, if any.
    public internal(set) var language: PlanLanguage?
    /// The colours asked for, by element (the renderer reads them).
    public internal(set) var colours: [ColourElement: ConfiguredColour] = [:]
    /// Whether the client takes the mouse (click, wheel, drag).
    public internal(set) var mouse = true
    /// The lines ignored, each with its number and why ("line 3: unknown action “serch”").
    public internal(set) var problems: [String] = []

    /// The defaults.
    public init() {}

    /// The settings of a configuration file's `text`, in `language`'s words for the problems.
    public static func parse(_ text: String, language: PlanLanguage = .english) -> ClientConfig {
        var config = ClientConfig()
        let strings = TerminalStrings(language)
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A word beginning with `#` starts a comment (the key `#` is named `hash`).
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
                .prefix { !$0.hasPrefix("#") }
            guard let first = words.first else { continue }
            if let problem = config.apply(first, Array(words.dropFirst()), strings: strings) {
                config.problems.append(strings.configLine(offset + 1, problem))
            }
        }
        return config
    }

    /// Applies one line's words; the problem in words when it cannot.
    private mutating func apply(_ setting: String, _ values: [String], strings: TerminalStrings) -> String? {
        switch setting {
        case "key":
            guard values.count == 2 else { return strings.configUsage("key <action> <key>") }
            guard let action = BindableAction(rawValue: values[0]) else {
                return strings.configUnknown("action", values[0], BindableAction.allCases.map(\.rawValue))
            }
            guard let key = KeyName.key(values[1]) else { return strings.configBadKey(values[1]) }
            bindings.bind(key, to: action)
        case "language":
            guard values.count == 1 else { return strings.configUsage("language en|de") }
            switch values[0] {
            case "en": language = .english
            case "de": language = .german
            default: return strings.configUnknown("language", values[0], ["en", "de"])
            }
        case "colour", "color":
            guard values.count == 2 else { return strings.configUsage("colour <element> <colour>") }
            guard let element = ColourElement(rawValue: values[0]) else {
                return strings.configUnknown("element", values[0], ColourElement.allCases.map(\.rawValue))
            }
            guard let colour = ConfiguredColour(values[1]) else { return strings.configBadColour(values[1]) }
            colours[element] = colour
        case "mouse":
            guard values.count == 1, values[0] == "on" || values[0] == "off" else {
                return strings.configUsage("mouse on|off")
            }
            mouse = values[0] == "on"
        default:
            return strings.configUnknown("setting", setting, ["key", "language", "colour", "mouse"])
        }
        return nil
    }

    /// Where the file is: `$XDG_CONFIG_HOME/plan/config` when that is set (and absolute), else
    /// `$HOME/.config/plan/config`; nil without either.
    public static func path(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/plan/config" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/plan/config"
    }
}

/// The screen elements a colour can be set for (the renderer that draws in colour reads them).
public enum ColourElement: String, Sendable, Hashable, CaseIterable {
    /// The user's own selection (its background; the text stays white).
    case selection
    /// A critical task's mark.
    case critical
    /// A late task's mark.
    case late
    /// The done part of a bar, and a finished task's progress.
    case progress
    /// The background of the non-working weekdays' columns.
    case weekend
    /// The background of the holidays' columns.
    case holiday
    /// The background of today's column.
    case today
}

/// A colour as the configuration names it: one of the eight (`red`, …; `bright-red`, …), a number
/// of the 256-colour palette, or `default` (the terminal's own).
public enum ConfiguredColour: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case standard
    /// A palette index (0–7 the eight colours, 8–15 their bright forms, up to 255).
    case palette(Int)

    /// The eight colours' names, in palette order.
    public static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// The colour `text` names, or nil.
    public init?(_ text: String) {
        let word = text.lowercased()
        if word == "default" {
            self = .standard
        } else if let index = ConfiguredColour.names.firstIndex(of: word) {
            self = .palette(index)
        } else if word.hasPrefix("bright-"),
            let index = ConfiguredColour.names.firstIndex(of: String(word.dropFirst(7)))
        {
            self = .palette(index + 8)
        } else if let number = Int(word), (0...255).contains(number) {
            self = .palette(number)
        } else {
            return nil
        }
    }
}
