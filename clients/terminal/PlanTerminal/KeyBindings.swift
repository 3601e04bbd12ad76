/// An action a key can be bound to in the configuration file, by name, with the key that does it
/// by default. A bound key does what the default key does, in every view (outside forms and
/// typed lines); the default key keeps working.
public enum BindableAction: String, Sendable, Hashable, CaseIterable {
    case quit, help, view, language, up, down
    case pageUp = "page-up", pageDown = "page-down", firstRow = "first-row", lastRow = "last-row"
    case halfPageDown = "half-page-down", halfPageUp = "half-page-up", toggle, previous, next, today
    case zoomIn = "zoom-in", zoomOut = "zoom-out", details, search
    case nextMatch = "next-match", previousMatch = "previous-match", filter, go, bar, undo, redo
    case planInfo = "plan-info", baseline, shadow, settings, title, dates, duration, progress, group, order, add
    case addChild = "add-child", remove, link, unlink, retry

    /// The key that does it by default.
    public var defaultKey: Key {
        switch self {
        case .quit: .character("q")
        case .help: .character("?")
        case .view: .tab
        case .language: .character("w")
        case .up: .up
        case .down: .down
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .firstRow: .home
        case .lastRow: .end
        case .halfPageDown: .control("d")
        case .halfPageUp: .control("u")
        case .toggle: .character(" ")
        case .previous: .character("[")
        case .next: .character("]")
        case .today: .character("t")
        case .zoomIn: .character("+")
        case .zoomOut: .character("-")
        case .details: .enter
        case .search: .character("/")
        case .nextMatch: .character("n")
        case .previousMatch: .character("N")
        case .filter: .character("F")
        case .go: .character("g")
        case .bar: .character("f")
        case .undo: .character("z")
        case .redo: .character("Z")
        case .planInfo: .character("I")
        case .baseline: .character("b")
        case .shadow: .character("B")
        case .settings: .character("S")
        case .title: .character(TaskAction.details.key)
        case .dates: .character(TaskAction.dates.key)
        case .duration: .character(TaskAction.duration.key)
        case .progress: .character(TaskAction.progress.key)
        case .group: .character(TaskAction.group.key)
        case .order: .character(TaskAction.order.key)
        case .add: .character(TaskAction.addTask.key)
        case .addChild: .character(TaskAction.addChild.key)
        case .remove: .character(TaskAction.remove.key)
        case .link: .character(TaskAction.link.key)
        case .unlink: .character(TaskAction.unlink.key)
        case .retry: .character("R")
        }
    }
}

/// The keys the configuration file binds: each bound key translated to its action's default key.
public struct KeyBindings: Sendable, Hashable {
    /// Each bound key and the key it stands for.
    public private(set) var translations: [Key: Key] = [:]
    /// The bindings in the file's order (a key bound twice: the last binding), for the help.
    public private(set) var bound: [(action: BindableAction, key: Key)] = []

    /// No bindings.
    public init() {}

    /// Binds `key` to `action`.
    public mutating func bind(_ key: Key, to action: BindableAction) {
        bound.removeAll { $0.key == key }
        bound.append((action, key))
        translations[key] = action.defaultKey
    }

    /// The key `key` stands for: its action's default key when it is bound, else itself.
    public func translate(_ key: Key) -> Key { translations[key] ?? key }

    /// Equal when they bind the same keys to the same actions.
    public static func == (lhs: KeyBindings, rhs: KeyBindings) -> Bool {
        lhs.bound.map(\.action) == rhs.bound.map(\.action) && lhs.bound.map(\.key) == rhs.bound.map(\.key)
    }

    /// Hashes the bindings.
    public func hash(into hasher: inout Hasher) {
        for binding in bound {
            hasher.combine(binding.action)
            hasher.combine(binding.key)
        }
    }
}

/// Keys by name, as the configuration file and the help write them: a printable character as
/// itself (`x`, `/`, `ä`), `C-d` (or `ctrl-d`) for a control key, and the names `Enter`, `Esc`,
/// `Tab`, `BackTab`, `Space`, `Backspace`, `Delete`, `Up`, `Down`, `Left`, `Right`, `PgUp`,
/// `PgDn`, `Home`, `End`, `hash` (`#`; case is ignored in names).
public enum KeyName {
    private static let named: [(String, Key)] = [
        ("enter", .enter), ("esc", .escape), ("tab", .tab), ("backtab", .backTab), ("space", .character(" ")),
        ("backspace", .backspace), ("delete", .delete), ("up", .up), ("down", .down), ("left", .left),
        ("right", .right), ("pgup", .pageUp), ("pgdn", .pageDown), ("home", .home), ("end", .end),
        ("hash", .character("#")),
    ]

    /// The key `name` names, or nil.
    public static func key(_ name: String) -> Key? {
        if name.count == 1, let character = name.first { return .character(character) }
        let lower = name.lowercased()
        if let found = named.first(where: { $0.0 == lower }) { return found.1 }
        for prefix in ["c-", "ctrl-"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter else { return nil }
            return .control(letter)
        }
        return nil
    }

    /// How the help writes `key`.
    public static func name(_ key: Key) -> String {
        switch key {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .control(let letter): return "Ctrl-" + letter.uppercased()
        default:
            let found = named.first { $0.1 == key }?.0 ?? "?"
            return found.prefix(1).uppercased() + found.dropFirst()
        }
    }
}
