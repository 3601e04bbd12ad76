import CNcurses
import Glibc
import SystemSupport

/// What the terminal delivers.
enum TerminalInput {
    /// A key.
    case key(Key)
    /// A new size.
    case resize(width: Int, height: Int)
}

/// The ncursesw terminal: setup and teardown, drawing a `TextCanvas` (ncurses sends only what
/// changed), and decoding keys. Used from the main loop's thread only.
final class CursesScreen {
    private var savedStderr: Int32 = -1
    /// The locale drawn in when the one asked for could not be used (said once, in the footer).
    let localeFallback: TerminalLocale.Fallback?

    init() {
        // Library logging on standard error would scribble over the screen.
        savedStderr = dup(2)
        let log = getenv("PLAN_LOG").map { String(cString: $0) } ?? "/dev/null"
        let file = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if file >= 0 {
            dup2(file, 2)
            close(file)
        }
        // ncursesw decodes by LC_CTYPE: a UTF-8 locale, or every non-ASCII character is garbled.
        localeFallback = TerminalLocale.useUTF8(environment: ProcessIO.environment())
        initscr()
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        timeout(0)
        colourCount = Int(cn_start_colors())
        pairs = ColourPairs(limit: Int(cn_color_pairs()))
    }

    /// How many colours the terminal shows (0: none); `ColourDepth.decide` turns it into the
    /// model's depth.
    let colourCount: Int
    /// The colour pairs defined so far.
    private var pairs: ColourPairs

    /// Restores the terminal.
    func end() {
        if reportsMouse { writeControl("\u{1b}[?1006l\u{1b}[?1002l") }
        endwin()
        if savedStderr >= 0 {
            dup2(savedStderr, 2)
            close(savedStderr)
            savedStderr = -1
        }
    }

    var width: Int { Int(cn_cols()) }
    var height: Int { Int(cn_lines()) }

