import Glibc
import SystemSupport

/// Applies the numbered SQL migrations of `sql/` (`001_schema.sql`, …) exactly once each, in
/// order, each in its own transaction, under an advisory lock so that concurrent migrators wait.
public struct Migrator: Sendable {
    /// One migration file.
    public struct Migration: Sendable, Hashable {
        /// The number at the start of the file name.
        public let version: Int
        /// The file name.
        public let name: String
        /// The SQL text.
        public let sql: String
    }

    /// The migrations found, ordered by version.
    public let migrations: [Migration]

    /// Reads the migrations in `directory`.
    /// - Throws: `StoreError.invalid` when the directory cannot be read or names repeat a number.
    public init(directory: String) throws(StoreError) {
        var found: [Migration] = []
        guard let handle = opendir(directory) else { throw .invalid("cannot read migrations in \(directory)") }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(".sql"), let version = Int(name.prefix { $0.isNumber }), version > 0,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
            else { continue }
            found.append(Migration(version: version, name: name, sql: try readFile("\(directory)/\(name)")))
        }
        found.sort { $0.version < $1.version }
        for (earlier, later) in zip(found, found.dropFirst()) where earlier.version == later.version {
            throw .invalid("two migrations numbered \(later.version)")
        }
        migrations = found
    }

    /// The directory holding the migrations: `PLAN_SQL_DIR` when set, else `sql/` beside or above
    /// the running executable, else the source checkout's `sql/`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let configured = environment["PLAN_SQL_DIR"], !configured.isEmpty { return configured }
        return ShippedFiles.besideExecutable("sql", holding: "001_schema.sql", levels: 5)
            ?? ShippedFiles.inSourceCheckout("sql")
    }

    /// Applies every migration not yet recorded in `schema_migrations`, holding an advisory lock
    /// for the whole run so that concurrent migrators (several servers or test processes starting
    /// at once) apply each migration exactly once.
    /// - Returns: the names of the migrations applied now.
    @discardableResult
    public func migrate(using connection: PGConnection) throws(StoreError) -> [String] {
        try connection.query("SELECT pg_advisory_lock(7461626)")
        defer { _ = try? connection.query("SELECT pg_advisory_unlock(7461626)") }
        try connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """)
        var applied: [String] = []
        for migration in migrations {
            let done = try connection.query(
                "SELECT 1 FROM schema_migrations WHERE version = $1", [String(migration.version)])
            guard done.rowCount == 0 else { continue }
            // Our own file names only (checked above), so the literals below cannot be injected.
            let script = """
                BEGIN;
                \(migration.sql)
                ;
                INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), '\(migration.name)');
                COMMIT;
                """
            do {
                try connection.query(script)
                applied.append(migration.name)
            } catch {
                if connection.isConnected { _ = try? connection.query("ROLLBACK") }
                throw error
            }
        }
        return applied
    }
}

/// Reads a whole text file.
private func readFile(_ path: String) throws(StoreError) -> String {
    do { return try Files.readText(path) } catch { throw .invalid(error.description) }
}
