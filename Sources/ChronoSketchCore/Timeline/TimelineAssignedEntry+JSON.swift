// JSON coding of the `original` / `proposed` halves of `timeline.apply` (protocol.md §5).

extension TimelineAssignedEntry: JSONEncodable {
    /// Decodes `{"entry":{…},"assignment":{…}}`, with the paths of the members in failures
    /// (such as `op.proposed.entry.end`).
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let entry = try TimelineEntry(json: try object.required("entry"), path: object.path("entry"))
        let assignment = try TimelineAssignment(
            json: try object.required("assignment"), path: object.path("assignment"))
        self.init(entry: entry, assignment: assignment)
    }

    /// Writes `{"entry":{…},"assignment":{…}}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("entry")
        entry.encodeJSON(into: &writer)
        writer.key("assignment")
        assignment.encodeJSON(into: &writer)
        writer.endObject()
    }
}
