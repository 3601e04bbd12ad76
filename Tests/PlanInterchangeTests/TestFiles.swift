import SystemSupport

/// Reading the test files kept beside the tests.
enum TestFiles {
    /// The whole file at `path`.
    static func read(_ path: String) throws -> [UInt8] {
        try Files.read(path)
    }
}
