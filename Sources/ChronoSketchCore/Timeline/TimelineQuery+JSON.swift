// JSON coding of queries exactly as protocol.md §4:
// {"start":"2026-09-08T00:00","end":"2026-09-15T00:00","resourceIDs":["room-1"]}.

extension TimelineQuery: JSONEncodable {
    /// Decodes `{"start":…,"end":…,"resourceIDs":[…]}`.
    ///
    /// A malformed shape (a missing member, a wrong type) is a `badMessage` failure naming the field.
    /// Every other failure is a well-formed query with values that are not acceptable, which the
    /// server answers with `badQuery`: `invalidInterval` for a date-time that is not valid, an end
    /// not after the start or more than `maximumDays` days; `blankID` or `duplicateID` at
    /// `resourceIDs[i]`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let start = try LocalDateTime(json: object, key: "start", code: .invalidInterval)
        let end = try LocalDateTime(json: object, key: "end", code: .invalidInterval)
        let resourceIDs = try object.map("resourceIDs") { (value, path) throws(DecodingFailure) -> String in
            try value.text(at: path)
        }
        do {
            try self.init(start: start, end: end, resourceIDs: resourceIDs)
        } catch {
            let key =
                switch error {
                case .blankResourceID(let index), .duplicateResourceID(_, let index): "resourceIDs[\(index)]"
                default: "end"
                }
            throw object.failure(key, error.message, code: error.code)
        }
    }

    /// Writes `{"start":…,"end":…,"resourceIDs":[…]}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("start")
        writer.string(start.description)
        writer.key("end")
        writer.string(end.description)
        writer.key("resourceIDs")
        writer.beginArray()
        for id in resourceIDs { writer.string(id) }
        writer.endArray()
        writer.endObject()
    }
}
