/// The size rule for a message being reassembled from frames and chunks, written so that no
/// length a peer can claim makes the arithmetic trap.
///
/// lws reports a frame's payload in chunks: `chunk` bytes now and `remaining` bytes of the same
/// frame still to come, where `remaining` comes straight from the frame's 64-bit length field
/// (up to 2⁶³ − 1, more than `Int` can add to anything).
enum IncomingMessage {
    /// Whether a message of which `received` bytes are held can take `chunk` bytes more and still
    /// have room for the `remaining` bytes its current frame announces, within `limit` bytes.
    /// Never traps: `received` never exceeds `limit` (what does not fit is never appended), and
    /// the remainder is compared in unsigned arithmetic, never added.
    static func fits(received: Int, chunk: Int, remaining: UInt, limit: Int) -> Bool {
        guard received >= 0, chunk >= 0, received <= limit else { return false }
        let room = limit - received
        guard chunk <= room else { return false }
        return remaining <= UInt(room - chunk)
    }
}
