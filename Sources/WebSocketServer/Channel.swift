import CNetwork
import COpenSSL
import Glibc

/// What moving bytes on a connection did.
enum ChannelResult: Equatable {
    /// This many bytes (more than zero) were read or written.
    case moved(Int)
    /// Nothing can move now; with TLS, the next step may wait for the socket to be writable.
    case wouldBlock(needsWritable: Bool)
    /// The peer closed, or the connection failed: nothing more will move.
    case closed
}

/// How bytes move on one connection: straight on the socket, or through a TLS session.
/// Service thread only (and a write helper, for a chunk of a shared pass it took).
struct Channel {
    let fd: Int32
    /// The TLS session (`SSL*`), for wss://.
    let tls: OpaquePointer?

    /// Reads into `buffer`.
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> ChannelResult {
        if let tls {
            cs_ssl_clear_errors()
            let count = SSL_read(tls, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
            return count > 0 ? .moved(Int(count)) : tlsOutcome(tls, count)
        }
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .moved(count) }
            if count == 0 { return .closed }
            switch cn_errno() {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(needsWritable: false)
            default: return .closed
            }
        }
    }

    /// Whether TLS holds decrypted input that no read took yet (the socket may be empty).
    var hasBufferedInput: Bool {
        tls.map { SSL_pending($0) > 0 } ?? false
    }

    /// Writes from `bytes`; `more` says more follows at once (the kernel may hold a partial packet).
    func write(_ bytes: UnsafeRawBufferPointer, more: Bool) -> ChannelResult {
        if let tls {
            cs_ssl_clear_errors()
            let count = SSL_write(tls, bytes.baseAddress, Int32(min(bytes.count, 1 << 20)))
            return count > 0 ? .moved(Int(count)) : tlsOutcome(tls, count)
        }
        while true {
            let count = cn_send(fd, bytes.baseAddress, bytes.count, more ? 1 : 0)
            if count > 0 { return .moved(count) }
            switch cn_errno() {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(needsWritable: true)
            default: return .closed
            }
        }
    }

    /// Writes `header` (not yet written from `headerSent` on) and then `body`, in one call on a
    /// plain socket; the count covers both.
    func write(header: [UInt8], from headerSent: Int, body: UnsafeRawBufferPointer, more: Bool) -> ChannelResult {
        guard tls == nil, headerSent < header.count else {
            if headerSent < header.count {
                return header.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[headerSent...]), more: true) }
            }
            return write(body, more: more)
        }
        while true {
            let count = header.withUnsafeBytes { head in
                cn_send2(
                    fd, head.baseAddress! + headerSent, head.count - headerSent, body.baseAddress, body.count,
                    more ? 1 : 0)
            }
            if count > 0 { return .moved(count) }
            switch cn_errno() {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(needsWritable: true)
            default: return .closed
            }
        }
    }

    /// Ends our direction: TLS's close_notify (so the peer sees a clean end, not a truncation),
    /// or a TCP half-close.
    func endOurSide() {
        if let tls {
            _ = SSL_shutdown(tls)
        } else {
            shutdown(fd, Int32(SHUT_WR))
        }
    }

    /// Takes the TLS handshake as far as the socket allows: `.moved(1)` when it is complete (at
    /// once without TLS), `.wouldBlock` while it goes on, `.closed` when it failed.
    func acceptTLS() -> ChannelResult {
        guard let tls else { return .moved(1) }
        cs_ssl_clear_errors()
        let result = SSL_accept(tls)
        return result == 1 ? .moved(1) : tlsOutcome(tls, result)
    }

    private func tlsOutcome(_ tls: OpaquePointer, _ result: Int32) -> ChannelResult {
        switch SSL_get_error(tls, result) {
        case SSL_ERROR_WANT_READ: .wouldBlock(needsWritable: false)
        case SSL_ERROR_WANT_WRITE: .wouldBlock(needsWritable: true)
        default: .closed
        }
    }
}

/// A TLS server context (certificate and key), shared by every service thread (`SSL_CTX` is
/// safe to share once set up).
final class TLSServerContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Loads the PEM certificate chain and key.
    /// - Throws: `TransportError` naming what could not be used.
    init(certificatePath: String, keyPath: String) throws(TransportError) {
        var error = [CChar](repeating: 0, count: 256)
        guard let context = cs_ssl_server_context(certificatePath, keyPath, &error, error.count) else {
            throw TransportError(message: error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        self.context = context
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A new session on `fd`, or nil when OpenSSL cannot make one.
    func session(fd: Int32) -> OpaquePointer? {
        guard let session = SSL_new(context) else { return nil }
        guard SSL_set_fd(session, fd) == 1 else {
            SSL_free(session)
            return nil
        }
        return session
    }
}
