import PlanProtocol

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

/// The answer to a plain HTTP request on the WebSocket port.
public struct HTTPResponse: Sendable {
    /// The status code, such as 200 or 503.
    public let status: Int
    /// The content type.
    public let contentType: String
    /// The body (for a `HEAD`, only its length is sent).
    public let body: [UInt8]
    /// Extra header lines (`Name: value`); a `Cache-Control` among them replaces `no-store`.
    public let headers: [String]

    /// Creates a response with a text body.
    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: String) {
        self.init(status: status, contentType: contentType, bytes: Array(body.utf8))
    }

    /// Creates a response with a body of bytes and extra header lines.
    public init(status: Int, contentType: String, bytes: [UInt8], headers: [String] = []) {
        self.status = status
        self.contentType = contentType
        self.body = bytes
        self.headers = headers
    }
}
