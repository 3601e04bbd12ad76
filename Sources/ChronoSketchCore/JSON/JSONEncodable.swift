/// A value that writes itself as one JSON value; `bytes` and `json` come with it.
public protocol JSONEncodable {
    /// Writes the value into `writer`.
    func encodeJSON(into writer: inout JSONWriter)
}

extension JSONEncodable {
    /// The value as compact UTF-8 JSON (for a text frame, the log, a file).
    public var bytes: [UInt8] {
        var writer = JSONWriter()
        encodeJSON(into: &writer)
        return writer.bytes
    }

    /// The value as compact JSON text.
    public var json: String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONWriter {
    /// Writes `elements` as a JSON array.
    public mutating func array(_ elements: some Sequence<some JSONEncodable>) {
        beginArray()
        for element in elements { element.encodeJSON(into: &self) }
        endArray()
    }
}
