import CZlib

/// Gzip (RFC 1952: deflate in the gzip wrapper) through the system's zlib. Equal input gives
/// equal output (the header carries no name and no time), so an entity tag of the compressed
/// bytes stays the same from one start to the next.
public enum Gzip {
    /// The best compression, for files compressed once when the server starts.
    public static let bestCompression: Int32 = 9

    /// `bytes` compressed, in one call (the output buffer is zlib's bound for the input, so one
    /// pass always finishes), or nil when zlib refuses (out of memory, or a level outside 0…9).
    public static func compressed(_ bytes: [UInt8], level: Int32 = bestCompression) -> [UInt8]? {
        guard (0...9).contains(level) else { return nil }
        var stream = z_stream()
        guard cz_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // zlib's bound counts the gzip wrapper the stream was set up with; should a bound ever
        // fall short, deflate does not end the stream and the answer is nil, never a cut stream.
        let capacity = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: capacity)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
