extension LocalDateTime {
    /// Decodes a required `YYYY-MM-DDTHH:mm` member; a string that is not a valid date-time
    /// (seconds, an offset, `24:00`, an impossible date) fails with `code`, a non-string with
    /// `badMessage`.
    public init(json object: JSONObjectReader, key: String, code: RejectionCode) throws(DecodingFailure) {
        let text = try object.string(key)
        do {
            try self.init(text)
        } catch {
            throw object.failure(key, "\"\(text)\" is not a valid date-time YYYY-MM-DDTHH:mm", code: code)
        }
    }
}
