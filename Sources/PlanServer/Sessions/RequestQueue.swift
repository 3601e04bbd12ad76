/// A first-in, first-out queue with O(1) `append` and amortized O(1) `removeFirst`: a session's
/// waiting requests, of which a flooding client may send thousands (an `Array`'s `removeFirst`
/// would make draining them quadratic), and the lanes of the hub's inbox.
struct RequestQueue<Element> {
    private var storage: [Element] = []
    /// The index in `storage` of the first element still queued.
    private var head = 0

    /// Whether nothing is queued.
    var isEmpty: Bool { head == storage.count }

    /// The number of queued elements.
    var count: Int { storage.count - head }

    /// The element that leaves next, if any.
    var first: Element? { isEmpty ? nil : storage[head] }

    /// Queues an element at the end.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Takes the first element off the queue (which must not be empty).
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(!isEmpty, "removeFirst on an empty queue")
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Drops every queued element.
    mutating func removeAll() {
        storage = []
        head = 0
    }
}

/// How much of the hub one session's requests may use in one turn: at most `maxRequests`
/// requests and, once one has run, no more after their answers reach `maxBytes`. The rest waits
/// for the session's next turn, behind every event queued meanwhile, so that other sessions'
/// messages interleave with a flood. Work is measured in the bytes the turn's requests answered
/// with (a big page costs what encoding and sending it costs), not in time: the hub reads no
/// clock, and a turn decides the same on any machine.
struct TurnBudget {
    /// Requests handled per turn at most.
    static let maxRequests = 64
    /// Answer bytes per turn at most (a request already started runs to its end).
    static let maxBytes = 256 * 1024

    private let maxRequests: Int
    private let maxBytes: Int
    private var spent = 0

    init(maxRequests: Int = TurnBudget.maxRequests, maxBytes: Int = TurnBudget.maxBytes) {
        self.maxRequests = maxRequests
        self.maxBytes = maxBytes
    }

    /// Whether one more request may run, after the turn's requests so far answered with
    /// `answeredBytes`; counts it when it may. The first always may.
    mutating func take(answeredBytes: Int) -> Bool {
        guard spent == 0 || (spent < maxRequests && answeredBytes < maxBytes) else { return false }
        spent += 1
        return true
    }
}
