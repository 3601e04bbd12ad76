import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Every op of the history in words, in both languages.
@Suite("History in words")
struct HistoryWordingTests {
    static let spec = Sample.collection["spec"]!
    static let release = Sample.collection["release"]!
    static let titles: @Sendable (String) -> String? = { Sample.collection[$0]?.title }
    static let english = HistoryWording(language: .english, title: titles)
    static let german = HistoryWording(language: .german, title: titles)

    static func moved(_ task: GanttTask, start: String, days: Int) -> GanttTask {
        task.with(
            kind: .activity(
                schedule: try! TaskSchedule(start: Sample.date(start), days: days), progress: task.progress ?? 0))
    }

    @Test(
        "task ops",
        arguments: [
            (
                PlanOperation.replace(previous: spec, proposed: moved(spec, start: "2026-09-28", days: 5)),
                "moved “Spec” to 2026-09-28 – 2026-10-02", "verschob „Spec“ auf 28.09.2026 – 02.10.2026"
            ),
            (
                .replace(previous: spec, proposed: moved(spec, start: "2026-09-08", days: 5)),
                "changed the duration of “Spec” to 5 days (2026-09-08 – 2026-09-12)",
                "änderte die Dauer von „Spec“ auf 5 Tage (08.09.2026 – 12.09.2026)"
            ),
            (
                .replace(previous: spec, proposed: spec.with(kind: .activity(schedule: spec.schedule, progress: 62.5))),
                "set the progress of “Spec” to 62.5 %", "setzte den Fortschritt von „Spec“ auf 62,5 %"
            ),
            (
                .replace(previous: spec, proposed: spec.with(title: "Draft")), "renamed “Spec” to “Draft”",
                "benannte „Spec“ in „Draft“ um"
            ),
            (
                .replace(previous: release, proposed: release.with(kind: .milestone(date: Sample.date("2026-10-05")))),
                "moved “Release” to 2026-10-05", "verschob „Release“ auf 05.10.2026"
            ),
            (
                .replace(previous: spec, proposed: spec.with(parentID: "impl")), "moved “Spec” into “Implementation”",
                "verschob „Spec“ in „Implementation“"
            ),
            (
                .replace(previous: spec, proposed: spec.with(kind: .milestone(date: Sample.date("2026-09-08")))),
                "made “Spec” a milestone", "machte „Spec“ zu einem Meilenstein"
            ),
            (
                .replace(
                    previous: spec,
                    proposed: spec.with(title: "Draft").with(kind: .activity(schedule: spec.schedule, progress: 40))),
                "renamed “Spec” to “Draft”; set the progress of “Draft” to 40 %",
                "benannte „Spec“ in „Draft“ um; setzte den Fortschritt von „Draft“ auf 40 %"
            ),
            (.add(spec), "added “Spec” into “Design”", "fügte „Spec“ in „Design“ hinzu"),
            (.remove(previous: release), "removed “Release”", "entfernte „Release“"),
            (
                .reorder(previous: spec, relativeTo: Sample.collection["review"]!, position: .after),
                "moved “Spec” after “Review”", "verschob „Spec“ hinter „Review“"
            ),
            (
                .link(TaskDependency(predecessorID: "spec", successorID: "release")), "linked “Spec” → “Release”",
                "verknüpfte „Spec“ → „Release“"
            ),
            (
                .unlink(TaskDependency(predecessorID: "build", successorID: "gone")),
                "removed the dependency “Build” → “gone”", "löste die Abhängigkeit „Build“ → „gone“"
            ),
            (
                .baselineSet(name: "Q3", version: 12), "set the baseline “Q3” (v12)",
                "setzte die Basislinie „Q3“ (v12)"
            ),
            (.baselineRemove(name: "Q3"), "removed the baseline “Q3”", "entfernte die Basislinie „Q3“"),
        ])
    func taskOps(operation: PlanOperation, english: String, german: String) {
        #expect(Self.english.describe(operation) == english)
        #expect(Self.german.describe(operation) == german)
    }

    @Test("timeline ops, an undo, and a version whose op the log does not have")
    func timelineAndUndo() throws {
        let entry = try TimelineEntry(
            id: "e1", title: "Workshop", start: LocalDateTime("2026-09-08T09:00"),
            end: LocalDateTime("2026-09-08T12:00"))
        let assignment = try TimelineAssignment(id: "a1", entryID: "e1", resourceID: "room-1")
        let original = TimelineAssignedEntry(entry: entry, assignment: assignment)
        let moved = TimelineAssignedEntry(
            entry: try entry.with(start: LocalDateTime("2026-09-09T09:00"), end: LocalDateTime("2026-09-09T12:00")),
            assignment: assignment.with(resourceID: "room-2"))
        #expect(
            Self.english.describe(.timelineApply(original: original, proposed: moved))
                == "moved “Workshop” to 2026-09-09T09:00 – 2026-09-09T12:00; reassigned “Workshop” to room-2")
        #expect(
            Self.german.describe(.timelineAdd(entry: entry, assignments: [assignment]))
                == "buchte „Workshop“ auf room-1")
        #expect(Self.english.describe(.timelineRemove(entry: entry)) == "removed the entry “Workshop”")

        let undo = ClientHistory.Entry(
            version: 9, at: "", user: "ann", undoes: 7, operation: .remove(previous: Self.release), detailsRead: true,
            touched: [], isBaseline: false)
        #expect(Self.english.describe(undo) == "undid v7: removed “Release”")
        #expect(Self.german.describe(undo) == "machte v7 rückgängig: entfernte „Release“")
        // When v7 was itself an undo (of v5), undoing it is a redo, named by the version it brings back.
        let undid: (Int) -> Int? = { $0 == 7 ? 5 : nil }
        #expect(Self.english.describe(undo, undid: undid) == "redid v5: removed “Release”")
        #expect(Self.german.describe(undo, undid: undid) == "stellte v5 wieder her: entfernte „Release“")
        var bare = undo
        bare.operation = nil
        bare.undoes = nil
        #expect(Self.english.describe(bare) == "(no details kept)")
    }
}
