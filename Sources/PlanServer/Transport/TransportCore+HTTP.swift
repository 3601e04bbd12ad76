import CWebSockets
import Glibc

/// Plain HTTP on the WebSocket port: `/healthz`, `/metrics`, and peer addresses for logs.
extension TransportCore {
    func respondHTTP(wsi: OpaquePointer, user: UnsafeMutableRawPointer?, path: String) -> Int32 {
        guard let user else { return -1 }
        let response = transport.onHTTP(path)
        let id = takeID()
        user.storeBytes(of: id, as: UInt64.self)
        let slot = Slot(id: ConnectionID(id), wsi: wsi)
        slot.httpResponse = response
        slots[id] = slot
        var headers = [UInt8](repeating: 0, count: OutgoingBuffer.headroom + 512)
        let ok = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + OutgoingBuffer.headroom
            var position: UnsafeMutablePointer<UInt8>? = start
            let end = buffer.baseAddress! + buffer.count
            guard
                lws_add_http_common_headers(
                    wsi, UInt32(response.status), response.contentType, lws_filepos_t(response.body.count), &position,
                    end) == 0,
                lws_finalize_write_http_header(wsi, start, &position, end) == 0
            else { return false }
            return true
        }
        guard ok else { return 1 }
        lws_callback_on_writable(wsi)
        return 0
    }

    func finishHTTP(_ slot: Slot, _ response: HTTPResponse) -> Int32 {
        let buffer = OutgoingBuffer(response.body)
        slot.httpResponse = HTTPResponse(status: response.status, body: "")
        guard lws_write(slot.wsi, buffer.payloadPointer, buffer.count, LWS_WRITE_HTTP_FINAL) >= 0 else { return -1 }
        return lws_http_transaction_completed(slot.wsi) != 0 ? -1 : 0
    }

    /// The peer's numeric address, for logs. Never a name: a reverse lookup would block this
    /// thread, and every connection on it, on the resolver.
    func peerAddress(_ wsi: OpaquePointer) -> String {
        var address = [CChar](repeating: 0, count: 64)
        cs_peer_numeric_address(lws_get_socket_fd(wsi), &address, address.count)
        return address.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
