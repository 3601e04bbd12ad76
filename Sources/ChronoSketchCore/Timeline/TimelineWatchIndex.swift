/// The watches of one plan, indexed by the resources they request, so that a confirmed timeline
/// change costs what it touches rather than every watch of the plan.
///
/// A change (`TimelineChange`) names, for its `before` and `after` sides, an interval and the
/// resources it showed on. Only watches requesting one of those resources are looked at, and of
/// those only the ones whose interval overlaps a side on a resource they request are affected
/// (`TimelineQuery.isAffected(by:)`): the work is the number of watches on the touched resources,
/// whatever the number of watches or assignments elsewhere.
///
/// `Key` identifies a watch (for a server: the connection and the watch id).
public struct TimelineWatchIndex<Key: Hashable & Sendable>: Sendable {
    /// Every watch's query, by key.
    private var queriesByKey: [Key: TimelineQuery] = [:]
    /// The keys of the watches requesting each resource.
    private var keysByResourceID: [String: Set<Key>] = [:]

    /// An empty index.
    public init() {}

    /// The number of watches.
    public var count: Int { queriesByKey.count }

    /// Whether there are no watches.
    public var isEmpty: Bool { queriesByKey.isEmpty }

    /// The query of the watch `key`, if there is one.
    public subscript(key: Key) -> TimelineQuery? { queriesByKey[key] }

    /// Every watch and its query (after a reload, all of them get a fresh page).
    public var all: [(key: Key, query: TimelineQuery)] { queriesByKey.map { ($0.key, $0.value) } }

    /// Adds the watch `key`, or replaces its query if it exists.
    public mutating func insert(_ query: TimelineQuery, for key: Key) {
        remove(key)
        queriesByKey[key] = query
        for resourceID in query.resourceIDs {
            keysByResourceID[resourceID, default: []].insert(key)
        }
    }

    /// Removes the watch `key`; returns its query, or nil when there was none.
    @discardableResult
    public mutating func remove(_ key: Key) -> TimelineQuery? {
        guard let query = queriesByKey.removeValue(forKey: key) else { return nil }
        for resourceID in query.resourceIDs {
            keysByResourceID[resourceID]?.remove(key)
            if keysByResourceID[resourceID]?.isEmpty == true { keysByResourceID[resourceID] = nil }
        }
        return query
    }

    /// The watches whose page may differ after `change`, each once, in no particular order: those
    /// requesting a resource of the change's `before` or `after` footprint whose interval overlaps
    /// that side. Costs the number of watches on the touched resources.
    public func affected(by change: TimelineChange) -> [(key: Key, query: TimelineQuery)] {
        var candidates = Set<Key>()
        for footprint in [change.before, change.after] {
            guard let footprint else { continue }
            for resourceID in footprint.resourceIDs {
                guard let keys = keysByResourceID[resourceID] else { continue }
                candidates.formUnion(keys)
            }
        }
        return candidates.compactMap { key in
            guard let query = queriesByKey[key], query.isAffected(by: change) else { return nil }
            return (key, query)
        }
    }

    /// How many watches request `resourceID` (for tests and metrics).
    public func watchCount(onResource resourceID: String) -> Int {
        keysByResourceID[resourceID]?.count ?? 0
    }
}
