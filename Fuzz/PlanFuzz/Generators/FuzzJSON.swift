import ChronoSketchCore

/// A JSON document as the message fuzzer builds it: unlike `JSONValue`, an object keeps every
/// member in order (so a key may repeat) and a leaf may be any raw bytes (odd escapes, lone
/// surrogates, numbers no parser can hold, broken text).
public indirect enum FuzzJSON: Sendable, Hashable {
    /// Literal bytes written as they are.
    case raw([UInt8])
    /// A string, escaped as JSON requires.
    case string(String)
    /// An integer.
    case number(Int)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([FuzzJSON])
    /// An object whose members keep their order and may repeat a key.
    case object([Member])

    /// One object member.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: FuzzJSON

        /// Creates a member.
        public init(_ key: String, _ value: FuzzJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, FuzzJSON>) -> FuzzJSON {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A parsed value as a fuzz document.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(FuzzJSON.init))
        case .object(let object): self = .object(object.map { Member($0.key, FuzzJSON($0.value)) })
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                self = .number(Int(number))
            } else {
                var writer = JSONWriter()
                writer.number(number)
                self = .raw(writer.bytes)
            }
        }
    }

    /// The JSON text.
    public var bytes: [UInt8] {
        var writer = JSONWriter()
        write(into: &writer)
        return writer.bytes
    }

    func write(into writer: inout JSONWriter) {
        switch self {
        case .raw(let bytes): writer.raw(bytes)
        case .string(let text): writer.string(text)
        case .number(let number): writer.number(number)
        case .bool(let flag): writer.bool(flag)
        case .null: writer.null()
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(into: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.key)
                member.value.write(into: &writer)
            }
            writer.endObject()
        }
    }

    /// The value of the first member named `key`, if this is an object.
    public subscript(key: String) -> FuzzJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value with the member `key` set (replaced in place, or appended).
    public func setting(_ key: String, _ value: FuzzJSON) -> FuzzJSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key, value))
        }
        return .object(members)
    }

    /// The string's text, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Every path to a node (the root is `[]`), depth first.
    var paths: [[Int]] {
        var paths: [[Int]] = [[]]
        switch self {
        case .array(let elements):
            for (index, element) in elements.enumerated() { paths += element.paths.map { [index] + $0 } }
        case .object(let members):
            for (index, member) in members.enumerated() { paths += member.value.paths.map { [index] + $0 } }
        default: break
        }
        return paths
    }

    /// The node at `path`.
    func node(at path: [Int]) -> FuzzJSON {
        guard let first = path.first else { return self }
        switch self {
        case .array(let elements): return elements[first].node(at: Array(path.dropFirst()))
        case .object(let members): return members[first].value.node(at: Array(path.dropFirst()))
        default: return self
        }
    }

    /// The document with the node at `path` transformed.
    func transforming(at path: [Int], _ transform: (FuzzJSON) -> FuzzJSON) -> FuzzJSON {
        guard let first = path.first else { return transform(self) }
        let rest = Array(path.dropFirst())
        switch self {
        case .array(var elements):
            elements[first] = elements[first].transforming(at: rest, transform)
            return .array(elements)
        case .object(var members):
            members[first].value = members[first].value.transforming(at: rest, transform)
            return .object(members)
        default: return self
        }
    }
}
