import SystemSupport

/// A token bucket: `capacity` proposals at once, refilled at `capacity` per second.
struct RateLimiter {
    private let capacity: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(perSecond: Int, now: ContinuousClock.Instant) {
        capacity = Double(max(1, perSecond))
        tokens = capacity
        last = now
    }

    /// Takes one token if there is one.
    mutating func allow(now: ContinuousClock.Instant) -> Bool {
        let elapsed = now - last
        last = now
        tokens = min(capacity, tokens + elapsed.inSeconds * capacity)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
