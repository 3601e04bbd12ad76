/// Binary search and sorted insertion on ascending arrays (task positions, timeline slots).
extension Array where Element: Comparable {
    /// The index of `value` in this ascending array, if present (binary search).
    func sortedIndex(of value: Element) -> Int? {
        let index = insertionIndex(of: value)
        return index < count && self[index] == value ? index : nil
    }

    /// The first index whose element is not less than `value` (binary search).
    func insertionIndex(of value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Inserts `value` keeping this ascending array sorted.
    mutating func insertSorted(_ value: Element) {
        insert(value, at: insertionIndex(of: value))
    }
}
