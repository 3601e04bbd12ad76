// JSON coding of entries exactly as protocol.md §3:
// {"id":"e1","title":"Workshop","start":"2026-09-09T09:00","end":"2026-09-09T12:30"}.

extension TimelineEntry: JSONEncodable {
    /// Decodes `{"id":…,"title":…,"start":…,"end":…}`.
    ///
    /// A malformed shape is `badMessage` naming the field; a date-time that is not valid, or an end
    /// not after the start, is `invalidInterval`; a blank id `blankID`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let id = try object.string("id")
        let title = try object.string("title")
        let start = try LocalDateTime(json: object, key: "start", code: .invalidInterval)
        let end = try LocalDateTime(json: object, key: "end", code: .invalidInterval)
        do {
            try self.init(id: id, title: title, start: start, end: end)
        } catch {
            throw object.failure(error.code == .blankID ? "id" : "end", error.message, code: error.code)
        }
    }

    /// Writes `{"id":…,"title":…,"start":…,"end":…}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        encodeJSON(into: &writer, taskID: nil)
    }

    /// Writes the entry, ending with `"taskID":…` when it belongs to a task (the plan file's shape,
    /// interchange.md §6; never on the wire).
    public func encodeJSON(into writer: inout JSONWriter, taskID: String?) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("title")
        writer.string(title)
        writer.key("start")
        writer.string(start.description)
        writer.key("end")
        writer.string(end.description)
        if let taskID {
            writer.key("taskID")
            writer.string(taskID)
        }
        writer.endObject()
    }
}
