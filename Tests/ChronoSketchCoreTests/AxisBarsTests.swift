import Testing

@testable import ChronoSketchCore

/// Helpers shared by the bar and arrow suites.
private func day(_ text: String) throws -> CivilDate { try CivilDate(text) }

private func activity(
    _ id: String, _ start: String?, _ end: String?, progress: Double = 0, parent: String? = nil
) throws -> GanttTask {
    var schedule: TaskSchedule?
    if let start, let end { schedule = try TaskSchedule(start: day(start), end: day(end)) }
    return try GanttTask(id: id, title: id, parentID: parent, kind: .activity(schedule: schedule, progress: progress))
}

private func milestone(_ id: String, _ date: String, parent: String? = nil) throws -> GanttTask {
    try GanttTask(id: id, title: id, parentID: parent, kind: .milestone(date: day(date)))
}

private func summary(_ id: String, parent: String? = nil) throws -> GanttTask {
    try GanttTask(id: id, title: id, parentID: parent, kind: .summary)
}

/// The horizon 2026-09-08 … 2026-10-07 (30 days, exclusive end 2026-10-08).
private func axis(zoom: TimelineZoom = .oneDay) throws -> TimeAxis {
    TimeAxis(horizon: try ChartHorizon(start: day("2026-09-08"), days: 30), zoom: zoom)
}

private func mark(_ task: GanttTask, zoom: TimelineZoom = .oneDay, language: PlanLanguage = .english) throws
    -> ChartMark
{
    let rows = try TaskCollection([task]).rows()
    return try axis(zoom: zoom).mark(for: rows[0], language: language)
}

@Suite("Axis bars")
struct AxisBarsTests {
    @Test("an activity covers its exact exclusive interval with progress over its own length")
    func activityBar() throws {
        let bar = try #require(try mark(activity("a", "2026-09-10", "2026-09-15", progress: 40)).bar)
        #expect(!bar.isSummary)
        #expect(bar.startX == 2 && bar.endX == 7)
        #expect(bar.visibleStartX == 2 && bar.visibleEndX == 7)
        #expect(!bar.isClippedAtStart && !bar.isClippedAtEnd)
        #expect(bar.progress == 40)
        #expect(bar.filledEndX == 4)
        #expect(bar.visibleFilledEndX == 4)
        #expect(bar.hasVisibleFill)
    }

    @Test("an activity at four days per column sits at fractional columns")
    func zoomedActivity() throws {
        let bar = try #require(try mark(activity("a", "2026-09-09", "2026-09-11", progress: 50), zoom: .fourDays).bar)
        #expect(bar.startX == 0.25 && bar.endX == 0.75)
        #expect(bar.filledEndX == 0.5)
    }

    @Test("an activity starting before the horizon is clipped, and its progress uses its own interval")
    func clippedAtStart() throws {
        // Sep 1 … Sep 10 (10 days): 7 days before the horizon, 3 inside.
        let half = try #require(try mark(activity("a", "2026-09-01", "2026-09-11", progress: 50)).bar)
        #expect(half.startX == -7 && half.endX == 3)
        #expect(half.visibleStartX == 0 && half.visibleEndX == 3)
        #expect(half.isClippedAtStart && !half.isClippedAtEnd)
        #expect(half.filledEndX == -2)
        #expect(half.visibleFilledEndX == 0)
        #expect(!half.hasVisibleFill)
        // 80 % of the task's own 10 days ends 1 day into the horizon, not 80 % of the visible 3 days.
        let most = try #require(try mark(activity("a", "2026-09-01", "2026-09-11", progress: 80)).bar)
        #expect(most.filledEndX == 1)
        #expect(most.visibleFilledEndX == 1)
    }

    @Test("an activity running past the horizon end is clipped there, fill included")
    func clippedAtEnd() throws {
        let bar = try #require(try mark(activity("a", "2026-10-05", "2026-10-15", progress: 50)).bar)
        #expect(bar.startX == 27 && bar.endX == 37)
        #expect(bar.visibleStartX == 27 && bar.visibleEndX == 30)
        #expect(!bar.isClippedAtStart && bar.isClippedAtEnd)
        #expect(bar.filledEndX == 32)
        #expect(bar.visibleFilledEndX == 30)
        let both = try #require(try mark(activity("b", "2026-09-01", "2026-11-01", progress: 100)).bar)
        #expect(both.isClippedAtStart && both.isClippedAtEnd)
        #expect(both.visibleStartX == 0 && both.visibleEndX == 30 && both.visibleFilledEndX == 30)
    }

