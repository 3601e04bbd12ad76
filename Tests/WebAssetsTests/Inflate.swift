import CZlib

/// Gzipped bytes inflated with zlib's own `inflate`, independent of the server's `Gzip` (which
/// only deflates), or nil when zlib finds them no complete gzip stream.
func inflateGzip(_ compressed: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard cz_inflate_init_gzip(&stream) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var input = compressed
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
        stream.next_in = source.baseAddress
        stream.avail_in = uInt(source.count)
        while true {
            let status = chunk.withUnsafeMutableBufferPointer { target in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            output += chunk[0..<(chunk.count - Int(stream.avail_out))]
            switch status {
            case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
            case Z_OK: continue
            default: return nil
            }
        }
    }
}
