/// Strings that break assumptions: NUL, lone surrogates, bidirectional overrides, emoji, lengths
/// at and just over the limits (ids 128 scalars, titles 1000), escapes no string can hold.
public enum HostileStrings {
    /// The id length limit, in Unicode scalars.
    public static let maxIDLength = 128
    /// The title length limit, in Unicode scalars.
    public static let maxTitleLength = 1000

    /// `count` scalars of a mix of one- to four-byte characters.
    public static func scalars(_ count: Int, random: inout FuzzRandom) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "7", "-", "é", "ß", "中", "ש", "\u{202E}", "🚀", "\u{301}"]
        var text = String.UnicodeScalarView()
        for _ in 0..<count { text.append(random.pick(alphabet)) }
        return String(text)
    }

    /// A hostile variant of `base` (a real token, plan or id): with NUL, spaces, case changed, cut.
    public static func variant(of base: String, random: inout FuzzRandom, allowNUL: Bool) -> FuzzJSON {
        var choices: [FuzzJSON] = [
            .string(base + " "), .string(" " + base), .string(base.uppercased()), .string(String(base.dropLast())),
            .string(base + "\u{202E}"), .string(base + "🚀"), .string(base + base),
            .raw(Array("\"\(base)\\ud800\"".utf8)),
        ]
        if allowNUL {
            choices += [.string(base + "\u{0}junk"), .string(base + "\u{0}"), .string("\u{0}" + base)]
        }
        return random.pick(choices)
    }

    /// A hostile string, or raw string literal, of any kind.
    public static func make(random: inout FuzzRandom, allowNUL: Bool) -> FuzzJSON {
        switch random.int(0...9) {
        case 0: return .string(scalars(random.pick([maxIDLength, maxIDLength + 1]), random: &random))
        case 1: return .string(scalars(random.pick([maxTitleLength, maxTitleLength + 1]), random: &random))
        case 2: return .string(String(repeating: "x", count: random.pick([10_000, 200_000])))
        case 3:
            return .raw(
                Array(
                    random.pick([
                        #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#, #""\x41""#, #""\u12""#, #""abc"#,
                        "\"a\u{1}b\"",
                        #""\uDBFF\uDFFF""#, #""\ud83d\ude80""#,
                    ]).utf8))
        case 4 where allowNUL:
            return .string(random.pick(["\u{0}", "a\u{0}b", "\u{0}\u{0}", "design\u{0}"]))
        default:
            return .string(
                random.pick([
                    "", " ", "\t", "\n", "\u{202E}evil\u{202C}", "\u{200F}rtl", "👩‍👩‍👧‍👦", "🚀🚀", "e\u{301}", "\u{FEFF}",
                    "\u{7F}", "\\", "\"", "null", "' OR 1=1 --", "%s%n%x", "../../etc/passwd", "\u{10FFFF}",
                    "\u{FFFE}", "design", "release", "x",
                ]))
        }
    }

    /// A number no field expects: huge, negative, fractional, beyond 2⁵³ or beyond `Double`.
    public static func number(random: inout FuzzRandom) -> FuzzJSON {
        .raw(
            Array(
                random.pick([
                    "-1", "0", "1.5", "1e308", "1e400", "-1e400", "9007199254740993", "9223372036854775808",
                    "18446744073709551616", "2147483648", "-0", "1E2", "0.0000001", "100.0000001", "101",
                    "123456789012345678901234567890",
                ]).utf8))
    }
}
