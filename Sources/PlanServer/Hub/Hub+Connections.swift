import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// Connections opening and closing, messages arriving, `hello` and its token.
extension Hub {
    func handleTransport(_ event: TransportEvent) {
        switch event {
        case .opened(let connection, let address):
            nextSessionNumber += 1
            let sessionID = "\(configuration.instanceName)-\(nextSessionNumber)"
            sessions[connection] = Session(
                connection: connection, sessionID: sessionID, address: address, limits: configuration.limits, now: now)
            emit(.measure(.connections(delta: 1)))
            awaitingHello.append((connection, now))
            log("connection \(connection) opened from \(address) session \(sessionID)")
            if case .serving = lifecycle {} else { close(connection, .goingAway, "server shutting down") }
        case .message(let connection, let bytes):
            receive(bytes, from: connection)
        case .binaryMessage(let connection):
            guard let session = sessions[connection] else { return }
            if case .awaitingHello = session.state {
                refuseUnauthenticated(session, "send hello first")
                return
            }
            send(.error(code: .badMessage, message: "binary frames are not supported; send JSON text"), to: connection)
        case .closed(let connection, let code, let reason):
            guard let session = sessions.removeValue(forKey: connection) else { return }
            emit(.measure(.connections(delta: -1)))
            forget(session)
            for plan in session.plansInvolved {
                let watches = session.watches.filter { $0.value.plan == plan }.map(\.key)
                handle(plan, .disconnected(connection, watches: watches))
            }
            let how = code.map { " with \($0.rawValue) (\(reason ?? ""))" } ?? ""
            log("connection \(connection) closed\(how) (user \(session.user ?? "-"), session \(session.sessionID))")
        }
    }

    private func receive(_ bytes: [UInt8], from connection: ConnectionID) {
        guard let session = sessions[connection] else { return }
        if case .closing = session.state { return }
        let request: Request
        do {
            request = .message(try ClientMessage.decode(bytes, limits: configuration.limits))
        } catch {
            if case .awaitingHello = session.state {
                // Not a readable hello (or a hello with a token that cannot be one): say why.
                refuseUnauthenticated(session, "send hello first (\(error.message))")
                return
            }
            if let code = error.closeCode {
                session.state = .closing
                log("connection \(connection) closed with \(code.rawValue): \(error.message)")
                close(connection, code, error.message)
                return
            }
            request = .invalid(error)
        }
        switch session.state {
        case .awaitingHello:
            guard case .message(.hello(let token, let client, let ref)) = request else {
                refuseUnauthenticated(session, "send hello first")
                return
            }
            session.client = String(client.unicodeScalars.prefix(128))
            session.helloRef = ref
            session.state = .authenticating
            session.authenticationEpoch = revocations
            session.checkingToken = true
            authenticating += 1
            emit(.run(.authenticate(connection, token: token)))
        case .authenticating, .ready:
            session.pending.append(request)
            if !session.blocked && !session.awaitingTurn { processPending(session) }
        case .closing:
            return
        }
    }

    /// Closes with 1008 every connection that opened more than `helloTimeout` ago and has not
    /// sent `hello` (a slow or idle peer must not hold a connection without authenticating).
    /// Costs what expired: connections are kept in the order they opened.
    func closeSilentConnections() {
        var expired = 0
        for (connection, opened) in awaitingHello {
            guard now - opened >= configuration.helloTimeout else { break }
            expired += 1
            guard let session = sessions[connection], case .awaitingHello = session.state else { continue }
            let seconds = configuration.helloTimeout.components.seconds
            refuseUnauthenticated(session, "no hello within \(seconds) s")
        }
        awaitingHello.removeFirst(expired)
    }

    private func refuseUnauthenticated(_ session: Session, _ reason: String) {
        session.state = .closing
        send(.error(code: .unauthenticated, message: reason, ref: session.helloRef), to: session.connection)
        close(session.connection, .policyViolation, reason)
        log("connection \(session.connection) refused: \(reason)")
    }

    /// Takes a closed connection out of the hub's indexes.
    private func forget(_ session: Session) {
        if let user = session.user {
            sessionsByUser[user]?.remove(session.connection)
            if sessionsByUser[user]?.isEmpty == true { sessionsByUser[user] = nil }
        }
        if session.checkingToken { authenticating -= 1 }
    }

    /// Closes a connection beyond a connection limit with 1008 (policy), the reason in the close.
    private func refuseOverLimit(_ session: Session, _ reason: String) {
        session.state = .closing
        close(session.connection, .policyViolation, reason)
        warn("connection \(session.connection) refused: \(reason)")
    }

    func finishAuthentication(_ connection: ConnectionID, _ result: Result<String?, StoreError>) {
        guard let session = sessions[connection] else { return }
        if session.checkingToken {
            session.checkingToken = false
            authenticating -= 1
        }
        guard case .authenticating = session.state else { return }
        switch result {
        case .success(let user?) where (revokedAt[user] ?? 0) > session.authenticationEpoch:
            refuseUnauthenticated(session, "the token was revoked")
        case .success(let user?)
        where configuration.maxConnectionsPerUser > 0
            && sessionsByUser[user, default: []].count >= configuration.maxConnectionsPerUser:
            let limit = configuration.maxConnectionsPerUser
            refuseOverLimit(session, "too many connections of \(user): at most \(limit) (--max-connections-per-user)")
        case .success(let user?):
            session.state = .ready(user: user)
            sessionsByUser[user, default: []].insert(connection)
            emit(.chargeTo(connection, user: user))
            send(
                .welcome(
                    session: session.sessionID, user: user, server: serverName, limits: configuration.limits,
                    ref: session.helloRef),
                to: connection)
            log("connection \(connection) authenticated as \(user) (client \(session.client))")
            processPending(session)
        case .success(nil):
            refuseUnauthenticated(session, "unknown token")
        case .failure(let error):
            session.state = .closing
            warn("connection \(connection): cannot check the token: \(error)")
            close(connection, .tryAgainLater, "database unavailable, try again")
        }
    }
}

extension ClientMessageError {
    /// The close code when the server must close the connection instead of answering: 1009 for
    /// a message over `maxMessageBytes`, 1007 for text that is not UTF-8 (the transport closes
    /// for both before a message reaches the hub; this is the hub's own guard).
    var closeCode: CloseCode? {
        switch self {
        case .tooLarge: .messageTooBig
        case .invalidUTF8: .invalidPayload
        case .error, .rejected: nil
        }
    }
}
