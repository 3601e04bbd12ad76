// JSON coding of pages as in protocol.md §4: the `entries` and `assignments` members of `page`.

extension TimelinePage: JSONEncodable {
    /// Decodes the `entries` and `assignments` arrays of an object (other members, such as those of
    /// a whole `page` message, are ignored). Failures name the element, such as `entries[2].end`.
    /// Whether the page answers its query is for `validate(against:)`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let entries = try object.map("entries") { (value, path) throws(DecodingFailure) in
            try TimelineEntry(json: value, path: path)
        }
        let assignments = try object.map("assignments") { (value, path) throws(DecodingFailure) in
            try TimelineAssignment(json: value, path: path)
        }
        self.init(entries: entries, assignments: assignments)
    }

    /// Writes `{"entries":[…],"assignments":[…]}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        encodeMembers(into: &writer)
        writer.endObject()
    }

    /// Writes the members `"entries":[…],"assignments":[…]` into an object the caller has opened,
    /// such as a `page` message.
    public func encodeMembers(into writer: inout JSONWriter) {
        writer.key("entries")
        writer.array(entries)
        writer.key("assignments")
        writer.array(assignments)
    }
}
