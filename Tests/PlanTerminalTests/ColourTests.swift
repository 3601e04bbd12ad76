import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Colour as pure style decisions: status (done, late, critical), weekend, holiday and today
/// columns, the selection; NO_COLOR and terminals without colours get none, eight-colour
/// terminals the basic colours.
@Suite("Interactive client: colours")
struct ColourTests {
    /// The canvas's styles as text: a letter per cell ("." plain, the same letter for the same
    /// style, in order of first use), then what each letter is.
    static func styleMap(_ canvas: TextCanvas) -> String {
        var letters: [CellStyle: Character] = [.normal: "."]
        var legend: [String] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var lines: [String] = []
        for y in 0..<canvas.height {
            var line = ""
            for x in 0..<canvas.width {
                let style = canvas.style(x: x, y: y)
                if letters[style] == nil {
                    let letter = alphabet[min(letters.count - 1, alphabet.count - 1)]
                    letters[style] = letter
                    legend.append("\(letter) = \(describe(style))")
                }
                line.append(letters[style]!)
            }
            lines.append(line)
        }
        return (lines + legend).joined(separator: "\n") + "\n"
    }

    static func describe(_ style: CellStyle) -> String {
        let names: [(CellStyle.Attributes, String)] = [
            (.bold, "bold"), (.reverse, "reverse"), (.dim, "dim"), (.underline, "underline"),
        ]
        let parts =
            names.filter { style.attributes.contains($0.0) }.map(\.1)
            + [style.foreground.map { "fg \($0)" }, style.background.map { "bg \($0)" }].compactMap { $0 }
        return parts.joined(separator: " ")
    }

