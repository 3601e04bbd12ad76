import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Issue #31's small ones: 60×15 screens, the help per role, the five zoom scales, the offline
/// banner, `w`, `--version`, the language from the environment, the locale's fallback.
@Suite("Small terminals, help per role, zoom scales and the command line")
struct SmallScreenAndKeysTests {
    func loaded(width: Int = 60, height: Int = 15, role: PlanRole? = nil) -> ClientModel {
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: width, height: height))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy(role: role)))
        return model
    }

    @Test("at 60×15 the help scrolls to its last key, saying where it is; any other key closes it")
    func helpScrolls() {
        var model = loaded()
        _ = model.handle(.key(.character("?")))
        let first = model.render()
        expectGolden(first.text, "screen-help-60x15")
        let all = model.helpRows
        #expect(all.count > 10 && all.allSatisfy { $0.displayWidth <= 58 })
        #expect(all.contains("             history)"), "a long line goes on below, indented")
        #expect(first.lines[13].hasPrefix(" 1–10 / \(all.count)"), "\(first.lines[13])")
        _ = model.handle(.key(.end))
        let last = model.render()
        #expect(last.text.contains(all.last!))
        #expect(last.lines[13].contains("/ \(all.count)"))
        #expect(last.lines[14] == "?: help  Tab: view  Enter: details  q: quit", "the footer stays")
        _ = model.handle(.key(.pageUp))
        _ = model.handle(.key(.up))
        #expect(model.showsHelp && model.helpTop == all.count - 10 - 10 - 1)
        _ = model.handle(.key(.character("x")))
        #expect(!model.showsHelp)
        _ = model.handle(.key(.character("?")))
        #expect(model.helpTop == 0, "it opens at the top again")
    }

    @Test("the help lists each key once, the four views, and only the keys the role may use")
    func helpPerRole() {
        let owner = loaded(role: .owner).helpLines
        #expect(owner.filter { $0.hasPrefix("b ") }.count == 1, "b is listed once")
        #expect(owner.contains { $0.contains("(list, timeline, resources, history)") })
        #expect(owner.contains { $0.hasPrefix("S ") } && owner.contains { $0.hasPrefix("z Z") })
        let editor = loaded(role: .editor).helpLines
        #expect(!editor.contains { $0.hasPrefix("S ") }, "only owners get the settings")
        #expect(editor.contains { $0.hasPrefix("e ") } && editor.contains { $0.hasPrefix("m ") })
        let viewer = loaded(role: .viewer).helpLines
        for key in [
            "e ", "d ", "u ", "p ", "g ", "o ", "a ", "c ", "x ", "l ", "L ", "S ", "M ", "z ", "b ", "m ", "s ",
        ] {
            #expect(!viewer.contains { $0.hasPrefix(key) }, "a viewer's help has no \(key)")
        }
        #expect(viewer.contains { $0.hasPrefix("B ") } && viewer.contains { $0.hasPrefix("Enter i") })
        #expect(!viewer.contains { $0.hasPrefix("Forms:") })
    }

    @Test("at 60×15 details are cut with an ellipsis above the footer, and the navigation keys stay")
    func smallDetails() {
        var model = loaded()
        _ = model.handle(.key(.tab))
        #expect(model.render().lines[1].hasSuffix("t ] ▶"), "\(model.render().lines[1])")
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.enter))
        let screen = model.render()
        expectGolden(screen.text, "screen-details-60x15")
        #expect(screen.lines[14] == "?: help  Tab: view  Enter: details  q: quit")
        #expect(screen.lines[13].hasPrefix(" └"), "the box ends above the footer")
        #expect(screen.lines.contains { $0.contains("│ …") })
        var german = ClientModel(
            settings: {
                var s = ClientModelTests.settings; s.language = .german; return s
            }())
        _ = german.handle(.resize(width: 60, height: 15))
        _ = german.handle(.copy(Sample.copy()))
        _ = german.handle(.key(.tab))
        #expect(german.render().lines[1].hasSuffix("t ] ▶"), "\(german.render().lines[1])")
    }

    @Test("the five zooms give five scales: at 200 columns each spans a different stretch")
    func zoomScales() {
        var spans: [Int] = []
        for zoom in TimelineZoom.allCases {
            let columns = ChartRenderer(language: .english, nameWidth: 20).visibleColumns(forWidth: 200, zoom: zoom)
            spans.append(columns * zoom.daysPerColumn)
            let cellsPerDay = Double(ChartRenderer.cellsPerColumn(zoom)) / Double(zoom.daysPerColumn)
            #expect(cellsPerDay == [3, 2, 1.5, 1, 0.75][spans.count - 1])
        }
        #expect(spans == [59, 88, 116, 174, 232], "\(spans)")
        #expect(Set(spans).count == 5)
    }

    @Test("offline, the heading says so first, reversed, with the count of changes queued")
    func offlineBanner() {
        var model = loaded(width: 100)
        _ = model.handle(.disconnected(reason: "", willReconnect: true))
        let screen = model.render()
        #expect(screen.lines[0].hasPrefix(" ⚠ OFFLINE – disconnected, reconnecting – nothing queued  Demo"))
        #expect(screen.style(x: 3, y: 0) == .reverse)
        var german = ClientModel(
            settings: {
                var s = ClientModelTests.settings; s.language = .german; return s
            }())
        _ = german.handle(.copy(Sample.copy()))
        _ = german.handle(.disconnected(reason: "timeout", willReconnect: false))
        #expect(german.render().lines[0].hasPrefix(" ⚠ OFFLINE – getrennt (timeout) – nichts in der Warteschlange"))
    }

    @Test("w switches the language of every label at once")
    func languageKey() {
        var model = loaded(width: 100)
        _ = model.handle(.key(.character("w")))
        #expect(model.settings.language == .german)
        #expect(model.render().lines[1].hasPrefix(" Liste   Zeitachse"))
        #expect(model.render().lines[14] == "Sprache: Deutsch.")
        _ = model.handle(.key(.character("w")))
        #expect(model.render().lines[1].hasPrefix(" List   Timeline"))
    }

    @Test("a resources page without an entry in view says so")
    func emptyPage() throws {
        var (model, _) = try ClientModelResourceTests().resourcesView()
        for _ in 0..<3 { _ = model.handle(.key(.character("]"))) }
        let actions = model.handle(.key(.character("]")))
        let (query, id) = try ClientModelResourceTests.watchSent(by: &model, after: actions)
        _ = model.handle(
            .server(
                .page(
                    plan: "demo", watch: id, version: 3, query: query, page: TimelinePage(entries: [], assignments: []))
            ))
        #expect(model.render().text.contains("No entries from "), "\(model.render().text)")
    }

    @Test("plan --version prints the version; --version V still names a version for show")
    func version() throws {
        let options = try PlanOptions(arguments: ["--version"])
        #expect(options.printsVersion && options.subcommand == nil)
        let show = try PlanOptions(arguments: ["show", "--version", "3"])
        #expect(!show.printsVersion && show.version == 3)
        #expect(PlanCommand.versionText == "plan/1 (ChronoSketch protocol 1)")
        let run = CommandLineTests.run("plan", ["--version"])
        #expect(run.status == 0 && run.output.hasPrefix("plan/1 (ChronoSketch protocol 1)"), "\(run)")
    }

    @Test("the language comes from LC_ALL, LC_MESSAGES or LANG (German for de_*); --language overrides")
    func languageFromEnvironment() throws {
        #expect(try PlanOptions(arguments: ["show"], environment: ["LANG": "de_DE.UTF-8"]).language == .german)
        #expect(try PlanOptions(arguments: ["show"], environment: ["LANG": "de_AT"]).language == .german)
        let messages = ["LANG": "en_US.UTF-8", "LC_MESSAGES": "de_CH.UTF-8"]
        #expect(try PlanOptions(arguments: ["show"], environment: messages).language == .german)
        let all = ["LC_ALL": "C", "LC_MESSAGES": "de_DE.UTF-8"]
        #expect(try PlanOptions(arguments: ["show"], environment: all).language == .english)
        let overridden = ["--language", "en", "show"]
        #expect(try PlanOptions(arguments: overridden, environment: ["LANG": "de_DE"]).language == .english)
        #expect(PlanOptions.requestedLanguage(["--bad"], environment: ["LANG": "de_DE.UTF-8"]) == .german)
    }

    @Test("a locale that is missing or not UTF-8 falls back to C.UTF-8, and says so")
    func localeFallback() {
        #expect(
            TerminalLocale.decide(asked: "de_DE.UTF-8", installed: true, codeset: "UTF-8", fallback: "C.UTF-8") == nil)
        #expect(
            TerminalLocale.decide(asked: "C", installed: true, codeset: "ANSI_X3.4-1968", fallback: "C.UTF-8")
                == .notUTF8("C", using: "C.UTF-8"))
        #expect(
            TerminalLocale.decide(
                asked: "xx_YY.UTF-8", installed: false, codeset: "ANSI_X3.4-1968", fallback: "C.UTF-8")
                == .missing("xx_YY.UTF-8", using: "C.UTF-8"))
        #expect(TerminalLocale.decide(asked: "C", installed: true, codeset: "ANSI", fallback: nil) == .unavailable("C"))
        #expect(
            TerminalStrings(.english).localeFallback(.missing("xx_YY.UTF-8", using: "C.UTF-8"))
                == "The locale “xx_YY.UTF-8” is not installed: using C.UTF-8.")
    }
}
