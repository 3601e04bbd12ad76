import Testing

@testable import ChronoSketchCore

/// Builders that keep task tests short.
enum Make {
    static func date(_ text: String) -> CivilDate { try! CivilDate(text) }

    static func activity(
        _ id: String, parent: String? = nil, _ start: String? = nil, _ end: String? = nil, progress: Double = 0,
        title: String? = nil
    ) -> GanttTask {
        let schedule = start.map { try! TaskSchedule(start: date($0), end: date(end!)) }
        return GanttTask(
            unchecked: id, title: title ?? id, parentID: parent, kind: .activity(schedule: schedule, progress: progress)
        )
    }

    static func milestone(_ id: String, parent: String? = nil, _ day: String) -> GanttTask {
        GanttTask(unchecked: id, title: id, parentID: parent, kind: .milestone(date: date(day)))
    }

    static func summary(_ id: String, parent: String? = nil) -> GanttTask {
        GanttTask(unchecked: id, title: id, parentID: parent, kind: .summary)
    }

    static func link(_ predecessor: String, _ successor: String) -> TaskDependency {
        TaskDependency(predecessorID: predecessor, successorID: successor)
    }
}

/// The rejection code a throwing call fails with, or nil when it succeeds.
func rejectionCode<T>(_ body: () throws -> T) -> RejectionCode? {
    do {
        _ = try body()
        return nil
    } catch let error as any PlanRejection {
        return error.code
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
