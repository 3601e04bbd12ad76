extension TimelineData {
    /// Adds a slot to its resource's sorted list, keeping the longest-entry bound.
    mutating func insertSlot(_ slot: TimelineSlot, resourceID: String) {
        slotsByResourceID[resourceID, default: []].insertSorted(slot)
        longestMinutesByResourceID[resourceID] = max(
            longestMinutesByResourceID[resourceID] ?? 0, slot.end - slot.start)
    }

    /// Removes a slot from its resource's sorted list; recomputes the longest-entry bound only when
    /// the removed slot was (one of) the longest.
    mutating func removeSlot(_ slot: TimelineSlot, resourceID: String) {
        let index = slotsByResourceID[resourceID]!.insertionIndex(of: slot)
        precondition(slotsByResourceID[resourceID]![index] == slot, "timeline slot index out of step")
        slotsByResourceID[resourceID]!.remove(at: index)
        let slots = slotsByResourceID[resourceID]!
        if slots.isEmpty {
            slotsByResourceID[resourceID] = nil
            longestMinutesByResourceID[resourceID] = nil
        } else if slot.end - slot.start == longestMinutesByResourceID[resourceID] {
            longestMinutesByResourceID[resourceID] = slots.lazy.map { $0.end - $0.start }.max()!
        }
    }

    /// The resource ids of these assignments, each once, in the order met.
    static func distinctResourceIDs(of assignments: some Sequence<TimelineAssignment>) -> [String] {
        var seen = Set<String>()
        return assignments.compactMap { seen.insert($0.resourceID).inserted ? $0.resourceID : nil }
    }
}

extension Array where Element == TimelineSlot {
    /// The first index whose slot starts after `minute`, in this sorted array (binary search).
    func firstIndex(startingAfter minute: Int) -> Int {
        partitionIndex { $0.start <= minute }
    }
}
