import SystemSupport

/// The connections open from each peer address, counted from the moment they are accepted (a
/// connection that never finishes its handshake holds a descriptor all the same), with the limit
/// one address may hold. Shared by the service threads and the TLS handshake thread.
final class AddressBook: Sendable {
    /// Connections one address may hold at once (0: no limit, and nothing is counted).
    let limit: Int
    private let counts = Locked<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a connection from `address`; false (and nothing counted) when the address holds
    /// `limit` already.
    func admit(_ address: String) -> Bool {
        guard limit > 0 else { return true }
        return counts.withLock { counts in
            let held = counts[address, default: 0]
            guard held < limit else { return false }
            counts[address] = held + 1
            return true
        }
    }

    /// A connection from `address` closed.
    func release(_ address: String) {
        guard limit > 0 else { return }
        counts.withLock { counts in
            guard let held = counts[address] else { return }
            counts[address] = held > 1 ? held - 1 : nil
        }
    }

    /// The connections `address` holds now.
    func count(of address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}
