import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// `plan history`, `plan show --version`, `plan chart --version` and `--baseline`, run as programs
/// against a real server.
@Suite("plan history and past versions end to end", .serialized, .database)
struct HistorySubcommandTests {
    static let spec = Sample.collection["spec"]!
    static let build = Sample.collection["build"]!

    @Test("plan schedule: the finish, late dates, slack and critical tasks as the server computes them")
    func scheduleFromTheCommandLine() async throws {
        try await offThePool {
            let plan = try samplePlan(titled: "Demo")
            let (_, token) = try planEditor(plan, "schedule")
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let binary = productsDirectory + "/plan"
            let connection = ["--plan", plan, "--token", token, "--server", server.url]
            let figures = ScheduleFigures(Sample.collection, time: WorkingTime(.allDaysWorking))
            let answer = ScheduleAnswer(plan: plan, version: 0, figures: figures, ids: nil)
            let expected = CommandSession.scheduleText(
                answer, titlesFrom: Sample.copy(version: 0), language: .english)
            let now = try runProgram([binary, "schedule"] + connection)
            #expect(now.status == 0 && now.output == expected, "\(now.output)")
            #expect(expected.hasPrefix("Demo (v0): finish \(figures.finish!)\n"))
            #expect(expected.contains("critical"))
            let past = try runProgram([binary, "schedule", "--version", "0", "--language", "de"] + connection)
            #expect(past.status == 0 && past.output.hasPrefix("Demo (v0): Ende \(figures.finish!)\n"), "\(past.output)")
            let beyond = try runProgram([binary, "schedule", "--version", "9"] + connection)
            #expect(beyond.status == 2, "\(beyond.output)")
        }
    }

    @Test("history in words, a past version shown and charted, a baseline's shadow; unknown ones refused")
    func pastFromTheCommandLine() async throws {
        try await offThePool {
            let plan = try samplePlan(titled: "Demo")
            let (user, token) = try planEditor(plan, "cli")
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let binary = productsDirectory + "/plan"
            let connection = ["--plan", plan, "--token", token, "--server", server.url]
            let path = "/tmp/plan-e2e-history-\(getpid()).json"
            defer { unlink(path) }
            func propose(_ operation: PlanOperation) throws {
                var writer = JSONWriter()
                operation.encodeJSON(into: &writer)
                let file = fopen(path, "wb")
                fputs(writer.string, file)
                fclose(file)
                let result = try runProgram([binary, "propose", path] + connection)
                guard result.status == 0 else { throw HarnessError("proposal refused: \(result.output)") }
            }
            let progressed = Self.spec.with(kind: .activity(schedule: Self.spec.schedule, progress: 80))
            try propose(.replace(previous: Self.spec, proposed: progressed))  // v1
            try propose(.baselineSet(name: "Q3", version: nil))  // v2, naming v1
            let moved = Self.build.with(
                kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-14"), days: 10), progress: 50))
            try propose(.replace(previous: Self.build, proposed: moved))  // v3

            let history = try runProgram([binary, "history"] + connection)
            #expect(history.status == 0, "\(history.output)")
            let lines = history.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(history.output)")
            #expect(lines.first?.hasPrefix("v3  ") == true)
            #expect(lines.first?.hasSuffix("  \(user)  moved “Build” to 2026-09-14 – 2026-09-23") == true)
            #expect(lines.dropFirst().first?.hasSuffix("set the baseline “Q3” (v1)") == true, "\(lines)")
            #expect(lines.dropFirst(2).first?.hasSuffix("set the progress of “Spec” to 80 %") == true)
            #expect(lines.last == "Start of the history (v0)")
            let german = try runProgram([binary, "history", "--limit", "1", "--language", "de"] + connection)
            #expect(german.output.hasPrefix("v3  ") && german.output.contains("verschob „Build“ auf 14.09.2026"))
            #expect(german.output.split(separator: "\n").count == 1)

            var atOne = Sample.collection
            try atOne.replace(previous: Self.spec, proposed: progressed)
            let show = try runProgram([binary, "show", "--version", "1"] + connection)
            let figuresAtOne = ScheduleAnswer(
                plan: plan, version: 1, figures: ScheduleFigures(atOne, time: WorkingTime(.allDaysWorking)), ids: nil)
            #expect(
                show.output
                    == CommandSession.showText(
                        Sample.copy(atOne, version: 1), language: .english, schedule: figuresAtOne))
            #expect(show.output.contains("  0 critical"), "\(show.output)")

            let horizon = try ChartHorizon(start: Sample.date("2026-09-07"), days: 30)
            let chartOptions = ["chart", "--start", "2026-09-07", "--days", "30"]
            var live = atOne
            try live.replace(previous: Self.build, proposed: moved)
            let baseline = Dictionary(atOne.rows().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let shadowed = try runProgram([binary] + chartOptions + ["--baseline", "Q3"] + connection)
            #expect(
                shadowed.output
                    == ChartRenderer(language: .english).text(
                        rows: live.rows(), dependencies: live.dependencies, horizon: horizon, zoom: .oneDay,
                        baseline: baseline))
            #expect(shadowed.output.contains("▁"))
            let past = try runProgram([binary] + chartOptions + ["--version", "0"] + connection)
            #expect(
                past.output
                    == ChartRenderer(language: .english).text(
                        rows: Sample.collection.rows(), dependencies: Sample.dependencies, horizon: horizon,
                        zoom: .oneDay))

            let unknown = try runProgram([binary] + chartOptions + ["--baseline", "nope"] + connection)
            #expect(unknown.status == 2)
            let beyond = try runProgram([binary, "show", "--version", "99"] + connection)
            #expect(beyond.status == 2)
        }
    }
}
