import Glibc
import PlanStore
import Testing

/// The real PostgreSQL the store tests use: `DATABASE_URL`, provided by `ops/test` (a throwaway
/// cluster). Migrations are applied once per test process.
enum TestDatabase {
    static let url: String = {
        guard let url = getenv("DATABASE_URL").map({ String(cString: $0) }), !url.isEmpty else {
            fatalError("DATABASE_URL is not set: run the tests through ops/test, which starts a PostgreSQL cluster")
        }
        return url
    }()

    /// The repository root (for `sql/` and `ops/`).
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static let migrationsDirectory = repositoryRoot + "/sql"

    /// A migrated store shared by the tests of this process.
    static let store: PlanStore = {
        let store = PlanStore(conninfo: url)
        do {
            try store.migrate(directory: migrationsDirectory)
        } catch {
            fatalError("migrations failed: \(error)")
        }
        return store
    }()

    /// A name no other test (or earlier run) uses.
    static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000)"
    }
}

/// Runs a shell command and returns its exit status and standard output.
@discardableResult
func shell(_ command: String) -> (status: Int32, output: String) {
    guard let pipe = popen(command + " 2>&1", "r") else { return (-1, "") }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    let status = pclose(pipe)
    return (status, String(decoding: output, as: UTF8.self).trimmingSuffixNewlines())
}

extension String {
    func trimmingSuffixNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
