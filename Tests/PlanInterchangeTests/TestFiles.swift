import Glibc

/// Reading the test files kept beside the tests.
enum TestFiles {
    struct Missing: Error { let path: String }

    /// The whole file at `path`.
    static func read(_ path: String) throws -> [UInt8] {
        guard let handle = fopen(path, "rb") else { throw Missing(path: path) }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, handle)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
