import WebSocketWire

/// Identifies one WebSocket connection for the lifetime of the process (never reused).
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The raw number, starting at 1.
    public let rawValue: UInt64

    /// Wraps a raw number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `c<number>`.
    public var description: String { "c\(rawValue)" }
}

/// What the transport reports to the server, on its service thread.
public enum TransportEvent: Sendable {
    /// A WebSocket connection opened; `address` is the peer for logs.
    case opened(ConnectionID, address: String)
    /// A complete text message arrived.
    case message(ConnectionID, [UInt8])
    /// A binary message arrived (the contract answers `badMessage`).
    case binaryMessage(ConnectionID)
    /// The connection closed; its queue has been released. `code` is set when the server closed
    /// it (1009 too big, 1013 too slow, …), with the reason.
    case closed(ConnectionID, code: CloseCode?, reason: String?)
}
