import Testing

@testable import PlanTerminal

@Suite("Display width per grapheme cluster, and cutting only between clusters")
struct TextWidthTests {
    @Test("ASCII, CJK, fullwidth forms and halfwidth katakana")
    func eastAsianWidth() {
        #expect(TextWidth.of("Plan") == 4)
        #expect(TextWidth.of("計画") == 4)
        #expect(TextWidth.of("打ち合わせ") == 10)
        #expect(TextWidth.of("Ｐｌａｎ") == 8, "fullwidth Latin")
        #expect(TextWidth.of("ｱｲｳ") == 3, "halfwidth katakana")
        #expect(TextWidth.of("한국어") == 6)
        #expect(TextWidth.of("Intl 🌐 計画") == 12)
    }

    @Test("emoji: presentation, VS16, ZWJ sequences, skin tones, flags, keycaps")
    func emoji() {
        #expect(TextWidth.of("😀" as Character) == 2)
        #expect(TextWidth.of("❤" as Character) == 1, "text presentation by default")
        #expect(TextWidth.of("❤️" as Character) == 2, "VS16 asks for emoji presentation")
        #expect(TextWidth.of("👨‍👩‍👧" as Character) == 2, "a ZWJ sequence is one emoji")
        #expect(TextWidth.of("👍🏽" as Character) == 2, "a skin-tone modifier adds nothing")
        #expect(TextWidth.of("🇩🇪" as Character) == 2, "a flag")
        #expect(TextWidth.of("1️⃣" as Character) == 2, "a keycap")
        #expect(TextWidth.of("a👨‍👩‍👧b🇩🇪c") == 7)
    }

    @Test("combining marks, zero-width joiners and spaces, controls")
    func zeroWidth() {
        #expect(TextWidth.of("e\u{301}" as Character) == 1, "e + combining acute")
        #expect(TextWidth.of("Cafe\u{301}") == 4)
        #expect(TextWidth.of("\u{200B}" as Character) == 0, "zero-width space")
        #expect(TextWidth.of("a\u{200D}b") == 2, "a lone ZWJ")
        #expect(TextWidth.of("\u{1100}\u{1161}\u{11A8}" as Character) == 2, "Hangul jamo: one syllable")
        #expect(TextWidth.of("a\tb") == 2, "a control takes no cell")
        #expect(TextWidth.of("–…▏█◆") == 5)
    }

    @Test("truncating and padding cut between clusters and fill to the exact width")
    func cutting() {
        #expect("打ち合わせ".truncated(to: 7) == "打ち合…")
        #expect("打ち合わせ".truncated(to: 6) == "打ち…", "a wide cluster that would not fit is left out")
        #expect("打ち合わせ".truncated(to: 10) == "打ち合わせ")
        #expect("Intl 🌐 計画".padded(to: 12) == "Intl 🌐 計画")
        #expect("Intl 🌐 計画".padded(to: 11) == "Intl 🌐 計…")
        #expect("Intl 🌐 計画".padded(to: 10) == "Intl 🌐 … ", "計 would end past the width: a blank")
        #expect("Intl 🌐 計画".padded(to: 11).displayWidth == 11)
        #expect("👨‍👩‍👧👨‍👩‍👧".truncated(to: 3) == "👨‍👩‍👧…")
        #expect("Cafe\u{301} au lait".truncated(to: 5) == "Cafe\u{301}…")
        #expect("🇩🇪🇫🇷".truncated(to: 4) == "🇩🇪🇫🇷")
        #expect("🇩🇪🇫🇷🇮🇹".truncated(to: 4) == "🇩🇪…")
        #expect("計画".leftPadded(to: 6) == "  計画")
        #expect("ABC計画".truncatedAtStart(to: 6) == "…C計画")
        #expect("会議 計画 打ち合わせ".wrapped(to: 6) == ["会議", "計画", "打ち合", "わせ"])
    }

    @Test("a canvas keeps wide clusters whole: continuation cells, overwriting, clipping")
    func canvas() {
        var canvas = TextCanvas(width: 8, height: 2)
        canvas.write("計画ab", x: 0, y: 0)
        #expect(canvas.lines[0] == "計画ab")
        #expect(canvas.character(x: 1, y: 0) == TextCanvas.continuation)
        canvas.set("x", x: 1, y: 0)
        #expect(canvas.lines[0] == " x画ab", "writing over the second half blanks the first")
        canvas.write("打ち合わせ", x: 3, y: 1)
        #expect(canvas.lines[1] == "   打ち", "the third would not fit: left out")
        canvas.write("計", x: 7, y: 0)
        #expect(canvas.character(x: 7, y: 0) == " ", "no room for the second half: a blank")
        var other = TextCanvas(width: 4, height: 1)
        other.write("🌐計", x: 0, y: 0)
        canvas.draw(other, x: -1, y: 1)
        #expect(canvas.lines[1] == " 計打ち", "the half cut off at the left edge becomes a blank")
        #expect(canvas.runs(y: 0).map(\.text) == [" x画ab  "])
    }

    @Test("ncurses gets each cluster in the cells the canvas gave it")
    func terminalForm() {
        #expect(TextWidth.terminalForm("計").text == "計")
        #expect(TextWidth.terminalForm("👨‍👩‍👧") == ("👨", 2), "a ZWJ sequence: its first emoji")
        #expect(TextWidth.terminalForm("e\u{301}") == ("e\u{301}", 1))
        #expect(TextWidth.terminalForm("🇩🇪") == ("🇩🇪", 2))
        #expect(CursesScreen.terminalText("❤️a") == "❤️ a", "ncurses counts ❤️ as one cell: padded to two")
        #expect(CursesScreen.terminalText("👍🏽計") == "👍計")
    }
}
