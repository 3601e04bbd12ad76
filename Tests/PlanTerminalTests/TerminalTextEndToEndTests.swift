import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Wide characters and the locale on a real terminal: ncursesw under tmux against a real server.
@Suite(
    "Terminal client end to end: wide characters and the locale (tmux)", .serialized,
    .database, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct TerminalTextEndToEndTests {
    /// A plan of the wide titles of `WideTextGoldenTests`.
    static func widePlan() throws -> String {
        let plan = TestDatabase.unique("plan")
        try TestDatabase.store.createPlan(
            id: plan,
            document: PlanDocument(
                title: "Intl 🌐 計画", state: PlanState(tasks: WideTextGoldenTests.collection, timeline: TimelineData())))
        return plan
    }

    /// The terminal column where `word` starts on `line`, as tmux counts them: `wcwidth` per
    /// scalar, as ncursesw drew them ("❤️" takes one cell there, and the client pads it to two).
    func column(of word: String, in line: String) -> Int? {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index...].hasPrefix(word) {
                return line[..<index].unicodeScalars.reduce(0) { $0 + TextWidth.of($1) }
            }
            index = line.index(after: index)
        }
        return nil
    }

    /// Starts `plan` in tmux session `session` with `environment` before it, on `plan`.
    func start(_ tmux: Tmux, _ session: String, _ server: ServerProcess, plan: String, environment: [String] = [])
        throws
    {
        let token = try planEditor(plan, "ann").token
        try tmux.start(
            session,
            ["env"] + environment + [
                productsDirectory + "/plan", "--server", server.url, "--token", token, "--plan", plan, "--start",
                "2026-09-07",
            ])
    }

    @Test("wide titles are drawn whole, the columns after them line up, bars sit on their dates")
    func wideCharactersDrawn() async throws {
        try await offThePool {
            let plan = try Self.widePlan()
            let ascii = try samplePlan(titled: "ASCII")
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let tmux = Tmux()
            try start(tmux, "w", server, plan: plan)
            try start(tmux, "a", server, plan: ascii)
            let list = try tmux.waitFor("w") { $0.contains("connected") && $0.contains("リリース") }
            let lines = list.split(separator: "\n").map(String.init)
            #expect(lines[0].hasPrefix("Intl 🌐 計画 "), "\(lines[0])")
            for title in ["Intl 🌐 計画", "打ち合わせ", "Ｒｅｖｉｅｗ", "リリース", "🇩🇪 build"] {
                #expect(list.contains(title), "\(title) is drawn whole:\n\(list)")
            }
            let kinds = lines.compactMap { line in
                ["Summary", "Activity", "Milestone"].lazy.compactMap { column(of: $0, in: line) }.first
            }
            #expect(kinds.count == 6 && Set(kinds).count == 1, "\(kinds)\n\(list)")
            // The timeline: every bar where the same plan with ASCII titles has it.
            try tmux.send("w", "Tab")
            try tmux.send("a", "Tab")
            let wide = try tmux.waitFor("w") { $0.contains("Week 37 2026") && $0.contains("▓") }
            let plain = try tmux.waitFor("a") { $0.contains("Week 37 2026") && $0.contains("▓") }
            let chart = { (screen: String) in
                screen.split(separator: "\n").dropFirst(2).dropLast().map { $0.split(separator: "│").last ?? "" }
            }
            #expect(chart(wide) == chart(plain), "wide:\n\(wide)\nASCII:\n\(plain)")
            let bars = wide.split(separator: "\n").map(String.init).compactMap { column(of: "│", in: $0) }
            #expect(Set(bars).count == 1, "the name column ends at one column: \(bars)\n\(wide)")
        }
    }

    @Test(
        "LANG=C or a locale not installed: C.UTF-8 instead, said once; wide titles drawn, not garbled",
        arguments: [
            (["LC_ALL=", "LANG=C"], "The locale “C” is not UTF-8: using C.UTF-8"),
            (["LC_ALL=", "LANG=xx_YY.UTF-8"], "The locale “xx_YY.UTF-8” is not installed: using C.UTF-8."),
        ])
    func localeFallback(environment: [String], notice: String) async throws {
        try await offThePool {
            let plan = try Self.widePlan()
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let tmux = Tmux()
            try start(tmux, "c", server, plan: plan, environment: environment)
            let screen = try tmux.waitFor("c") { $0.contains("connected") && $0.contains("リリース") }
            #expect(screen.contains(notice), "\(screen)")
            #expect(screen.contains("▾ Intl 🌐 計画") && screen.contains("打ち合わせ"), "\(screen)")
            #expect(!screen.contains("~V") && !screen.contains("M-"), "\(screen)")
            try tmux.send("c", "j")
            let after = try tmux.waitFor("c") { !$0.contains(notice) }
            #expect(after.contains("?: help"), "said once: the next key clears it")
        }
    }
}
