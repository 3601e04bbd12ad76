import ChronoSketchCore

extension JSONObjectReader {
    /// The role named by the member `key`; a name the contract does not know is a failure there.
    func role(_ key: String) throws(DecodingFailure) -> PlanRole {
        let name = try string(key)
        guard let role = PlanRole(rawValue: name) else {
            throw failure(key, "must be \"viewer\", \"editor\" or \"owner\", not \(quoted(name))")
        }
        return role
    }

    /// The role named by the member `key`, nil when it is absent or `null`.
    func optionalRole(_ key: String) throws(DecodingFailure) -> PlanRole? {
        try optionalString(key) == nil ? nil : try role(key)
    }
}
