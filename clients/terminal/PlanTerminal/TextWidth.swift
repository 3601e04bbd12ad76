import CNcurses
import Glibc

/// How many terminal cells text takes, measured per grapheme cluster (a Swift `Character`).
///
/// Each scalar is measured by glibc's `wcwidth(3)` under the `C.UTF-8` locale (set for the
/// calling thread only, so `plan show` under `LANG=C` measures the same): East Asian Wide and
/// Fullwidth scalars and emoji with default emoji presentation take 2 cells, combining marks,
/// zero-width joiners and variation selectors none. Why glibc rather than ICU or a table of our
/// own: ncursesw places every character it draws by the same `wcwidth`, and so does tmux; a width
/// that agrees with them keeps ncurses' idea of the cursor, the terminal's and ours the same.
/// (ICU's East Asian Width differs from glibc in places; a private table would drift from both.)
///
/// `wcwidth` knows scalars, not clusters. A cluster takes the width of its first scalar, with
/// three rules from Unicode's emoji specification (UTS #51) that Swift's scalar properties
/// decide: an emoji followed by VS16 (U+FE0F, emoji presentation) takes 2 cells, a pair of
/// regional indicators (a flag) 2, and a ZWJ sequence or a skin-tone modifier adds nothing to
/// its first emoji. A cluster of nothing visible (a lone zero-width space, a control character)
/// takes 0 cells and is not drawn.
public enum TextWidth {
    /// The cells `character` takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1, first.value >= 0x20, first.value < 0x7F { return 1 }
        return withUTF8Locale { clusterWidth(scalars) }
    }

    /// The cells `text` takes: the sum of its clusters' widths.
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return withUTF8Locale { text.reduce(0) { $0 + clusterWidth($1.unicodeScalars) } }
    }

    /// The widths of `text`'s clusters, in order (one locale switch for the whole text).
    public static func widths(_ text: some StringProtocol) -> [(Character, Int)] {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.map { ($0, 1) } }
        return withUTF8Locale { text.map { ($0, clusterWidth($0.unicodeScalars)) } }
    }

    /// The width of one scalar: `wcwidth` (-1, a control character, counts 0).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        withUTF8Locale { scalarWidth(scalar) }
    }

    /// The cluster as ncursesw can hold it in one cell, and the cells ncurses (and a terminal
    /// that measures as glibc does) gives it: its first scalar with the zero-width scalars after
    /// it, up to a zero-width joiner or the next visible scalar (at most four: ncurses'
    /// `CCHARW_MAX`); a flag as its two regional indicators. A ZWJ sequence shows as its first emoji; "❤️" keeps its VS16 but ncurses
    /// counts it 1 cell (the screen pads it to the 2 it is given).
    public static func terminalForm(_ character: Character) -> (text: String, width: Int) {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return ("", 0) }
        if scalars.count == 2, scalars.allSatisfy(isRegionalIndicator) { return (String(character), 2) }
        return withUTF8Locale {
            let width = scalarWidth(first)
            guard width > 0 else { return ("", 0) }
            var kept = String.UnicodeScalarView([first])
            for scalar in scalars.dropFirst() {
                guard scalar.value != 0x200D, scalarWidth(scalar) == 0, kept.count < 5 else { break }
                kept.append(scalar)
            }
            return (String(kept), width)
        }
    }

    // MARK: Measuring

    private static func clusterWidth(_ scalars: Character.UnicodeScalarView) -> Int {
        guard let first = scalars.first else { return 0 }
        let base = scalarWidth(first)
        guard base > 0 else { return scalars.dropFirst().map(scalarWidth).max() ?? 0 }
        if first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if isRegionalIndicator(first), scalars.dropFirst().contains(where: isRegionalIndicator) { return 2 }
        return base
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20, scalar.value < 0x7F { return 1 }
        guard utf8Locale != nil else { return fallbackWidth(scalar) }
        return max(Int(cn_wcwidth(scalar.value)), 0)
    }

    /// Where `C.UTF-8` is not installed (glibc older than 2.35 without Debian's locale): what
    /// Swift's scalar properties tell, with the East Asian Wide blocks by hand.
    private static func fallbackWidth(_ scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if properties.isEmojiPresentation { return 2 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    // MARK: The locale

    /// `C.UTF-8` as a locale object (nil where it is not installed); never freed.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = {
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
            if let locale = newlocale(LC_CTYPE_MASK, name, nil) { return locale }
        }
        return nil
    }()

    /// Runs `body` with the thread's locale set to `C.UTF-8` (for `wcwidth`), then restores it.
    private static func withUTF8Locale<T>(_ body: () -> T) -> T {
        guard let utf8Locale else { return body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return body()
    }
}