    /// The sample plan, automatic (Monday to Friday, a holiday on the 14th), Spec critical, in
    /// `mode`, today the 15th: Spec (ended the 10th at 20 %) is late.
    static func screen(_ depth: ColourDepth, mode: ViewMode = .timeline) -> ClientModel {
        var settings = ClientModelTests.settings
        settings.colours = depth
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: 100, height: 14))
        _ = model.handle(.welcome(user: "ann"))
        var snapshot = Sample.copy().snapshot
        snapshot.settings = PlanSettings(scheduling: .automatic, calendar: ClientModelSchedulingTests.weekdays)
        let actions = model.handle(.copy(ClientPlanCopy(snapshot)))
        if case .schedule(_, _, let ref)? = actions.first(where: { if case .schedule = $0 { true } else { false } }) {
            let answer = ScheduleAnswer(
                plan: "demo", version: 3, finish: Sample.date("2026-10-01"),
                tasks: [ClientModelSchedulingTests.figures("spec", slack: 0)])
            _ = model.handle(.server(.schedule(answer, ref: ref)))
        }
        _ = model.handle(.key(.down))
        if mode == .timeline { _ = model.handle(.key(.tab)) }
        return model
    }

    @Test("NO_COLOR set and not empty means no colour; otherwise the terminal's colour count decides")
    func depthDecision() {
        #expect(ColourDepth.decide(noColor: "1", terminalColours: 256) == .none)
        #expect(ColourDepth.decide(noColor: "", terminalColours: 256) == .full)
        #expect(ColourDepth.decide(noColor: nil, terminalColours: 256) == .full)
        #expect(ColourDepth.decide(noColor: nil, terminalColours: 88) == .eight)
        #expect(ColourDepth.decide(noColor: nil, terminalColours: 8) == .eight)
        #expect(ColourDepth.decide(noColor: nil, terminalColours: 0) == .none)
    }

    @Test("without colours no cell has one, and the screen is what it was before colours")
    func noColour() {
        for mode in [ViewMode.list, .timeline] {
            let canvas = Self.screen(.none, mode: mode).render()
            for y in 0..<canvas.height {
                for x in 0..<canvas.width { #expect(!canvas.style(x: x, y: y).isColoured) }
            }
        }
        expectGolden(Self.styleMap(Self.screen(.none).render()), "colour-timeline-none")
    }

    @Test("256 colours: late orange, done green, critical red, weekend, holiday and today columns, the selection")
    func fullColour() {
        let timeline = Self.screen(.full).render()
        expectGolden(timeline.text + Self.styleMap(timeline), "colour-timeline-256")
        let list = Self.screen(.full, mode: .list).render()
        expectGolden(Self.styleMap(list), "colour-list-256")
    }

    @Test("the selection's colour is a form's focused field and button too, as in the rows")
    func formSelection() throws {
        var model = Self.screen(.full, mode: .list)
        _ = model.handle(.key(.character("p")))
        let canvas = model.render()
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        // The progress form's field, focused as it opens, is drawn as a selection.
        let y = try #require(lines.firstIndex { $0.contains("Progress ") && $0.contains("│") })
        let x = try #require(Array(lines[y]).firstIndex(of: "P"))
        #expect(canvas.style(x: x, y: y) == model.settings.palette.selection, "\(canvas.text)")
        #expect(model.settings.palette.selection != .reverse)
        // A focused button too (past the field and Save, Close).
        _ = model.handle(.key(.tab))
        _ = model.handle(.key(.tab))
        let buttons = model.render()
        let buttonLines = buttons.text.split(separator: "\n", omittingEmptySubsequences: false)
        let closeY = try #require(buttonLines.firstIndex { $0.contains("[ Close ]") }, "\(buttons.text)")
        let closeX = try #require(Array(buttonLines[closeY]).firstIndex(of: "C"))
        #expect(buttons.style(x: closeX, y: closeY) == model.settings.palette.selection, "\(buttons.text)")
    }

    @Test("eight colours use only the basic ones")
    func eightColours() {
        let canvas = Self.screen(.eight).render()
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let style = canvas.style(x: x, y: y)
                #expect((style.foreground?.index ?? 0) < 8 && (style.background?.index ?? 0) < 8)
            }
        }
        expectGolden(Self.styleMap(canvas), "colour-timeline-8")
    }

    @Test("the kind of a day: today, a holiday, a non-working weekday, weekends without a calendar")
    func dayKinds() {
        let calendar = ClientModelSchedulingTests.weekdays
        let today = Sample.date("2026-09-15")
        #expect(DayKind.of(today, today: today, calendar: calendar) == .today)
        #expect(DayKind.of(Sample.date("2026-09-14"), today: today, calendar: calendar) == .holiday)
        #expect(DayKind.of(Sample.date("2026-09-13"), today: today, calendar: calendar) == .weekend)
        #expect(DayKind.of(Sample.date("2026-09-16"), today: today, calendar: calendar) == .workday)
        #expect(DayKind.of(Sample.date("2026-09-12"), today: nil, calendar: nil) == .weekend)
        #expect(DayKind.of(Sample.date("2026-09-14"), today: nil, calendar: nil) == .workday)
    }

    @Test("colour pairs: one per pair of colours, numbered in order of use, none beyond the terminal's")
    func pairs() {
        var pairs = ColourPairs(limit: 3)
        let red = ColourPairs.Colours(foreground: 1, background: nil)
        let blue = ColourPairs.Colours(foreground: 7, background: 4)
        #expect(pairs.pair(for: red)! == (1, true))
        #expect(pairs.pair(for: red)! == (1, false))
        #expect(pairs.pair(for: blue)! == (2, true))
        #expect(pairs.pair(for: ColourPairs.Colours(foreground: 2, background: nil)) == nil)
    }

    @Test("the configuration file's colours replace the defaults, within what the terminal has")
    func configuredColours() {
        let config = ClientConfig.parse(
            """
            colour critical bright-red
            colour selection 33
            colour today default
            colour weekend blue
            """)
        #expect(config.problems.isEmpty)
        let full = Palette(.full, overrides: config.colours)
        #expect(full.critical.foreground == TerminalColour(9))
        #expect(full.selection.background == TerminalColour(33))
        #expect(full.background(.today) == nil)
        #expect(full.background(.weekend) == .blue)
        #expect(full.late == Palette(.full).late, "an element not configured keeps its default")
        // Eight colours: a bright colour as its basic form, one beyond sixteen not at all.
        let eight = Palette(.eight, overrides: config.colours)
        #expect(eight.critical.foreground == .red)
        #expect(eight.selection.background == Palette(.eight).selection.background)
        #expect(eight.background(.weekend) == .blue && Palette(.eight).background(.weekend) == nil)
        // No colours: the configuration changes nothing.
        #expect(Palette(.none, overrides: config.colours).critical == Palette.none.critical)
        #expect(Palette(.none, overrides: config.colours).background(.weekend) == nil)
    }
}