    @Test("tasks entirely outside the horizon get no bar")
    func outside() throws {
        // The exclusive end Oct 8 is not in the horizon; an activity ending on its start is outside too.
        #expect(try mark(activity("a", "2026-10-08", "2026-10-10")) == .outsideHorizon(startX: 30, endX: 32))
        #expect(try mark(activity("a", "2026-09-01", "2026-09-08")) == .outsideHorizon(startX: -7, endX: 0))
        #expect(try mark(milestone("m", "2026-10-08")) == .outsideHorizon(startX: 30.5, endX: 30.5))
        #expect(try mark(milestone("m", "2026-09-07")).milestone == nil)
        // One day inside at either edge is visible.
        #expect(try mark(activity("a", "2026-10-07", "2026-10-10")).bar?.visibleEndX == 30)
        #expect(try mark(activity("a", "2026-09-01", "2026-09-09")).bar?.visibleEndX == 1)
    }

    @Test("a milestone is a diamond in the middle of its day, inside its date column")
    func milestoneDiamond() throws {
        let oneDay = try #require(try mark(milestone("m", "2026-09-12")).milestone)
        #expect(oneDay.date == (try day("2026-09-12")))
        #expect(oneDay.columnIndex == 4)
        #expect(oneDay.x == 4.5)
        // Sep 12 is day 4: the third day of column 1 at four days per column.
        let zoomed = try #require(try mark(milestone("m", "2026-09-12"), zoom: .fourDays).milestone)
        #expect(zoomed.columnIndex == 1)
        #expect(zoomed.x == 1.125)
        #expect(zoomed.x >= 1 && zoomed.x < 2)
        #expect(try mark(milestone("m", "2026-09-12")).bar == nil)
    }

    @Test("unscheduled rows get an Unscheduled label in the chosen language")
    func unscheduled() throws {
        #expect(try mark(activity("u", nil, nil)) == .unscheduled(label: "Unscheduled"))
        #expect(try mark(activity("u", nil, nil), language: .german) == .unscheduled(label: "Nicht geplant"))
        // A summary without scheduled descendants has no bounds.
        let rows = try TaskCollection([summary("g"), activity("u", nil, nil, progress: 30, parent: "g")]).rows()
        #expect(try axis().mark(for: rows[0], language: .english) == .unscheduled(label: "Unscheduled"))
    }

    @Test("a summary covers its derived bounds with its derived progress")
    func summaryBar() throws {
        let collection = try TaskCollection([
            summary("g"),
            activity("a", "2026-09-10", "2026-09-15", progress: 20, parent: "g"),
            activity("b", "2026-09-20", "2026-09-25", progress: 60, parent: "g"),
            activity("u", nil, nil, progress: 40, parent: "g"),
        ])
        let marks = try axis().marks(for: collection.rows(), language: .english)
        #expect(marks.count == 4)
        let bar = try #require(marks[0].bar)
        #expect(bar.isSummary)
        #expect(bar.startX == 2 && bar.endX == 17)
        #expect(bar.progress == 40)
        #expect(bar.filledEndX == 8)
        #expect(marks[3] == .unscheduled(label: "Unscheduled"))
    }

    @Test("a summary whose bounds are one milestone is a zero-length bar at that date")
    func pointSummary() throws {
        let collection = try TaskCollection([summary("g"), milestone("m", "2026-09-12", parent: "g")])
        let marks = try axis().marks(for: collection.rows(), language: .english)
        let bar = try #require(marks[0].bar)
        #expect(bar.startX == 4 && bar.endX == 4)
        #expect(bar.progress == 0 && !bar.hasVisibleFill)
        #expect(marks[1].milestone?.x == 4.5)
    }

    @Test("a summary partly outside the horizon is clipped by its derived bounds")
    func clippedSummary() throws {
        let collection = try TaskCollection([
            summary("g"),
            activity("a", "2026-08-29", "2026-09-08", progress: 100, parent: "g"),
            milestone("m", "2026-09-18", parent: "g"),
        ])
        let bar = try #require(try axis().mark(for: collection.rows()[0], language: .english).bar)
        #expect(bar.startX == -10 && bar.endX == 10)
        #expect(bar.isClippedAtStart && !bar.isClippedAtEnd)
        #expect(bar.progress == 100)
        #expect(bar.visibleFilledEndX == 10)
    }
}