    /// Blocks until a key or an event arrives (or `milliseconds` pass); false when the terminal
    /// is gone (standard input hung up).
    func wait(for eventFD: Int32, milliseconds: Int = 1000) -> Bool {
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: eventFD, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, Int32(milliseconds))
        return fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) == 0
    }

    /// Every key waiting, decoded, with the mouse reports among them joined (`MouseDecoder`).
    func readKeys() -> [TerminalInput] {
        // Keys are decoded in runs between the other inputs (a resize), which keep their place.
        let now = ContinuousClock.now
        var result: [TerminalInput] = []
        var keys: [Key] = []
        var anyKey = false
        for input in readRawKeys() {
            if case .key(let key) = input {
                keys.append(key)
                anyKey = true
                continue
            }
            result += mouseDecoder.decode(keys, now: now).map { .key($0) }
            keys = []
            result.append(input)
        }
        result += mouseDecoder.decode(keys, now: now).map { .key($0) }
        // A report cut by the read: the rest is on its way; if it has not come within the
        // decoder's patience, what was held is keys.
        if !anyKey { result += mouseDecoder.flush(now: now).map { .key($0) } }
        return result
    }

    /// Whether the start of a mouse report waits for its rest: read again soon (`readKeys` gives
    /// it back as keys if the rest does not come).
    var holdsInput: Bool { mouseDecoder.isHolding }

    /// Joins SGR mouse reports that ncurses hands over as Escape and characters.
    private var mouseDecoder = MouseDecoder()

    /// Whether the terminal was asked for mouse reports (turned off again by `end`).
    private var reportsMouse = false

    /// Asks the terminal for SGR mouse reports of presses, releases, drags and the wheel (DEC
    /// private modes 1002 and 1006). Selecting text then needs Shift held, as in every program
    /// that takes the mouse.
    func enableMouse() {
        reportsMouse = true
        cn_enable_mouse()
        // Motion while a button is held (1002) and SGR reports (1006), whatever ncurses asked.
        writeControl("\u{1b}[?1002h\u{1b}[?1006h")
    }

    /// The mouse event ncurses decoded (a click as a press and a release).
    private static func mouseEvents() -> [TerminalInput] {
        var x: Int32 = 0
        var y: Int32 = 0
        let kinds: [MouseEvent.Kind]
        switch cn_mouse_event(&x, &y) {
        case 1: kinds = [.press]
        case 2: kinds = [.release]
        case 3: kinds = [.drag]
        case 4: kinds = [.wheelUp]
        case 5: kinds = [.wheelDown]
        case 6: kinds = [.press, .release]
        default: kinds = []
        }
        return kinds.map { .key(.mouse(MouseEvent($0, x: Int(x), y: Int(y)))) }
    }

    private func writeControl(_ text: String) {
        fflush(nil)
        var bytes = Array(text.utf8)
        _ = write(1, &bytes, bytes.count)
    }

    private func readRawKeys() -> [TerminalInput] {
        var result: [TerminalInput] = []
        while true {
            var character: wint_t = 0
            let status = get_wch(&character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                switch Int32(character) {
                case KEY_RESIZE: result.append(.resize(width: width, height: height))
                case KEY_UP: result.append(.key(.up))
                case KEY_DOWN: result.append(.key(.down))
                case KEY_LEFT: result.append(.key(.left))
                case KEY_RIGHT: result.append(.key(.right))
                case KEY_PPAGE: result.append(.key(.pageUp))
                case KEY_NPAGE: result.append(.key(.pageDown))
                case KEY_HOME: result.append(.key(.home))
                case KEY_END: result.append(.key(.end))
                case KEY_BTAB: result.append(.key(.backTab))
                case KEY_BACKSPACE: result.append(.key(.backspace))
                case KEY_DC: result.append(.key(.delete))
                case KEY_SLEFT: result.append(.key(.shiftLeft))
                case KEY_SRIGHT: result.append(.key(.shiftRight))
                case KEY_ENTER: result.append(.key(.enter))
                case KEY_MOUSE: result += CursesScreen.mouseEvents()
                default: break
                }
                continue
            }
            switch character {
            case 9: result.append(.key(.tab))
            case 10, 13: result.append(.key(.enter))
            case 27: result.append(.key(.escape))
            case 8, 127: result.append(.key(.backspace))
            case 1...26:
                // Ctrl-A … Ctrl-Z (Tab, Return and Backspace are taken above).
                result.append(.key(.control(Character(Unicode.Scalar(UInt8(character) + 96)))))
            default:
                if character >= 32, let scalar = Unicode.Scalar(UInt32(character)) {
                    result.append(.key(.character(Character(scalar))))
                }
            }
        }
        return result
    }

    /// A run's clusters as ncursesw can draw them in the cells the canvas gave them: each one in
    /// its `TextWidth.terminalForm`, padded with spaces where ncurses counts it narrower (a VS16
    /// emoji on a narrow base). ncurses then places every cell where the canvas has it.
    static func terminalText(_ text: String) -> String {
        var result = ""
        for (character, cells) in TextWidth.widths(text) where cells > 0 {
            let form = TextWidth.terminalForm(character)
            result += form.text + String(repeating: " ", count: max(cells - form.width, 0))
        }
        return result
    }

    /// The ncurses attributes of a style, its colours as a pair (defined on first use).
    private func attributes(of style: CellStyle) -> Int32 {
        var attributes: Int32 = 0
        if style.attributes.contains(.bold) { attributes |= cn_attr_bold() }
        if style.attributes.contains(.reverse) { attributes |= cn_attr_reverse() }
        if style.attributes.contains(.dim) { attributes |= cn_attr_dim() }
        if style.attributes.contains(.underline) { attributes |= cn_attr_underline() }
        guard style.isColoured, colourCount > 0 else { return attributes }
        let colours = ColourPairs.Colours(foreground: style.foreground?.index, background: style.background?.index)
        guard let (pair, new) = pairs.pair(for: colours) else { return attributes }
        if new {
            cn_init_pair(
                Int32(pair), colours.foreground.map(Int32.init) ?? -1, colours.background.map(Int32.init) ?? -1)
        }
        return attributes | cn_color_pair(Int32(pair))
    }

    /// Draws a canvas; ncurses sends only the cells that changed.
    func draw(_ canvas: TextCanvas) {
        erase()
        for y in 0..<min(canvas.height, height) {
            for run in canvas.runs(y: y) {
                let attributes = self.attributes(of: run.style)
                var text = CursesScreen.terminalText(run.text)
                // The screen's last cell is left alone: writing it would scroll.
                if y == height - 1, run.x + text.displayWidth >= width {
                    text = text.prefix(fittingWidth: max(width - 1 - run.x, 0))
                }
                cn_put(Int32(y), Int32(run.x), text, attributes)
            }
        }
        refresh()
    }
}
