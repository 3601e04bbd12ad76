/// A binary min-heap: the smallest element first, O(log n) to insert or take.
struct MinimumHeap<Element: Comparable>: Sendable where Element: Sendable {
    private var elements: [Element] = []

    /// Whether the heap holds nothing.
    var isEmpty: Bool { elements.isEmpty }

    /// The number of elements.
    var count: Int { elements.count }

    /// Adds an element.
    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element, nil when empty.
    mutating func popMinimum() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let minimum = elements[0]
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { break }
            let right = left + 1
            let smaller = right < elements.count && elements[right] < elements[left] ? right : left
            guard elements[smaller] < elements[parent] else { break }
            elements.swapAt(parent, smaller)
            parent = smaller
        }
        return minimum
    }
}
