extension ServerConnection {
    /// The one ping frame every connection is sent (immutable, shared like any broadcast).
    static let pingFrame = OutgoingBuffer(Array("ping".utf8), opcode: .ping)

    /// A tick at `now` (the loop ticks every connection about once a second): a deadline that
    /// passed ends the connection; unsent bytes that made no progress for `writeTimeout` close it
    /// with 1013; a peer silent for a ping interval is pinged, and one silent for two is closed
    /// with 1001. `listening` is false while the loop does not read the connection (the peer's
    /// silence then proves nothing).
    public mutating func tick(now: UInt64, listening: Bool = true) -> [ServerConnectionAction] {
        guard phase != .dropped else { return [] }
        if deadline != 0, now >= deadline { return dropNow() }
        let timeout = settings.configuration.writeTimeout
        if timeout > 0, hasOutput, now &- lastProgress >= timeout {
            // A peer that takes nothing holds what is queued for it however much it talks.
            closeCause = .writeTimeout
            if closedWith == nil, phase == .webSocket || phase == .closing {
                closedWith = (.tryAgainLater, "nothing written for \(timeout / 1_000_000_000) s: too slow to keep up")
            }
            return dropNow()
        }
        guard phase == .webSocket, listening, settings.configuration.pingInterval > 0 else { return [] }
        let interval = settings.configuration.pingInterval
        let silent = now &- lastHeard
        let quiet = silent &- min(pingOffset, silent)
        if quiet >= 2 * interval {
            closeCause = .silentPeer
            _ = fail(.goingAway, "no answer to pings for \(2 * interval / 1_000_000_000) s", now: now)
            return [.flushAndDrop]
        }
        if quiet >= interval, !pingOutstanding {
            pingOutstanding = true
            noteOutput(now: now)
            control.append(ServerConnection.pingFrame)
            return [.flushSoon]
        }
        return []
    }

    /// Closes at once with 1013 for a memory budget (`cause`, and `reason` for the peer): the
    /// queue is let go first, the close frame follows if the peer still reads, and the connection
    /// ends within the close timeout either way.
    public mutating func shed(_ cause: CloseCause, _ reason: String, now: UInt64) -> [ServerConnectionAction] {
        guard phase == .webSocket else { return [] }
        closeCause = cause
        return fail(.tryAgainLater, reason, now: now)
    }
}
