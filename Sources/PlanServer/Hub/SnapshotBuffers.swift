import ChronoSketchCore
import PlanProtocol
import WebSocketWire

/// One version's `snapshot`, encoded once without a role, and the copies of it that name one
/// (protocol.md §11: a snapshot carries the receiving session's role). A copy is made by one
/// memory copy the first time a role asks for it, so a version costs one encoding however many
/// subscribers of however many roles ask.
struct SnapshotBuffers {
    /// The version the snapshot is of.
    let version: Int
    /// The snapshot without `role` (and without `ref`).
    let plain: OutgoingBuffer
    private var byRole: [PlanRole: OutgoingBuffer] = [:]

    init(version: Int, plain: OutgoingBuffer) {
        self.version = version
        self.plain = plain
    }

    /// The snapshot naming `role`.
    mutating func buffer(for role: PlanRole) -> OutgoingBuffer {
        if let buffer = byRole[role] { return buffer }
        let buffer = OutgoingBuffer(PlanSnapshot.withRole(role, encoded: plain.payload))
        byRole[role] = buffer
        return buffer
    }
}
