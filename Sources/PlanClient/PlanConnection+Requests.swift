import PlanProtocol

/// Requests with a direct answer (protocol.md §4: the answer echoes the request's `ref`), awaited
/// one by one: the request goes out once the connection is ready (again after a reconnect, until
/// it is answered), and its answer — or an `error` with its ref — ends the wait. The answer is
/// also delivered on `events`, like every server message.
extension PlanConnection {
    /// A request waiting for its answer.
    struct PendingRequest: Sendable {
        let bytes: [UInt8]
        let continuation: CheckedContinuation<Result<ServerMessage, ClientError>, Never>
        let deadline: Task<Void, Never>
    }

    /// Sends the request `make` builds with a fresh ref and waits for the answer with that ref,
    /// at most `timeout`.
    /// - Returns: the answer; `ClientError.server` for an `error` answer, `.closed` when the
    ///   connection ended for good first, `.timedOut` without an answer in time.
    public func request(_ make: (_ ref: String) -> ClientMessage, timeout: Duration = .seconds(20)) async -> Result<
        ServerMessage, ClientError
    > {
        let ref = "\(idPrefix)-r\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        let bytes = make(ref).bytes
        return await withCheckedContinuation { continuation in
            // The deadline of the answer, not a wait for an event.
            let deadline = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.endRequest(ref, with: .failure(.timedOut))
            }
            let ready = state.withLock { state -> Bool in
                state.requests[ref] = PendingRequest(bytes: bytes, continuation: continuation, deadline: deadline)
                return state.ready
            }
            if ready { sendNow(bytes) }
        }
    }

    /// The path of the session user's calendar feed of `plan` (`/plans/ID/calendar.ics?key=…`, the
    /// same on every asking), or with `revoke` ends it (then nil): the wire's `feed`
    /// (protocol.md §4.6.1).
    /// - Throws: `ClientError.server` with `unknownPlan` for a plan the user has no role on.
    public func feed(plan: String, revoke: Bool = false, timeout: Duration = .seconds(20)) async throws(ClientError)
        -> String?
    {
        let answer = try await request({ .feed(plan: plan, revoke: revoke, ref: $0) }, timeout: timeout).get()
        guard case .feed(_, let path, _) = answer else {
            throw .server(code: "unexpectedAnswer", message: "the server answered \(answer.typeName) to feed")
        }
        return path
    }

    /// Ends the wait of the request `message` answers, if any.
    func answerRequest(_ message: ServerMessage) {
        guard let ref = message.ref else { return }
        if case .error(let code, let text, _) = message {
            endRequest(ref, with: .failure(.server(code: code.rawValue, message: text)))
        } else {
            endRequest(ref, with: .success(message))
        }
    }

    /// Fails every waiting request (the connection ended for good).
    func failRequests(_ error: ClientError) {
        let waiting = state.withLock { state -> [PendingRequest] in
            defer { state.requests = [:] }
            return Array(state.requests.values)
        }
        for request in waiting {
            request.deadline.cancel()
            request.continuation.resume(returning: .failure(error))
        }
    }

    private func endRequest(_ ref: String, with result: Result<ServerMessage, ClientError>) {
        guard let pending = state.withLock({ $0.requests.removeValue(forKey: ref) }) else { return }
        pending.deadline.cancel()
        pending.continuation.resume(returning: result)
    }
}