@Suite("Axis dependency arrows")
struct AxisArrowsTests {
    let plan: TaskCollection

    init() throws {
        plan = try TaskCollection(
            [
                activity("design", "2026-09-08", "2026-09-12"),
                summary("group"),
                activity("build", "2026-09-14", "2026-09-20", parent: "group"),
                milestone("release", "2026-09-25"),
                activity("later", nil, nil),
                milestone("kickoff", "2026-09-10"),
                activity("early", "2026-08-01", "2026-08-05"),
            ],
            dependencies: [
                TaskDependency(predecessorID: "design", successorID: "build"),
                TaskDependency(predecessorID: "build", successorID: "release"),
                TaskDependency(predecessorID: "release", successorID: "later"),
                TaskDependency(predecessorID: "kickoff", successorID: "design"),
                TaskDependency(predecessorID: "early", successorID: "release"),
            ])
    }

    @Test("arrows run from the predecessor's end to the successor's start between visible rows")
    func endpoints() throws {
        // Rows: design 0, group 1, build 2, release 3, later 4, kickoff 5, early 6.
        let arrows = try axis().dependencyArrows(in: plan)
        #expect(arrows.map(\.dependency.predecessorID) == ["design", "build", "kickoff", "early"])
        let designBuild = arrows[0]
        #expect(designBuild.fromRow == 0 && designBuild.toRow == 2)
        #expect(designBuild.fromX == 4 && designBuild.toX == 6)
        #expect(!designBuild.fromMilestone && !designBuild.toMilestone)
    }

    @Test("arrows meet milestone diamonds")
    func milestones() throws {
        let arrows = try axis(zoom: .twoDays).dependencyArrows(in: plan)
        let toRelease = try #require(arrows.first { $0.dependency.successorID == "release" })
        #expect(toRelease.fromX == 6)
        #expect(toRelease.toX == 8.75)
        #expect(toRelease.toMilestone && !toRelease.fromMilestone)
        let fromKickoff = try #require(arrows.first { $0.dependency.predecessorID == "kickoff" })
        #expect(fromKickoff.fromRow == 5 && fromKickoff.toRow == 0)
        #expect(fromKickoff.fromX == 1.25)
        #expect(fromKickoff.toX == 0)
        #expect(fromKickoff.fromMilestone)
    }

    @Test("arrows use original endpoints outside the horizon")
    func unclipped() throws {
        let early = try #require(try axis().dependencyArrows(in: plan).first { $0.dependency.predecessorID == "early" })
        #expect(early.fromRow == 6 && early.toRow == 3)
        #expect(early.fromX == -34)
        #expect(early.toX == 17.5)
    }

    @Test("no arrow touches an unscheduled endpoint")
    func unscheduledEndpoint() throws {
        let arrows = try axis().dependencyArrows(in: plan)
        #expect(!arrows.contains { $0.dependency.successorID == "later" })
        #expect(plan.dependencies.count == 5)
    }

    @Test("collapsing a summary hides its descendants' arrows and renumbers rows")
    func collapsed() throws {
        let arrows = try axis().dependencyArrows(in: plan, collapsed: ["group"])
        #expect(arrows.map(\.dependency.predecessorID) == ["kickoff", "early"])
        // Rows: design 0, group 1, release 2, later 3, kickoff 4, early 5.
        #expect(arrows.map(\.fromRow) == [4, 5])
        #expect(arrows.map(\.toRow) == [0, 2])
    }

    @Test("arrows may run backwards: dependencies never move dates")
    func backwards() throws {
        let collection = try TaskCollection(
            [activity("a", "2026-09-20", "2026-09-25"), activity("b", "2026-09-10", "2026-09-12")],
            dependencies: [TaskDependency(predecessorID: "a", successorID: "b")])
        let arrow = try #require(try axis().dependencyArrows(in: collection).first)
        #expect(arrow.fromX == 17 && arrow.toX == 2)
        #expect(arrow.fromRow == 0 && arrow.toRow == 1)
    }
}
