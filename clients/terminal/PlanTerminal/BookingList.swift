import ChronoSketchCore

/// `plan bookings`: a plan's bookings (timeline entries) as tab-separated lines, one per
/// booking, ordered by start (then id): the entry id, its title, start and end
/// (`YYYY-MM-DDTHH:MM`, the end exclusive), the ids of the resources it is assigned to
/// (comma-separated, in assignment order; empty when none) and the id of the task it belongs to
/// (empty when none). A tab or line break in a title is written as a space, so every booking is
/// one line of six fields.
struct BookingList {
    /// The plan's timeline.
    let timeline: TimelineData
    /// Which task each booking belongs to.
    let tasks: EntryTaskLinks

    /// The bookings of `plan`.
    init(_ plan: PlanDocument) {
        timeline = plan.state.timeline
        tasks = plan.state.entryTasks
    }

    /// The bookings that reach into `from` or later and begin on `to` or earlier (whole days),
    /// assigned to one of `resources` (any when empty).
    func entries(from: CivilDate? = nil, to: CivilDate? = nil, resources: [String] = []) -> [TimelineEntry] {
        let wanted = Set(resources)
        return timeline.entries.filter { entry in
            // The end is exclusive: a booking that ends at the first minute of `from` does not reach it.
            if let from, entry.end.minuteNumber <= from.dayNumber * 1440 { return false }
            if let to, to < entry.start.date { return false }
            return wanted.isEmpty || timeline.assignments(ofEntry: entry.id).contains { wanted.contains($0.resourceID) }
        }
        .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// The lines of `entries(from:to:resources:)`, each ending in a line break.
    func text(from: CivilDate? = nil, to: CivilDate? = nil, resources: [String] = []) -> String {
        entries(from: from, to: to, resources: resources).map { entry in
            let assigned = timeline.assignments(ofEntry: entry.id).map(\.resourceID).joined(separator: ",")
            let fields = [
                entry.id, entry.title, entry.start.description, entry.end.description, assigned,
                tasks[entry: entry.id] ?? "",
            ]
            return fields.map(BookingList.field).joined(separator: "\t") + "\n"
        }
        .joined()
    }

    /// A value as one field: tabs and line breaks become spaces.
    static func field(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
