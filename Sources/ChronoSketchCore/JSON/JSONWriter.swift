/// Writes compact JSON text into a byte buffer, for encoding once and sending the same bytes to
/// many receivers.
///
/// Object members are written in the order the caller writes them.
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Creates an empty writer, optionally reserving capacity.
    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Opens an object (as a value or after `key`).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the current object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the current array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member with a string value.
    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes a member with an integer value.
    public mutating func member(_ name: String, _ value: Int) {
        key(name)
        number(value)
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
    }

    /// Writes a number; integral values up to 2⁵³ are written without a fraction.
    public mutating func number(_ value: Double) {
        separate()
        if value.isFinite, value == value.rounded(), abs(value) <= 0x1p53 {
            appendInteger(Int(value))
        } else if value.isFinite {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// Writes an integer.
    public mutating func number(_ value: Int) {
        separate()
        appendInteger(value)
    }

    /// Writes a civil date as the string `"YYYY-MM-DD"` (what `CivilDate.description` gives),
    /// without making the string first.
    public mutating func date(_ date: CivilDate) {
        separate()
        let (year, month, day) = date.components
        bytes.append(UInt8(ascii: "\""))
        appendDigits(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The decimal digits of `value`, with a minus sign when negative.
    private mutating func appendInteger(_ value: Int) {
        if value < 0 {
            guard value != .min else { return bytes.append(contentsOf: String(value).utf8) }
            bytes.append(UInt8(ascii: "-"))
        }
        let magnitude = abs(value)
        var width = 1
        var rest = magnitude / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        appendDigits(magnitude, width: width)
    }

    /// `value` (not negative) in exactly `width` digits, zero-padded on the left.
    private mutating func appendDigits(_ value: Int, width: Int) {
        let end = bytes.count + width
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = value
        var position = end - 1
        while rest > 0, position >= end - width {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
    }

    /// Writes a boolean.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes null.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes already-serialized JSON text as one value.
    public mutating func raw(_ json: some Sequence<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes any parsed value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for name in members.keys.sorted() {
                key(name)
                self.value(members[name]!)
            }
            endObject()
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs that need no escape (nearly all text) are copied whole.
            var start = 0
            for index in utf8.indices where JSONWriter.needsEscape(utf8[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscaped(utf8[index])
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
            bytes.append(JSONWriter.hexDigits[Int(byte & 0xF)])
        }
    }
}
