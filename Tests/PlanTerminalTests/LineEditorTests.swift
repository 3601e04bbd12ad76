import Testing

@testable import PlanTerminal

@Suite("LineEditor: a text field's keys, per grapheme cluster")
struct LineEditorTests {
    func editing(_ text: String, cursor: Int? = nil, _ keys: [Key]) -> LineEditor {
        var editor = LineEditor(text, cursor: cursor)
        for key in keys { editor.handle(key) }
        return editor
    }

    @Test("typing inserts at the cursor; ← → Home End Ctrl-A Ctrl-E move it, stopping at the ends")
    func moving() {
        var editor = LineEditor("Spec")
        #expect(editor.cursor == 4)
        editor.handle(.left)
        editor.handle(.left)
        editor.handle(.character("X"))
        #expect(editor.text == "SpXec" && editor.cursor == 3)
        editor.handle(.home)
        editor.handle(.left)
        #expect(editor.cursor == 0)
        editor.handle(.character(">"))
        #expect(editor.text == ">SpXec")
        editor.handle(.end)
        editor.handle(.right)
        #expect(editor.cursor == 6)
        editor.handle(.control("a"))
        #expect(editor.cursor == 0)
        editor.handle(.control("e"))
        #expect(editor.cursor == 6)
        #expect(editor.handle(.tab) == .unhandled && editor.handle(.enter) == .unhandled)
    }

    @Test("Backspace deletes before the cursor, Delete (and Ctrl-D) at it; nothing at the ends")
    func deleting() {
        #expect(editing("Build", cursor: 2, [.backspace]).text == "Bild")
        #expect(editing("Build", cursor: 2, [.delete]).text == "Buld")
        #expect(editing("Build", cursor: 2, [.control("d")]).text == "Buld")
        #expect(editing("Build", cursor: 0, [.backspace]) == LineEditor("Build", cursor: 0))
        #expect(editing("Build", [.delete]) == LineEditor("Build"))
        var editor = LineEditor("ab", cursor: 1)
        #expect(editor.handle(.backspace) == .edited)
        #expect(editor.handle(.backspace) == .moved)
    }

    @Test("Ctrl-W deletes the word before the cursor (and the spaces after it), Ctrl-U to the start, Ctrl-K to the end")
    func words() {
        #expect(editing("Write the spec  ", [.control("w")]).text == "Write the ")
        #expect(editing("Write the spec", cursor: 9, [.control("w")]).text == "Write  spec")
        #expect(editing("Write the spec", cursor: 9, [.control("w"), .control("w")]).text == " spec")
        let start = editing("Write the spec", cursor: 6, [.control("u")])
        #expect(start.text == "the spec" && start.cursor == 0)
        let end = editing("Write the spec", cursor: 5, [.control("k")])
        #expect(end.text == "Write" && end.cursor == 5)
    }

    @Test("wide characters, emoji sequences and letters with combining marks move and go whole")
    func clusters() {
        // 計 and 画 are two cells each; 👨‍👩‍👧 is one cluster of five scalars; é is e + U+0301.
        var editor = LineEditor("計画👨‍👩‍👧e\u{301}")
        #expect(editor.cursor == 4)
        editor.handle(.backspace)
        #expect(editor.text == "計画👨‍👩‍👧")
        editor.handle(.left)
        editor.handle(.backspace)
        #expect(editor.text == "計👨‍👩‍👧" && editor.cursor == 1)
        editor.handle(.delete)
        #expect(editor.text == "計" && editor.cursor == 1)
        editor.handle(.character("-"))
        editor.handle(.character("e"))
        editor.handle(.character("\u{301}"))
        #expect(editor.text == "計-e\u{301}" && editor.cursor == 3)
        #expect(editing("計画 会議", [.control("w")]).text == "計画 ")
    }

    @Test("the display keeps the cursor in view, cut at cluster boundaries with an ellipsis")
    func display() {
        #expect(LineEditor("Spec", cursor: 2).display(width: 10) == "Sp▏ec")
        let long = LineEditor("abcdefghijklmnopqrstuvwxyz", cursor: 3)
        #expect(long.display(width: 10) == "abc▏defgh…")
        let end = LineEditor("abcdefghijklmnopqrstuvwxyz")
        #expect(end.display(width: 10) == "…stuvwxyz▏")
        let middle = LineEditor("abcdefghijklmnopqrstuvwxyz", cursor: 20).display(width: 10)
        #expect(middle.displayWidth <= 10 && middle.contains("t▏u") && middle.hasPrefix("…"))
        // A wide cluster is never cut in half.
        let wide = LineEditor("計画計画計画計画").display(width: 8)
        #expect(wide == "…画計画▏" && wide.displayWidth == 8)
    }
}
