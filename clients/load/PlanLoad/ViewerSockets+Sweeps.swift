import SystemSupport

/// The deadlines of the viewers' connections, checked by the service thread.
extension ViewerSockets {
    /// Gives up connections that did not open within `upgradeTimeoutNanoseconds` (checked every
    /// quarter of it, at most once a second, while any are pending).
    func sweepUpgrades() {
        guard pendingCount > 0 else { return }
        let now = ProcessIO.monotonicNanoseconds()
        guard now - lastSweep >= min(1_000_000_000, upgradeTimeoutNanoseconds / 4) else { return }
        lastSweep = now
        for socket in Array(sockets.values)
        where socket.phase != .open && now - socket.startedAt > upgradeTimeoutNanoseconds {
            finish(socket, code: nil, reason: "no WebSocket upgrade in time")
        }
    }

    /// Notices silence the way the web client does (checked once a second): an open connection
    /// that heard nothing for `probeAfterNanoseconds` sends a ping, and one that then hears
    /// nothing until `idleTimeoutNanoseconds` is given up (and reconnected with `--reconnect`). A
    /// cut link shows no error; a live server answers the ping whatever its own ping interval.
    func sweepIdle() {
        guard idleTimeoutNanoseconds > 0 else { return }
        let now = ProcessIO.monotonicNanoseconds()
        guard now - lastIdleSweep >= 1_000_000_000 else { return }
        lastIdleSweep = now
        for socket in Array(sockets.values) where socket.phase == .open {
            let silent = now - socket.lastHeard
            if silent > idleTimeoutNanoseconds {
                finish(socket, code: nil, reason: "nothing heard for \(idleTimeoutNanoseconds / 1_000_000_000) s")
            } else if silent > probeAfterNanoseconds, !socket.probed {
                socket.probed = true
                queueFrame(socket, opcode: 9, payload: Array("alive?".utf8))
            }
        }
    }

    /// When a silent connection is pinged: 10 s before it is given up (half way for short times).
    var probeAfterNanoseconds: UInt64 {
        idleTimeoutNanoseconds > 20_000_000_000 ? idleTimeoutNanoseconds - 10_000_000_000 : idleTimeoutNanoseconds / 2
    }
}
