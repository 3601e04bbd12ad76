/// A connection's events (or a set of connections' arrivals) in the order they came, with two
/// ways for a test to await them:
/// - `next` takes the next matching event not yet taken, and drops the untaken ones before it
///   (a client's stream of answers, read in order);
/// - `first` finds the first matching event ever received, with its position, and takes nothing
///   (the order of arrivals across connections).
actor Inbox<Event: Sendable> {
    private typealias Waiter = (
        id: Int, takes: Bool, match: @Sendable (Event) -> Bool,
        continuation: CheckedContinuation<(position: Int, event: Event)?, Never>
    )

    /// Every event received, in order; nothing is ever removed.
    private var log: [Event] = []
    /// The positions in `log` not yet taken by `next` (nor dropped by it), in order.
    private var untaken: [Int] = []
    private var waiters: [Waiter] = []
    private var nextWaiter = 0

    func append(_ event: Event) {
        log.append(event)
        let position = log.count - 1
        // Every `first` that matches; the oldest `next` that matches takes the event.
        var taken = false
        var index = 0
        while index < waiters.count {
            let waiter = waiters[index]
            guard waiter.match(event), !(waiter.takes && taken) else {
                index += 1
                continue
            }
            taken = taken || waiter.takes
            waiters.remove(at: index).continuation.resume(returning: (position, event))
        }
        if !taken { untaken.append(position) }
    }

    /// The first untaken or future event matching, taking it and dropping the untaken ones before it.
    func next(within seconds: Double, where match: @escaping @Sendable (Event) -> Bool) async -> Event? {
        if let index = untaken.firstIndex(where: { match(log[$0]) }) {
            let position = untaken[index]
            untaken.removeFirst(index + 1)
            return log[position]
        }
        return await wait(within: seconds, takes: true, match)?.event
    }

    /// The first event ever received (or to come) matching, with its position; takes nothing.
    func first(within seconds: Double, where match: @escaping @Sendable (Event) -> Bool) async
        -> (position: Int, event: Event)?
    {
        if let position = log.firstIndex(where: match) { return (position, log[position]) }
        return await wait(within: seconds, takes: false, match)
    }

    /// Every event received so far, taken or not.
    func all() -> [Event] { log }

    /// Takes every untaken event.
    func drain() -> [Event] {
        defer { untaken = [] }
        return untaken.map { log[$0] }
    }

    private func wait(within seconds: Double, takes: Bool, _ match: @escaping @Sendable (Event) -> Bool) async
        -> (position: Int, event: Event)?
    {
        nextWaiter += 1
        let id = nextWaiter
        return await withCheckedContinuation { continuation in
            waiters.append((id, takes, match, continuation))
            Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                self.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        if let index = waiters.firstIndex(where: { $0.id == id }) {
            waiters.remove(at: index).continuation.resume(returning: nil)
        }
    }
}
