import CPostgres

/// The rows of one successful statement, read as text; owns the libpq result.
public final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// The number of rows returned.
    public var rowCount: Int { Int(PQntuples(handle)) }

    /// The number of rows a write statement affected.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// Whether the value at (row, column) is SQL NULL or outside the result.
    public func isNull(_ row: Int, _ column: Int) -> Bool {
        guard row >= 0, row < rowCount, column >= 0, column < Int(PQnfields(handle)) else { return true }
        return PQgetisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// The text of the value at (row, column), or nil for NULL.
    public func string(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column) else { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// The value at (row, column) as an integer, or nil for NULL or non-numbers.
    public func int(_ row: Int, _ column: Int) -> Int? {
        string(row, column).flatMap { Int($0) }
    }

    /// The value at (row, column) as a double, or nil for NULL.
    public func double(_ row: Int, _ column: Int) -> Double? {
        string(row, column).flatMap { Double($0) }
    }
}
