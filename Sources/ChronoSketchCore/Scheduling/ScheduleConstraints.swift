/// The constraints of scheduling.md §3 on one collection and calendar: whether a task's
/// incoming dependencies hold and where the earliest start lies, in working-day positions.
///
/// A dependency is a constraint only when both endpoints are *scheduled* (an activity with a
/// schedule, or a milestone): `W(P.anchor, S.anchor) ≥ lag`, that is
/// `position(S.anchor) ≥ position(P.anchor) + lag`.
struct ScheduleConstraints {
    let time: WorkingTime

    /// A scheduled task's dates as day numbers: start and (exclusive) end; a milestone's are both its date.
    struct Dates {
        let start: Int
        let end: Int

        init?(_ kind: GanttTaskKind) {
            switch kind {
            case .activity(let schedule?, _): (start, end) = (schedule.start.dayNumber, schedule.end.dayNumber)
            case .milestone(let date): (start, end) = (date.dayNumber, date.dayNumber)
            case .activity(nil, _), .summary: return nil
            }
        }
    }

    /// What judging one task against its predecessors found.
    struct Judgement {
        /// Whether every incoming constraint holds at the task's current dates.
        var holds = true
        /// The position of the earliest start satisfying every incoming constraint (§3.6).
        var earliest = Int.min
        /// The first dependency (in the task's predecessor order) that does not hold.
        var broken: TaskDependency?
    }

    /// Judges `dates` of a task with working duration `duration` against its incoming
    /// dependencies: `edges` lists them, `edge` gives each one and its predecessor's dates (nil
    /// when it is not scheduled: then the dependency is no constraint).
    func judge<Edges: Sequence>(
        _ dates: Dates, duration: Int, edges: Edges, _ edge: (Edges.Element) -> (TaskDependency, Dates?)
    ) -> Judgement {
        var judgement = Judgement()
        for element in edges {
            let (dependency, found) = edge(element)
            guard let predecessor = found else { continue }
            let from = time.position(ofDay: dependency.type.fromPredecessorEnd ? predecessor.end : predecessor.start)
            let toEnd = dependency.type.toSuccessorEnd
            let needed = from + dependency.lag
            // An end-anchored bound on a start placed on a working day: position(s ⊕ n) = position(s) + n.
            judgement.earliest = max(judgement.earliest, needed - (toEnd ? duration : 0))
            if judgement.holds, time.position(ofDay: toEnd ? dates.end : dates.start) < needed {
                judgement.holds = false
                judgement.broken = dependency
            }
        }
        return judgement
    }
}
