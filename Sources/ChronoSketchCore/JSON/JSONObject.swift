/// The members of a JSON object, looked up by name; a repeated name keeps its last value.
///
/// Members are kept in document order in one array (one allocation per object: decoding a
/// message allocates for every object in it). The objects of the wire contract have a handful of
/// members, which a short scan finds faster than hashing; an object grown past `indexThreshold`
/// members (a `summaries` map, say) is also indexed by a dictionary. Equality and hashing ignore
/// the order, as for a dictionary.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var members: [(name: String, value: JSONValue)] = []
    private var index: [String: Int]?

    /// Objects with more members than this are indexed by name.
    static let indexThreshold = 12

    /// An empty object.
    public init() {}

    /// An empty object with room for `capacity` members before it grows.
    public init(minimumCapacity capacity: Int) {
        members.reserveCapacity(capacity)
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
    public var count: Int { members.count }

    /// Whether it has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The member names, in document order.
    public var keys: [String] { members.map(\.name) }

    /// The value of a member, or nil when absent; setting nil removes the member.
    public subscript(name: String) -> JSONValue? {
        get { position(of: name).map { members[$0].value } }
        set {
            if let position = position(of: name) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
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
            members[position].value = value
        } else {
            insert(name, value)
        }
    }

    /// Adds a member that is not there yet.
    private mutating func insert(_ name: String, _ value: JSONValue) {
        index?[name] = members.count
        members.append((name, value))
        if index == nil, members.count > JSONObject.indexThreshold { reindex() }
    }

    private mutating func reindex() {
        guard members.count > JSONObject.indexThreshold else { return }
        var built: [String: Int] = Dictionary(minimumCapacity: members.count * 2)
        for (position, member) in members.enumerated() { built[member.name] = position }
        index = built
    }

    private func position(of name: String) -> Int? {
        if let index { return index[name] }
        return members.firstIndex { $0.name == name }
    }

    /// The members as `(key, value)` pairs, in document order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        members.lazy.map { (key: $0.name, value: $0.value) }.makeIterator()
    }

    /// Equal when both have the same names with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (name, value) in lhs.members where rhs[name] != value { return false }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (name, value) in members {
            var member = Hasher()
            member.combine(name)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
