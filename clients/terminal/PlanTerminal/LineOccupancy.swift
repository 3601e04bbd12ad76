import ChronoSketchCore

/// Per row, the cells where dependency arrows run, as sorted, disjoint, non-adjacent runs: what
/// routing asks ("does any arrow run in these cells of this row?") without a grid of the whole
/// chart, so a 100,000-row chart is routed in a few megabytes.
struct LineOccupancy {
    private var runs: [[ClosedRange<Int>]]

    /// No lines in `rows` rows.
    init(rows: Int) {
        runs = Array(repeating: [], count: max(rows, 0))
    }

    /// Marks `cell` of `row` as taken by a line.
    mutating func insert(row: Int, cell: Int) {
        LineOccupancy.insert(cell, into: &runs[row])
    }

    /// Whether no line runs in `cells` of `row`.
    func isFree(row: Int, cells: ClosedRange<Int>) -> Bool {
        let list = runs[row]
        let index = LineOccupancy.firstRun(in: list, endingAtOrAfter: cells.lowerBound)
        return index == list.count || list[index].lowerBound > cells.upperBound
    }

    /// The index of the first run of `list` whose last cell is `cell` or later (`list.count`: none).
    private static func firstRun(in list: [ClosedRange<Int>], endingAtOrAfter cell: Int) -> Int {
        list.partitionIndex { $0.upperBound < cell }
    }

    private static func insert(_ cell: Int, into list: inout [ClosedRange<Int>]) {
        // The first run that ends next to the cell or later: the cell joins it, or goes before it.
        let index = firstRun(in: list, endingAtOrAfter: cell - 1)
        guard index < list.count, list[index].lowerBound <= cell + 1 else {
            list.insert(cell...cell, at: index)
            return
        }
        var merged = min(list[index].lowerBound, cell)...max(list[index].upperBound, cell)
        if index + 1 < list.count, list[index + 1].lowerBound <= merged.upperBound + 1 {
            merged = merged.lowerBound...list[index + 1].upperBound
            list.remove(at: index + 1)
        }
        list[index] = merged
    }
}
