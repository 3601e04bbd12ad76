import CNetwork
import ChronoSketchCore
import Glibc
import PlanClient
import Synchronization
import SystemSupport
import WebSocketWire

/// What happens on a viewer's connection, reported on the transport's thread.
enum ViewerEvent {
    case opened
    /// One whole message.
    case message([UInt8])
    /// A piece of a message the server sent in fragments (one over 64 KiB, such as a large
    /// snapshot), in order; the bytes are valid only during the call. Pieces are not joined, so a
    /// thousand viewers receiving a 15 MB snapshot at once do not hold 15 GB.
    case part(UnsafeBufferPointer<UInt8>, first: Bool, last: Bool)
    case closed(code: UInt16?, reason: String)
}

/// What a viewer fleet needs from a transport: connections it opens, whose events all arrive on
/// one thread, and messages it sends on them.
protocol ViewerTransport: Sendable {
    /// A fresh connection id.
    func reserveConnectionID() -> UInt64
    /// Opens a WebSocket connection; `handler` gets its events on the transport's thread.
    func connect(
        _ id: UInt64, to endpoint: ClientTransport.Endpoint, handler: @escaping @Sendable (ViewerEvent) -> Void)
    /// Sends one text message (queued when the connection is not open yet).
    func send(_ bytes: [UInt8], on connection: UInt64)
    /// Closes every connection and ends the thread.
    func stop()
}

/// Viewers on the lws client transport (whole messages only).
struct LWSViewerTransport: ViewerTransport {
    let transport: ClientTransport

    func reserveConnectionID() -> UInt64 { transport.reserveConnectionID() }

    func connect(
        _ id: UInt64, to endpoint: ClientTransport.Endpoint, handler: @escaping @Sendable (ViewerEvent) -> Void
    ) {
        transport.connect(id, to: endpoint) { event in
            switch event {
            case .opened: handler(.opened)
            case .message(let bytes): handler(.message(bytes))
            case .closed(let code, let reason): handler(.closed(code: code, reason: reason))
            }
        }
    }

    func send(_ bytes: [UInt8], on connection: UInt64) { transport.send(bytes, on: connection) }

    /// Nothing: the lws transport is shared with editors and watchers, and the run stops it.
    func stop() {}
}
