/// A mouse report, as the terminal sends it with SGR mouse reporting (DEC private modes 1002 and
/// 1006: `ESC [ < button ; column ; row M`, `m` for a release): what happened and in which cell.
public struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    public enum Kind: Sendable, Hashable {
        /// The left button went down.
        case press
        /// The mouse moved with the left button held.
        case drag
        /// The left button went up.
        case release
        /// The wheel turned away from the user (scroll up).
        case wheelUp
        /// The wheel turned towards the user (scroll down).
        case wheelDown
    }

    /// What the mouse did.
    public let kind: Kind
    /// The cell's column, from 0.
    public let x: Int
    /// The cell's row, from 0.
    public let y: Int

    /// A report at the cell (`x`, `y`), counted from 0.
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }

    /// The event an SGR report's numbers stand for: `button` (low bits the button, +32 a motion,
    /// +64 the wheel; +4, +8, +16 the modifiers, ignored), the 1-based `column` and `row`, and
    /// whether it ended with `M` (press or motion) or `m` (release). Nil for the middle and right
    /// buttons and for motion without a button.
    public init?(sgrButton button: Int, column: Int, row: Int, final: Character) {
        let code = button & ~(4 | 8 | 16)
        let kind: Kind
        switch (code, final) {
        case (64, _): kind = .wheelUp
        case (65, _): kind = .wheelDown
        case (0, "M"): kind = .press
        case (32, "M"): kind = .drag
        case (0, "m"), (3, "m"): kind = .release
        default: return nil
        }
        self.init(kind, x: max(column - 1, 0), y: max(row - 1, 0))
    }
}

/// Turns the keys the terminal delivered into keys and mouse events: ncurses does not know the
/// SGR mouse sequence (under most `TERM`s it expects the older X10 form), so it hands it over as
/// Escape followed by its characters, which this decoder joins again. A sequence cut between two
/// reads after its `ESC [ <` is held until the rest arrives (`pending`), or given back as keys once `patience` passed
/// without it (`flush`): the client reads whenever anything wakes it (a server's message, a timer),
/// so a read that finds nothing says nothing about the report's rest. One cut before its `<` is
/// not held: a lone Escape (or Escape and `[`) at the end of a read is the key, at once (a form
/// closes without waiting); ncurses itself waits its escape delay for what follows an Escape, so
/// such a cut is rare. Anything that is not a complete report passes through unchanged.
public struct MouseDecoder: Sendable {
    /// The start of a report, held until the rest arrives.
    public private(set) var pending: [Key] = []
    /// When `pending` began.
    private var pendingSince: ContinuousClock.Instant?
    /// How long a report's start waits for its rest before it counts as keys (a terminal writes a
    /// report at once; a person typing Escape [ < takes longer).
    public static let patience = Duration.milliseconds(150)

    /// A decoder holding nothing.
    public init() {}

    /// Whether the start of a report is held (the caller then reads again within `patience`).
    public var isHolding: Bool { !pending.isEmpty }

    /// The keys of one read, with each complete SGR report replaced by its `.mouse` event. A
    /// report begun at the end of `keys` is held for the next call (`flush` gives it back as keys).
    public mutating func decode(_ keys: [Key], now: ContinuousClock.Instant = .now) -> [Key] {
        let heldSince = pendingSince
        let input = pending + keys
        pending = []
        pendingSince = nil
        var output: [Key] = []
        var index = 0
        while index < input.count {
            guard input[index] == .escape else {
                output.append(input[index])
                index += 1
                continue
            }
            switch MouseDecoder.report(in: input, at: index) {
            case .complete(let event, let next):
                if let event { output.append(.mouse(event)) }
                index = next
            case .incomplete:
                pending = Array(input[index...])
                // A report held before keeps its first time (its rest came in part).
                pendingSince = index == 0 ? heldSince ?? now : now
                return output
            case .none:
                output.append(input[index])
                index += 1
            }
        }
        return output
    }

    /// What a held report becomes when its rest did not come within `patience` of its start: its
    /// keys as they are (nothing while it may still come; all of it when `patience` is zero).
    public mutating func flush(now: ContinuousClock.Instant = .now, patience: Duration = MouseDecoder.patience)
        -> [Key]
    {
        guard let since = pendingSince, now - since >= patience else { return [] }
        defer {
            pending = []
            pendingSince = nil
        }
        return pending
    }

    private enum Report {
        /// A report ends before `next` (its event nil when it is one the client does not use).
        case complete(MouseEvent?, next: Int)
        /// The keys end inside what may still be a report.
        case incomplete
        /// Not a report.
        case none
    }

    /// The report that begins with the Escape at `start`.
    private static func report(in keys: [Key], at start: Int) -> Report {
        let prefix: [Key] = [.escape, .character("["), .character("<")]
        var numbers = [0]
        var index = start
        for expected in prefix {
            guard index < keys.count, keys[index] == expected else { return .none }
            index += 1
        }
        while index < keys.count {
            guard case .character(let character) = keys[index] else { return .none }
            index += 1
            if let digit = character.wholeNumberValue, character.isASCII {
                numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + digit, 100_000)
            } else if character == ";", numbers.count < 3 {
                numbers.append(0)
            } else if character == "M" || character == "m", numbers.count == 3 {
                let event = MouseEvent(sgrButton: numbers[0], column: numbers[1], row: numbers[2], final: character)
                return .complete(event, next: index)
            } else {
                return .none
            }
        }
        return .incomplete
    }
}
