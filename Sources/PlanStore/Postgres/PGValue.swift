import ChronoSketchCore

/// One parameter of a statement as it travels to PostgreSQL.
public enum PGValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// A value in its type's text input form.
    case text(String)
    /// A one-dimensional array of strings, to be expanded with `unnest($n::type[])`, where the
    /// parameter's type is `element`'s array type. Sent in PostgreSQL's binary array format: the
    /// elements travel as they are, where a text literal (`{"a","b"}`) had to be escaped here
    /// and parsed again character by character by the server (`array_in` was a ninth of a
    /// group commit's database time, its log rows being JSON full of quotes).
    case array([String?], of: PGElementType)

    /// `value` as text, or NULL.
    public init(_ value: String?) {
        self = value.map(PGValue.text) ?? .null
    }

    /// Whether the value, or an element of it, holds U+0000 (`TextPolicy`).
    var holdsNUL: Bool {
        switch self {
        case .null: false
        case .text(let value): TextPolicy.containsNUL(value)
        case .array(let elements, _): elements.contains { $0.map(TextPolicy.containsNUL) ?? false }
        }
    }

    /// PostgreSQL's binary array format (`array_recv`): dimensions, a has-nulls flag, the element
    /// type's OID, then each element's length (-1 for NULL) and bytes; all integers big-endian.
    static func binaryArray(_ elements: [String?], _ type: PGElementType) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.reduce(20) { $0 + 4 + ($1?.utf8.count ?? 0) })
        let hasNulls = elements.contains { $0 == nil }
        appendInt32(elements.isEmpty ? 0 : 1, to: &bytes)
        appendInt32(hasNulls ? 1 : 0, to: &bytes)
        appendInt32(Int32(bitPattern: type.oid), to: &bytes)
        if !elements.isEmpty {
            appendInt32(Int32(elements.count), to: &bytes)
            appendInt32(1, to: &bytes)  // lower bound
        }
        for element in elements {
            guard let element else {
                appendInt32(-1, to: &bytes)
                continue
            }
            appendInt32(Int32(element.utf8.count), to: &bytes)
            bytes.append(contentsOf: element.utf8)
        }
        return bytes
    }

    private static func appendInt32(_ value: Int32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

/// The element types of array parameters sent in binary: those whose binary form is their text.
public enum PGElementType: Sendable, Equatable {
    /// `text` (an array parameter cast `$n::text[]`).
    case text
    /// `json` (`$n::json[]`): PostgreSQL still checks that each element is JSON.
    case json

    /// The type's OID, which the binary array names and the server checks against the
    /// parameter's declared element type.
    var oid: UInt32 {
        switch self {
        case .text: 25
        case .json: 114
        }
    }
}

/// Calls `body` with libpq's parameter arrays for `values` (values, lengths, formats), valid only
/// during the call.
func withParameters<R>(
    _ values: [PGValue],
    _ body: (_ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) -> R
) -> R {
    var storage: [UnsafeMutablePointer<CChar>?] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    storage.reserveCapacity(values.count)
    for value in values {
        switch value {
        case .null:
            storage.append(nil)
            lengths.append(0)
            formats.append(0)
        case .text(let text):
            // NUL-terminated, in text format (libpq reads up to the NUL); copied once, straight
            // from the string's UTF-8.
            let count = text.utf8.count
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
            UnsafeMutableRawBufferPointer(start: pointer, count: count).copyBytes(from: text.utf8)
            pointer[count] = 0
            storage.append(pointer)
            lengths.append(0)
            formats.append(0)
        case .array(let elements, let type):
            let bytes = PGValue.binaryArray(elements, type)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            bytes.withUnsafeBytes {
                UnsafeMutableRawPointer(pointer).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            storage.append(pointer)
            lengths.append(Int32(bytes.count))
            formats.append(1)
        }
    }
    defer { for pointer in storage { pointer?.deallocate() } }
    return body(storage.map { $0.map { UnsafePointer($0) } }, lengths, formats)
}
