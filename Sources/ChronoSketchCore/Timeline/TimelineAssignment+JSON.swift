// JSON coding of assignments exactly as protocol.md §3: {"id":"a1","entryID":"e1","resourceID":"room-1"}.

extension TimelineAssignment: JSONEncodable {
    /// Decodes `{"id":…,"entryID":…,"resourceID":…}`; a malformed shape is `badMessage` naming the
    /// field, a blank id `blankID`. Whether the entry and resource exist is for `TimelineData`.
    public init(json: JSONValue, path: String = "$") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        let id = try object.string("id")
        let entryID = try object.string("entryID")
        let resourceID = try object.string("resourceID")
        do {
            try self.init(id: id, entryID: entryID, resourceID: resourceID)
        } catch {
            throw object.failure("id", error.message, code: error.code)
        }
    }

    /// Writes `{"id":…,"entryID":…,"resourceID":…}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("entryID")
        writer.string(entryID)
        writer.key("resourceID")
        writer.string(resourceID)
        writer.endObject()
    }
}
