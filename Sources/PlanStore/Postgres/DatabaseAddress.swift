import CPostgres

/// What a `DATABASE_URL` says about where the database lives, read with libpq's own parser
/// (`PQconninfoParse`, both URI and keyword forms).
public enum DatabaseAddress {
    /// A warning for a URL naming several hosts without `target_session_attrs=read-write` (or
    /// `primary`): libpq would then connect to whichever answers first, possibly a standby, where
    /// commits fail and `LISTEN` is refused. Nil when there is nothing to warn of (or the URL
    /// cannot be read: connecting will say why).
    public static func multiHostWarning(_ conninfo: String) -> String? {
        let parameters = parse(conninfo)
        guard let hosts = parameters["host"] ?? parameters["hostaddr"], hosts.contains(",") else { return nil }
        let attributes = parameters["target_session_attrs"] ?? "any"
        guard attributes != "read-write" && attributes != "primary" else { return nil }
        return "the database URL names several hosts (\(hosts)) without target_session_attrs=read-write: "
            + "a connection may land on a standby, where commits fail and LISTEN is refused"
    }

    /// The parameters the URL sets, by keyword (empty when it cannot be parsed).
    static func parse(_ conninfo: String) -> [String: String] {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return [:]
        }
        defer { PQconninfoFree(options) }
        return values(of: options)
    }

    /// The keywords that have a value in a libpq option list, with their values.
    static func values(of options: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while let keyword = options[index].keyword {
            if let value = options[index].val { result[String(cString: keyword)] = String(cString: value) }
            index += 1
        }
        return result
    }
}
