/// The lanes of one resource row: entries whose bars (or titles written beside them) would share
/// cells go on separate lines, so that no confirmed entry hides another. A pure value, computed
/// from cell spans; the renderer draws it.
public struct ResourceLanes: Sendable, Hashable {
    /// An entry to place: its bar's cells `[start, end)` (clipped to the chart) and its title's width.
    public struct Item: Sendable, Hashable {
        /// The entry id.
        public let id: String
        /// The first cell of the bar.
        public let start: Int
        /// The cell after the bar (at least `start + 1`).
        public let end: Int
        /// How many cells the title needs.
        public let titleWidth: Int

        /// Creates an item; an empty span becomes one cell.
        public init(id: String, start: Int, end: Int, titleWidth: Int) {
            self.id = id
            self.start = start
            self.end = max(end, start + 1)
            self.titleWidth = max(titleWidth, 0)
        }

        /// Whether the title fits inside the bar (one cell of margin on each side).
        public var titleInside: Bool { end - start >= titleWidth + 2 }

        /// The cell after everything the item draws: the bar, or the bar, a space and the title
        /// and one space of margin.
        public var extentEnd: Int { titleInside ? end : end + 2 + titleWidth }
    }

    /// Where an item goes.
    public struct Placement: Sendable, Hashable {
        /// The item.
        public let item: Item
        /// Its lane, 0 the first line of the row.
        public let lane: Int
    }

    /// The placements, in the order of the items.
    public let placements: [Placement]
    /// The number of lanes, at least 1 (an empty row still takes a line).
    public let laneCount: Int

    /// Places `items` in that order (by start, then id, as the view sorts them), each in the
    /// first lane where it overlaps nothing placed before (bars may touch).
    public init(items: [Item]) {
        var laneEnds: [Int] = []
        var placements: [Placement] = []
        placements.reserveCapacity(items.count)
        for item in items {
            if let lane = laneEnds.firstIndex(where: { $0 <= item.start }) {
                laneEnds[lane] = item.extentEnd
                placements.append(Placement(item: item, lane: lane))
            } else {
                laneEnds.append(item.extentEnd)
                placements.append(Placement(item: item, lane: laneEnds.count - 1))
            }
        }
        self.placements = placements
        laneCount = max(laneEnds.count, 1)
    }

    /// The lane of an entry, if it was placed.
    public func lane(of id: String) -> Int? {
        placements.first { $0.item.id == id }?.lane
    }
}
