import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("The configuration file, key bindings, the mouse decoder and bar drags")
struct ConfigAndMouseTests {
    @Test("the file's lines set keys, language, colours and the mouse; comments and blank lines are skipped")
    func parsing() {
        let config = ClientConfig.parse(
            """
            # my keys
            key search s
            key half-page-down C-f   # like less
            key first-row Home

            language de
            colour critical bright-red
            color selection 33
            mouse off
            """)
        #expect(config.problems.isEmpty)
        #expect(config.bindings.translate(.character("s")) == .character("/"))
        #expect(config.bindings.translate(.control("f")) == .control("d"))
        #expect(config.bindings.translate(.character("x")) == .character("x"), "unbound keys are themselves")
        #expect(config.language == .german)
        #expect(config.colours[.critical] == .palette(9) && config.colours[.selection] == .palette(33))
        #expect(!config.mouse)
    }

    @Test("a bad line is named with its number and why, and ignored; the good lines still count")
    func problems() {
        let config = ClientConfig.parse(
            """
            key serch s
            key search
            key quit C-
            language fr
            colour bars red
            colour critical pink
            wibble 3
            key quit Q
            """)
        #expect(config.problems.count == 7)
        #expect(config.problems[0].hasPrefix("line 1: unknown action “serch” (known: quit, help,"))
        #expect(config.problems[1] == "line 2: expected “key <action> <key>”")
        #expect(config.problems[2].hasPrefix("line 3: “C-” is not a key"))
        #expect(config.problems[3].hasPrefix("line 4: unknown language “fr”"))
        #expect(config.problems[4].hasPrefix("line 5: unknown element “bars”"))
        #expect(config.problems[5].hasPrefix("line 6: “pink” is not a colour"))
        #expect(config.problems[6].hasPrefix("line 7: unknown setting “wibble”"))
        #expect(config.bindings.translate(.character("Q")) == .character("q"))
        let german = ClientConfig.parse("key serch s", language: .german)
        #expect(german.problems.first?.hasPrefix("Zeile 1: unbekannte Aktion „serch“") == true)
    }

    @Test("the file is $XDG_CONFIG_HOME/plan/config, else ~/.config/plan/config")
    func path() {
        #expect(ClientConfig.path(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/plan/config")
        #expect(
            ClientConfig.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/plan/config")
        #expect(ClientConfig.path(environment: ["HOME": "/h"]) == "/h/.config/plan/config")
        #expect(ClientConfig.path(environment: [:]) == nil)
    }

