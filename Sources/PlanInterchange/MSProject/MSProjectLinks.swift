import ChronoSketchCore

/// The `PredecessorLink`s of an MSPDI file as typed dependencies with lags in working days of the
/// plan calendar (interchange.md §4); links our model cannot hold are dropped and reported.
enum MSProjectLinks {
    /// The dependencies between the kept `tasks`, in file order of their successors.
    static func dependencies(
        of tasks: MSProjectTasks, minutesPerDay: Int, time: WorkingTime, log: inout WarningLog
    ) -> [TaskDependency] {
        var result: [TaskDependency] = []
        var pairs: Set<DependencyPair> = []
        for (position, row) in tasks.rows.enumerated() {
            let successor = tasks.tasks[position]
            for link in row.record.links {
                guard !link.isCrossProject, let predecessorUID = link.predecessorUID,
                    let predecessorPosition = tasks.positionByUID[predecessorUID]
                else {
                    log.add("externalDependency", "a link into task \(row.id) from outside the plan is dropped")
                    continue
                }
                let predecessor = tasks.tasks[predecessorPosition]
                guard !predecessor.kind.isSummary, !successor.kind.isSummary else {
                    log.add(
                        "summaryDependency",
                        "the link \(predecessor.id) → \(successor.id) touches a summary and is dropped")
                    continue
                }
                let pair = DependencyPair(predecessorID: predecessor.id, successorID: successor.id)
                guard pairs.insert(pair).inserted else {
                    log.add("duplicateDependency", "a second link \(predecessor.id) → \(successor.id) is dropped")
                    continue
                }
                let lag = lagInDays(
                    link, predecessor: predecessor, minutesPerDay: minutesPerDay, time: time, log: &log)
                result.append(
                    TaskDependency(
                        predecessorID: predecessor.id, successorID: successor.id, type: type(link.type),
                        lag: lag))
            }
        }
        return result
    }

    /// MSPDI `Type`: 0 finish-to-finish, 1 finish-to-start (also when absent), 2 start-to-finish,
    /// 3 start-to-start.
    static func type(_ code: Int?) -> DependencyType {
        switch code {
        case 0: .finishToFinish
        case 2: .startToFinish
        case 3: .startToStart
        default: .finishToStart
        }
    }

    /// `LinkLag` (tenths of working minutes, or a percentage) in whole working days.
    static func lagInDays(
        _ link: MSProjectRecords.Link, predecessor: GanttTask, minutesPerDay: Int, time: WorkingTime,
        log: inout WarningLog
    ) -> Int {
        let workingWeekdays = time.calendar.workingDays.count
        let raw = link.lag ?? 0
        guard raw != 0 else { return 0 }
        let format = link.lagFormat ?? 7
        let days: Double
        switch format {
        case 19, 20, 51, 52:
            // A percentage of the predecessor's duration in working days of the plan calendar.
            let span = Double(time.workingDuration(of: predecessor.kind) ?? 0)
            days = raw / 100 * span
            log.add(
                "percentLag",
                "a lag of \(raw) % of \(predecessor.id)'s duration is taken as \(rounded(days)) working days")
        case 4, 6, 8, 10, 12, 36, 38, 40, 42, 44:
            // Elapsed minutes: calendar time, scaled by the share of working weekdays.
            days = raw / 10 / 1440 * Double(workingWeekdays) / 7
            log.add(
                "elapsedLag",
                "an elapsed lag into a successor of \(predecessor.id) is taken as \(rounded(days)) working days")
        default:
            days = raw / 10 / Double(max(1, minutesPerDay))
        }
        var whole = rounded(days)
        if Double(whole) != days {
            log.add("lagRounded", "a lag of \(days) working days after \(predecessor.id) is rounded to \(whole)")
        }
        if !TaskDependency.lagRange.contains(whole) {
            whole = min(max(whole, TaskDependency.lagRange.lowerBound), TaskDependency.lagRange.upperBound)
            log.add("lagClamped", "a lag after \(predecessor.id) beyond ±1000 working days is clamped to \(whole)")
        }
        return whole
    }

    /// Rounded half away from zero.
    static func rounded(_ days: Double) -> Int {
        guard days.isFinite else { return 0 }
        return Int(max(-1e9, min(1e9, days.rounded(.toNearestOrAwayFromZero))))
    }
}
