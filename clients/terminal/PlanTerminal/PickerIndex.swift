import ChronoSketchCore

/// One thing a picker offers: its id and what it shows.
public struct PickerOption: Sendable, Hashable {
    /// The id the form's proposal uses.
    public let id: String
    /// The label shown (a title, a resource's label).
    public let label: String

    /// An option.
    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// A fuzzy picker's index over many options (tasks, groups, resources), as the web client's
/// task-picker.mjs ranks them: ids starting with the query first (by id), then labels starting
/// with it (by label), then any other label or id containing it (in the options' order); case
/// and accents ignored (`TextFolding`), at most `limit` matches. Made once per version (sorting
/// the folded ids and labels); a prefix is then found by binary search in O(log n + matches),
/// and only the containing tier scans, stopping as soon as the list is full.
public struct PickerIndex: Sendable {
    /// The most matches a query gives.
    public static let limit = 50

    private let options: [PickerOption]
    private let foldedIDs: [[UInt8]]
    private let foldedLabels: [[UInt8]]
    /// The options' indexes sorted by folded id, and by folded label.
    private let byID: [Int32]
    private let byLabel: [Int32]

    /// The index of `options` (in their order: the containing tier's).
    public init(_ options: [PickerOption]) {
        self.options = options
        let ids = options.map { TextFolding.foldedBytes($0.id) }
        let labels = options.map { TextFolding.foldedBytes($0.label) }
        foldedIDs = ids
        foldedLabels = labels
        let all = (0..<Int32(options.count)).map { $0 }
        byID = all.sorted { PickerIndex.before(ids[Int($0)], $0, ids[Int($1)], $1) }
        byLabel = all.sorted { PickerIndex.before(labels[Int($0)], $0, labels[Int($1)], $1) }
    }

    /// The number of options.
    public var count: Int { options.count }

    /// At most `limit` options matching `query` among those `accept` keeps, ranked, and whether
    /// there were more. A blank query: the first accepted options in their order.
    public func query(_ query: String, limit: Int = PickerIndex.limit, accept: (PickerOption) -> Bool = { _ in true })
        -> (matches: [PickerOption], more: Bool)
    {
        var needle = TextFolding.foldedBytes(query)
        while needle.last == 0x20 { needle.removeLast() }
        while needle.first == 0x20 { needle.removeFirst() }
        var matches: [PickerOption] = []
        var seen = Set<Int32>()
        // False once the list is full and another match was found (there are more).
        func take(_ index: Int32) -> Bool {
            guard !seen.contains(index), accept(options[Int(index)]) else { return true }
            guard matches.count < limit else { return false }
            seen.insert(index)
            matches.append(options[Int(index)])
            return true
        }
        if !needle.isEmpty {
            for (sorted, keys) in [(byID, foldedIDs), (byLabel, foldedLabels)] {
                var position = PickerIndex.firstAtLeast(needle, in: sorted, keys: keys)
                while position < sorted.count, keys[Int(sorted[position])].starts(with: needle) {
                    if !take(sorted[position]) { return (matches, true) }
                    position += 1
                }
            }
        }
        for index in 0..<Int32(options.count) {
            if !needle.isEmpty && !PickerIndex.contains(foldedLabels[Int(index)], needle)
                && !PickerIndex.contains(foldedIDs[Int(index)], needle)
            {
                continue
            }
            if !take(index) { return (matches, true) }
        }
        return (matches, false)
    }

    /// The first position in `sorted` whose key is not below `needle`.
    private static func firstAtLeast(_ needle: [UInt8], in sorted: [Int32], keys: [[UInt8]]) -> Int {
        sorted.partitionIndex { keys[Int($0)].lexicographicallyPrecedes(needle) }
    }

    private static func before(_ left: [UInt8], _ leftIndex: Int32, _ right: [UInt8], _ rightIndex: Int32) -> Bool {
        left == right ? leftIndex < rightIndex : left.lexicographicallyPrecedes(right)
    }

    private static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { TextFolding.bytes(text, in: 0..<text.count, hold: $0) }
        }
    }
}
