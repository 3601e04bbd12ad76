/// One assignment as the per-resource index keeps it: the entry's interval (as minute numbers) and
/// the ids, ordered by start, then entry id, then assignment id.
struct TimelineSlot: Sendable, Hashable, Comparable {
    /// The entry's start as a minute number.
    let start: Int
    /// The entry's exclusive end as a minute number.
    let end: Int
    /// The entry's id.
    let entryID: String
    /// The assignment's id.
    let assignmentID: String

    /// The slot of `assignment`, whose entry is `entry`.
    init(entry: TimelineEntry, assignment: TimelineAssignment) {
        start = entry.start.minuteNumber
        end = entry.end.minuteNumber
        entryID = entry.id
        assignmentID = assignment.id
    }

    static func < (lhs: TimelineSlot, rhs: TimelineSlot) -> Bool {
        (lhs.start, lhs.entryID, lhs.assignmentID, lhs.end) < (rhs.start, rhs.entryID, rhs.assignmentID, rhs.end)
    }
}
