/// Binary search and sorted insertion on ascending arrays (task positions, timeline slots).
extension Array {
    /// The first index whose element `isBefore` does not hold for (`count` when it holds for
    /// all), found by binary search: `isBefore` must hold for a prefix of the array and for
    /// nothing after it, as "less than x" does on an ascending array. The one binary search of
    /// the project and its clients.
    @inlinable
    public func partitionIndex(where isBefore: (Element) throws -> Bool) rethrows -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if try isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element: Comparable {
    /// The index of `value` in this ascending array, if present (binary search).
    func sortedIndex(of value: Element) -> Int? {
        let index = insertionIndex(of: value)
        return index < count && self[index] == value ? index : nil
    }

    /// The first index whose element is not less than `value` (binary search).
    func insertionIndex(of value: Element) -> Int {
        partitionIndex { $0 < value }
    }

    /// Inserts `value` keeping this ascending array sorted.
    mutating func insertSorted(_ value: Element) {
        insert(value, at: insertionIndex(of: value))
    }
}
