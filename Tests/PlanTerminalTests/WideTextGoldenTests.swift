import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Titles of CJK, fullwidth forms, emoji (ZWJ sequences, flags, VS16) and combining marks, in
/// every view and in `plan show`: columns stay where ASCII titles put them, bars on their dates,
/// nothing overwrites anything, and no line is wider than the screen.
@Suite("Wide characters in every view (golden text)")
struct WideTextGoldenTests {
    static let titles = [
        "design": "Intl 🌐 計画", "spec": "打ち合わせ", "review": "Ｒｅｖｉｅｗ ❤️", "impl": "Team 👨‍👩‍👧 sync",
        "build": "Cafe\u{301} 🇩🇪 build", "release": "リリース",
    ]
    static let collection = try! TaskCollection(
        Sample.collection.tasks.map { $0.with(title: titles[$0.id] ?? $0.title) },
        dependencies: Sample.dependencies)

    /// Every line of `text` fits in `width` cells.
    func expectFits(_ text: String, _ width: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in text.split(separator: "\n") {
            #expect(line.displayWidth <= width, "\(line)", sourceLocation: sourceLocation)
        }
    }

    /// The display column where `word` starts in `line`.
    func column(of word: String, in line: Substring) -> Int? {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index...].hasPrefix(word) { return line[..<index].displayWidth }
            index = line.index(after: index)
        }
        return nil
    }

    @Test("plan show and the list: the columns after the title line up")
    func show() {
        let text = CommandSession.showText(Sample.copy(Self.collection, title: "計画 🌐"), language: .english)
        expectGolden(text, "show-wide-en")
        expectFits(text, 100 + 2 + "Predecessors".count + 20)
        let lines = text.split(separator: "\n").dropFirst(2)
        let kinds = lines.compactMap { line in
            ["Summary", "Activity", "Milestone"].lazy.compactMap { column(of: $0, in: line) }.first
        }
        #expect(kinds.count == 6 && Set(kinds).count == 1, "\(kinds)")
        #expect(text.contains("打ち合わせ"), "no cluster is lost")
        let list = ListRenderer(language: .german).text(rows: Self.collection.rows(), width: 60)
        expectGolden(list, "list-wide-de-60")
        expectFits(list, 60)
    }

    @Test("the chart: names padded by width, bars exactly where ASCII titles put them")
    func chart() {
        let horizon = try! ChartHorizon(start: Sample.date("2026-09-07"), days: 30)
        for zoom in [TimelineZoom.oneDay, .twoDays] {
            let wide = ChartRenderer(language: .english, nameWidth: 12).text(
                rows: Self.collection.rows(), dependencies: Sample.dependencies, horizon: horizon, zoom: zoom)
            let ascii = ChartRenderer(language: .english, nameWidth: 12).text(
                rows: Sample.collection.rows(), dependencies: Sample.dependencies, horizon: horizon, zoom: zoom)
            let bars = { (text: String) in text.split(separator: "\n").map { $0.split(separator: "│").last ?? "" } }
            #expect(bars(wide) == bars(ascii))
            let names = wide.split(separator: "\n").map { column(of: "│", in: $0) }
            #expect(Set(names) == [12], "\(names)")
            expectGolden(wide, "chart-wide-en-zoom\(zoom.daysPerColumn)")
        }
    }

    /// The model on the wide plan, loaded, `width` × `height`.
    func loaded(width: Int = 100, height: Int = 16, language: PlanLanguage = .english) -> ClientModel {
        var settings = ClientModelTests.settings
        settings.language = language
        var model = ClientModel(settings: settings)
        _ = model.handle(.resize(width: width, height: height))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(Sample.copy(Self.collection, title: "計画 🌐 Intl")))
        return model
    }

    @Test("list, timeline, details and the title form at 100 and at 60 columns")
    func screens() {
        for (width, height) in [(100, 16), (60, 15)] {
            var model = loaded(width: width, height: height)
            let name = "screen-wide-\(width)"
            expectGolden(model.render().text, name + "-list")
            expectFits(model.render().text, width)
            _ = model.handle(.key(.tab))
            expectGolden(model.render().text, name + "-timeline")
            expectFits(model.render().text, width)
            _ = model.handle(.key(.enter))
            expectGolden(model.render().text, name + "-details")
            expectFits(model.render().text, width)
            _ = model.handle(.key(.escape))
            _ = model.handle(.key(.character("e")))
            type(" 打ち合わせ 👨‍👩‍👧 と 計画 🇯🇵 の レビュー", into: &model)
            let form = model.render().text
            expectGolden(form, name + "-form")
            expectFits(form, width)
            #expect(form.contains("レビュー▏"), "the end of a long title, where the cursor is, stays in view")
        }
    }

    @Test("the history names wide titles in its words; the resources view draws wide labels and entries")
    func historyAndResources() throws {
        var model = loaded()
        let spec = Self.collection["spec"]!
        let entry = ClientModelHistoryTests.entry(4, "佐藤", spec, spec.with(title: "打ち合わせ 👨‍👩‍👧"))
        _ = model.handle(.server(.history(plan: "demo", entries: [entry], logStart: 0, more: false, ref: nil)))
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        #expect(model.mode == .history)
        expectGolden(model.render().text, "screen-wide-history")
        expectFits(model.render().text, 100)
        var resources = try WideResources.model()
        expectGolden(resources.render().text, "screen-wide-resources")
        expectFits(resources.render().text, 100)
        _ = resources.handle(.key(.enter))
        expectGolden(resources.render().text, "screen-wide-resources-details")
        expectFits(resources.render().text, 100)
    }
}

/// The resources view with wide resource labels and entry titles.
enum WideResources {
    static func model() throws -> ClientModel {
        let timeline = try TimelineData(
            resources: [
                try TimelineResource(id: "room-1", label: "会議室 1 🏢"),
                try TimelineResource(id: "room-2", label: "Ｒｏｏｍ 2"),
            ],
            entries: [
                try TimelineEntry(
                    id: "kickoff", title: "打ち合わせ 🎉", start: try LocalDateTime("2026-09-08T09:00"),
                    end: try LocalDateTime("2026-09-09T12:00")),
                try TimelineEntry(
                    id: "review", title: "Review 👨‍👩‍👧 計画の見直し", start: try LocalDateTime("2026-09-14T09:00"),
                    end: try LocalDateTime("2026-09-21T12:00")),
            ],
            assignments: [
                try TimelineAssignment(id: "kickoff-room", entryID: "kickoff", resourceID: "room-1"),
                try TimelineAssignment(id: "review-room", entryID: "review", resourceID: "room-2"),
            ])
        let document = PlanDocument(
            title: "会議室", state: PlanState(tasks: WideTextGoldenTests.collection, timeline: timeline))
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 14))
        _ = model.handle(.welcome(user: "ann"))
        _ = model.handle(.copy(ClientPlanCopy(PlanSnapshot(plan: "demo", version: 3, document: document))))
        _ = model.handle(.key(.tab))
        let (query, id) = try ClientModelResourceTests.watchSent(by: &model, after: model.handle(.key(.tab)))
        _ = model.handle(
            .server(.page(plan: "demo", watch: id, version: 3, query: query, page: timeline.page(for: query))))
        return model
    }
}
