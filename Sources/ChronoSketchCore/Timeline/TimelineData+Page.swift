extension TimelineData {
    /// The page answering `query` (seed 003, protocol.md §4).
    ///
    /// Holds every assignment to a requested resource whose entry overlaps `[query.start, query.end)`
    /// (half-open: `entry.start < query.end && entry.end > query.start`, so entries starting before
    /// the query are included and entries merely touching it are not), and exactly the entries
    /// those assignments name, each once, with their original, unclipped intervals.
    ///
    /// Order: assignments by requested resource in query order, then by their entry's start, entry
    /// id and assignment id; entries by start, then id. Resources the data does not have contribute
    /// nothing (use `TimelineQuery.validate(against:)` to reject such queries).
    public func page(for query: TimelineQuery) -> TimelinePage {
        let queryStart = query.start.minuteNumber
        let queryEnd = query.end.minuteNumber
        var page = TimelinePage()
        var entryIDs = Set<String>()
        for resourceID in query.resourceIDs {
            guard let slots = slotsByResourceID[resourceID], let longest = longestMinutesByResourceID[resourceID]
            else { continue }
            // No entry here is longer than `longest`, so one starting at or before
            // `queryStart - longest` ends at or before `queryStart`.
            var index = slots.firstIndex(startingAfter: queryStart - longest)
            while index < slots.count, slots[index].start < queryEnd {
                let slot = slots[index]
                index += 1
                guard slot.end > queryStart else { continue }
                page.assignments.append(assignmentsByID[slot.assignmentID]!)
                if entryIDs.insert(slot.entryID).inserted {
                    page.entries.append(entriesByID[slot.entryID]!)
                }
            }
        }
        page.entries.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        return page
    }
}
