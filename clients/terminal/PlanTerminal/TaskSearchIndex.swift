import ChronoSketchCore

/// What the task views search in: every task of a collection in tree order (depth-first, nothing
/// collapsed: its *rank*), with its folded title and id (`TextFolding`) in one
/// contiguous buffer. Made once per shown version, when a search or a filter first needs it
/// (O(plan)); a query then scans bytes, and a query that extends the last one scans only the last
/// one's matches (`IncrementalSearch`).
public struct TaskSearchIndex: Sendable {
    /// The version (or past version) it was made for.
    public let version: Int
    /// Each rank's input position.
    public private(set) var positionAtRank: [Int32] = []
    /// Each input position's rank.
    public private(set) var rankAtPosition: [Int32] = []
    /// The folded texts, `title \u{1} id` each, one after the other.
    private var bytes: [UInt8] = []
    /// Where each rank's text begins in `bytes` (one more entry: the end).
    private var starts: [Int32] = []

    /// The index of `collection`, shown at `version`.
    public init(_ collection: TaskCollection, version: Int) {
        self.version = version
        positionAtRank.reserveCapacity(collection.count)
        starts.reserveCapacity(collection.count + 1)
        bytes.reserveCapacity(collection.count * 24)
        rankAtPosition = Array(repeating: -1, count: collection.count)
        collection.forEachDepthFirst(collapsed: []) { position, _ in
            rankAtPosition[position] = Int32(positionAtRank.count)
            positionAtRank.append(Int32(position))
            starts.append(Int32(bytes.count))
            let task = collection.tasks[position]
            TextFolding.append(task.title, to: &bytes)
            // A separator no query can hold: no match spans the title and the id.
            bytes.append(1)
            TextFolding.append(task.id, to: &bytes)
        }
        starts.append(Int32(bytes.count))
    }

    /// The number of tasks.
    public var count: Int { positionAtRank.count }

    /// The ranks (ascending) of `candidates` (every rank when nil) whose title or id holds
    /// `needle` (folded); none for an empty needle.
    public func matches(_ needle: [UInt8], among candidates: [Int32]? = nil) -> [Int32] {
        guard !needle.isEmpty else { return [] }
        var result: [Int32] = []
        bytes.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { pattern in
                func holds(_ rank: Int) -> Bool {
                    TextFolding.bytes(text, in: Int(starts[rank])..<Int(starts[rank + 1]), hold: pattern)
                }
                if let candidates {
                    for rank in candidates where holds(Int(rank)) { result.append(rank) }
                } else {
                    for rank in 0..<count where holds(rank) { result.append(Int32(rank)) }
                }
            }
        }
        return result
    }
}

/// A search typed key by key: the matches of each query typed so far are kept, so that a query
/// that extends the last one scans only its matches, and Backspace finds the shorter query's
/// matches without scanning at all. Only the first character of a search scans the whole plan.
public struct IncrementalSearch: Sendable {
    /// Each query on the way to the current one (each a prefix of the next) with its matches.
    private var steps: [(needle: [UInt8], matches: [Int32])] = []

    /// A search with nothing typed.
    public init() {}

    /// The ranks (ascending) of the tasks of `index` whose title or id holds `query` (folded).
    public mutating func matches(for query: String, in index: TaskSearchIndex) -> [Int32] {
        let needle = TextFolding.foldedBytes(query)
        while let last = steps.last, !needle.starts(with: last.needle) { steps.removeLast() }
        if let last = steps.last, last.needle == needle { return last.matches }
        guard !needle.isEmpty else { return [] }
        let matches = index.matches(needle, among: steps.last?.matches)
        steps.append((needle, matches))
        return matches
    }

    /// Forgets what was typed (a new search, or the index was made anew).
    public mutating func reset() { steps = [] }

    /// The index in `matches` (ascending) of the match after `rank` (`forward`) or before it,
    /// wrapping around at either end; `rank` itself counts when `inclusive` (a query as it is
    /// typed starts at the selection). Nil when there is no match.
    public static func step(_ matches: [Int32], from rank: Int, forward: Bool, inclusive: Bool = false) -> Int? {
        guard !matches.isEmpty else { return nil }
        // The first index whose match lies at or after `rank` (after it when moving on).
        let pivot = forward ? (inclusive ? rank : rank + 1) : (inclusive ? rank + 1 : rank)
        let low = matches.partitionIndex { Int($0) < pivot }
        if forward { return low < matches.count ? low : 0 }
        return low > 0 ? low - 1 : matches.count - 1
    }
}