    @Test("a bound key does its action in the client, and the help lists it")
    func boundKeys() {
        var settings = ClientModelTests.settings
        settings.config = ClientConfig.parse("key search s\nkey last-row E")
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: 100, height: 14))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy()))
        _ = model.handle(.key(.character("E")))
        #expect(model.selectedTask?.id == "release")
        _ = model.handle(.key(.character("s")))
        #expect(model.find.searchLine != nil)
        let help = model.helpLines
        #expect(help.first == "Your keys (configuration file):")
        #expect(help.contains { $0.hasPrefix("s") && $0.hasSuffix(" search") })
        #expect(help.contains { $0.hasPrefix("E") && $0.hasSuffix(" last-row") })
    }

    @Test("SGR mouse reports become mouse events; a report cut between reads waits; other keys pass")
    func decoding() {
        var decoder = MouseDecoder()
        #expect(decoder.decode(keys("\u{1b}[<0;5;3M")) == [.mouse(MouseEvent(.press, x: 4, y: 2))])
        #expect(decoder.decode(keys("\u{1b}[<32;7;3Mq")) == [.mouse(MouseEvent(.drag, x: 6, y: 2)), .character("q")])
        #expect(decoder.decode(keys("\u{1b}[<0;7;3m")) == [.mouse(MouseEvent(.release, x: 6, y: 2))])
        #expect(
            decoder.decode(keys("\u{1b}[<65;1;1M\u{1b}[<64;1;1M")) == [
                .mouse(MouseEvent(.wheelDown, x: 0, y: 0)), .mouse(MouseEvent(.wheelUp, x: 0, y: 0)),
            ])
        #expect(decoder.decode(keys("\u{1b}[<2;1;1M")).isEmpty, "the right button is not used")
        #expect(decoder.decode(keys("\u{1b}[<0;12")).isEmpty && !decoder.pending.isEmpty)
        #expect(decoder.decode(keys(";4M")) == [.mouse(MouseEvent(.press, x: 11, y: 3))])
        #expect(decoder.decode([.escape]) == [.escape], "a lone Escape is a key, at once")
        #expect(decoder.decode([.escape, .character("x")]) == [.escape, .character("x")])
        #expect(decoder.decode(keys("\u{1b}[<0;1")).isEmpty)
        #expect(decoder.flush(patience: .zero) == keys("\u{1b}[<0;1"), "nothing came: the keys as they were")
    }

    /// The client reads whenever anything wakes it (a server's message, a timer): a read that finds
    /// nothing while a report's start is held is no reason to give it up — in CI, clicks were lost
    /// that way (turned into Escape, "[", "<" and digits) beside busy suites.
    @Test("a cut report waits for its rest through empty reads for its patience, then counts as keys")
    func patience() {
        let start = ContinuousClock.now
        var decoder = MouseDecoder()
        #expect(decoder.decode(keys("\u{1b}[<0;12"), now: start).isEmpty && decoder.isHolding)
        // Woken by a server's message 40 ms later: nothing read, nothing given up.
        #expect(decoder.decode([], now: start + .milliseconds(40)).isEmpty)
        #expect(decoder.flush(now: start + .milliseconds(40)).isEmpty && decoder.isHolding)
        // Part of the rest, then the rest: one press, as though it had come whole.
        #expect(decoder.decode(keys(";4"), now: start + .milliseconds(60)).isEmpty)
        #expect(decoder.flush(now: start + .milliseconds(100)).isEmpty, "the patience counts from the start")
        #expect(decoder.decode(keys("M"), now: start + .milliseconds(120)) == [.mouse(MouseEvent(.press, x: 11, y: 3))])
        #expect(!decoder.isHolding)
        // A start whose rest never comes: keys once the patience has passed since it began.
        #expect(decoder.decode(keys("\u{1b}[<"), now: start).isEmpty)
        #expect(decoder.flush(now: start + MouseDecoder.patience - .milliseconds(1)).isEmpty)
        #expect(decoder.flush(now: start + MouseDecoder.patience) == keys("\u{1b}[<"))
        #expect(!decoder.isHolding)
    }

    @Test("a drag begins only on a bar, moves by days, and its release proposes once; no move proposes nothing")
    func dragValue() throws {
        let spec = Sample.collection["spec"]!  // 2026-09-08 – 2026-09-10
        #expect(BarDrag(task: spec, pressedAt: Sample.date("2026-09-12")) == nil, "beside the bar")
        #expect(BarDrag(task: Sample.collection["design"]!, pressedAt: Sample.date("2026-09-08")) == nil)
        #expect(BarDrag(task: Sample.collection["review"]!, pressedAt: Sample.date("2026-09-08")) == nil)
        var drag = try #require(BarDrag(task: spec, pressedAt: Sample.date("2026-09-09")))
        #expect(drag.proposal == nil)
        drag.move(to: Sample.date("2026-09-12"))
        drag.move(to: Sample.date("2026-09-11"))
        #expect(drag.days == 2)
        let moved = spec.with(
            kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-10"), days: 3), progress: 20))
        #expect(drag.proposal == .replace(previous: spec, proposed: moved))
        var milestone = try #require(BarDrag(task: Sample.collection["release"]!, pressedAt: Sample.date("2026-10-01")))
        milestone.move(to: Sample.date("2026-09-28"))
        #expect(milestone.movedStart == Sample.date("2026-09-28"))
    }
}
