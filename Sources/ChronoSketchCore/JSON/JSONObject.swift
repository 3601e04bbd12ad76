/// The members of a JSON object, looked up by name; a repeated name keeps its last value.
///
/// Members are kept in document order in two arrays. The objects of the wire contract have a
/// handful of members, which a short scan finds faster than hashing; an object grown past
/// `indexThreshold` members (a `summaries` map, say) is also indexed by a dictionary. Equality
/// and hashing ignore the order, as for a dictionary.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var names: [String] = []
    private var values: [JSONValue] = []
    private var index: [String: Int]?

    /// Objects with more members than this are indexed by name.
    static let indexThreshold = 12

    /// An empty object.
    public init() {}

    /// An empty object with room for `capacity` members before it grows.
    public init(minimumCapacity capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// An object with these members (a repeated name keeps its last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// An object with the members of a dictionary.
    public init(_ members: [String: JSONValue]) {
        for (name, value) in members { self[name] = value }
    }

    /// How many members it has.
    public var count: Int { names.count }

    /// Whether it has no members.
    public var isEmpty: Bool { names.isEmpty }

    /// The member names, in document order.
    public var keys: [String] { names }

    /// The value of a member, or nil when absent; setting nil removes the member.
    public subscript(name: String) -> JSONValue? {
        get { position(of: name).map { values[$0] } }
        set {
            if let position = position(of: name) {
                if let newValue {
                    values[position] = newValue
                } else {
                    names.remove(at: position)
                    values.remove(at: position)
                    index = nil
                    reindex()
                }
            } else if let newValue {
                insert(name, newValue)
            }
        }
    }

    /// Sets a member: replaces the value of the one there (a repeated name keeps its last
    /// value), or adds it.
    mutating func append(_ name: String, _ value: JSONValue) {
        if let position = position(of: name) {
            values[position] = value
        } else {
            insert(name, value)
        }
    }

    /// Adds a member that is not there yet.
    private mutating func insert(_ name: String, _ value: JSONValue) {
        index?[name] = names.count
        names.append(name)
        values.append(value)
        if index == nil, names.count > JSONObject.indexThreshold { reindex() }
    }

    private mutating func reindex() {
        guard names.count > JSONObject.indexThreshold else { return }
        var built: [String: Int] = Dictionary(minimumCapacity: names.count * 2)
        for (position, name) in names.enumerated() { built[name] = position }
        index = built
    }

    private func position(of name: String) -> Int? {
        if let index { return index[name] }
        return names.firstIndex(of: name)
    }

    /// The members as `(key, value)` pairs, in document order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        zip(names, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    /// Equal when both have the same names with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (name, value) in zip(lhs.names, lhs.values) where rhs[name] != value { return false }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (name, value) in zip(names, values) {
            var member = Hasher()
            member.combine(name)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
