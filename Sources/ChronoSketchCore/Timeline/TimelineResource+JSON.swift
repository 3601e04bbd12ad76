// JSON coding of resources exactly as protocol.md §3: {"id":"room-1","label":"Room 1"}.

extension TimelineResource: JSONEncodable {
    /// Decodes `{"id":…,"label":…}`; a malformed shape is `badMessage` naming the field, a blank id
    /// `blankID`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let id = try object.string("id")
        let label = try object.string("label")
        do {
            try self.init(id: id, label: label)
        } catch {
            throw object.failure("id", error.message, code: error.code)
        }
    }

    /// Writes `{"id":…,"label":…}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("label")
        writer.string(label)
        writer.endObject()
    }
}
