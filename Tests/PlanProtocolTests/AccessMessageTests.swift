import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

/// `plans`, `grant`, `granted` and the `error` that ends a plan's access, on the wire.
@Suite("Protocol: access messages")
struct AccessMessageTests {
    @Test("plans and grant decode; role null revokes; a missing or unknown role is badMessage")
    func decoding() throws {
        #expect(try ClientMessage.decode(#"{"type":"plans","ref":"l"}"#) == .plans(ref: "l"))
        #expect(
            try ClientMessage.decode(#"{"type":"grant","plan":"demo","user":"bob","role":"editor","ref":"g"}"#)
                == .grant(plan: "demo", user: "bob", role: .editor, ref: "g"))
        #expect(
            try ClientMessage.decode(#"{"type":"grant","plan":"demo","user":"bob","role":null}"#)
                == .grant(plan: "demo", user: "bob", role: nil))
        for text in [
            #"{"type":"grant","plan":"demo","user":"bob","ref":"g"}"#,
            #"{"type":"grant","plan":"demo","user":"bob","role":"king","ref":"g"}"#,
            #"{"type":"grant","plan":"demo","role":"viewer","ref":"g"}"#,
        ] {
            #expect(throws: ClientMessageError.self) { try ClientMessage.decode(text) }
            do {
                _ = try ClientMessage.decode(text)
            } catch {
                guard case .error(.badMessage, _, "g") = error else { throw error }
            }
        }
        let grant = ClientMessage.grant(plan: "demo", user: "bob", role: nil, ref: "g")
        #expect(try ClientMessage.decode(grant.bytes) == grant)
    }

    @Test("plans, granted and a plan's error encode as the contract writes them and decode back")
    func encoding() throws {
        let plans = ServerMessage.plans(
            [PlanListing(plan: "demo", title: "Website relaunch", role: .editor, version: 12)], ref: "l")
        let granted = ServerMessage.granted(plan: "demo", user: "bob", role: nil, ref: "g")
        let ended = ServerMessage.planError(code: .forbidden, message: "gone", plan: "demo")
        #expect(
            String(decoding: plans.bytes, as: UTF8.self)
                == #"{"type":"plans","plans":[{"plan":"demo","title":"Website relaunch","role":"editor","version":12}],"#
                + #""ref":"l"}"#)
        #expect(
            String(decoding: granted.bytes, as: UTF8.self)
                == #"{"type":"granted","plan":"demo","user":"bob","role":null,"ref":"g"}"#)
        #expect(
            String(decoding: ended.bytes, as: UTF8.self)
                == #"{"type":"error","code":"forbidden","message":"gone","plan":"demo"}"#)
        let editor = ServerMessage.granted(plan: "demo", user: "bob", role: .editor, ref: nil)
        for message in [plans, granted, editor, ended, .error(code: .unknownUser, message: "no", ref: "r")] {
            #expect(try ServerMessage.decode(message.bytes) == message)
        }
        // A role the contract does not name is refused, not passed on as text.
        #expect(throws: (any Error).self) {
            try ServerMessage.decode(Array(#"{"type":"granted","plan":"demo","user":"bob","role":"admin"}"#.utf8))
        }
    }

    @Test("a session's role: the role event, resumed and snapshot carry it; one encoding serves every role")
    func sessionRole() throws {
        let event = ServerMessage.role(plan: "demo", role: .viewer)
        #expect(String(decoding: event.bytes, as: UTF8.self) == #"{"type":"role","plan":"demo","role":"viewer"}"#)
        #expect(event.ref == nil && event.plan == "demo")
        let resumed = ServerMessage.resumed(plan: "demo", version: 12, role: .owner, ref: "s")
        #expect(
            String(decoding: resumed.bytes, as: UTF8.self)
                == #"{"type":"resumed","plan":"demo","version":12,"role":"owner","ref":"s"}"#)
        for message in [event, resumed, .resumed(plan: "demo", version: 3)] {
            #expect(try ServerMessage.decode(message.bytes) == message)
        }
        #expect(throws: (any Error).self) {
            try ServerMessage.decode(Array(#"{"type":"role","plan":"demo","role":"admin"}"#.utf8))
        }
        // The snapshot with its role spliced in is byte for byte the one encoded with it, historical or not.
        for historical in [false, true] {
            var snapshot = PlanSnapshot(plan: "demo", version: 4, document: Demo.document, historical: historical)
            let plain = ServerMessage.snapshot(snapshot).bytes
            for role in [PlanRole.viewer, .editor, .owner] {
                snapshot.role = role
                let spliced = plain.withUnsafeBytes { PlanSnapshot.withRole(role, encoded: $0) }
                #expect(spliced == ServerMessage.snapshot(snapshot).bytes)
                #expect(try ServerMessage.decode(spliced) == .snapshot(snapshot))
            }
        }
        // A copy keeps the role beside the data: copies of sessions with other roles stay equal.
        var snapshot = PlanSnapshot(plan: "demo", version: 4, document: Demo.document)
        snapshot.role = .viewer
        var copy = ClientPlanCopy(snapshot)
        #expect(copy.role == .viewer && copy.snapshot.role == nil)
        #expect(try copy.apply(.role(plan: "demo", role: .editor)) && copy.role == .editor)
        #expect(try !copy.apply(.role(plan: "other", role: .owner)) && copy.role == .editor)
        #expect(try copy.apply(.resumed(plan: "demo", version: 4, role: .owner)) && copy.role == .owner)
        snapshot.role = .editor
        #expect(copy == ClientPlanCopy(snapshot))
    }

    @Test("feed asks for a plan's feed key or revokes it; the answer carries the path or revoked")
    func feed() throws {
        #expect(try ClientMessage.decode(#"{"type":"feed","plan":"demo","ref":"f"}"#) == .feed(plan: "demo", ref: "f"))
        #expect(
            try ClientMessage.decode(#"{"type":"feed","plan":"demo","revoke":true}"#)
                == .feed(plan: "demo", revoke: true))
        for text in [#"{"type":"feed","ref":"f"}"#, #"{"type":"feed","plan":"demo","revoke":"yes","ref":"f"}"#] {
            do {
                _ = try ClientMessage.decode(text)
                Issue.record("decoded \(text)")
            } catch {
                guard case .error(.badMessage, _, "f") = error else { throw error }
            }
        }
        let answer = ServerMessage.feed(plan: "demo", path: "/plans/demo/calendar.ics?key=k", ref: "f")
        #expect(
            String(decoding: answer.bytes, as: UTF8.self)
                == #"{"type":"feed","plan":"demo","path":"/plans/demo/calendar.ics?key=k","ref":"f"}"#)
        let revoked = ServerMessage.feed(plan: "demo", path: nil, ref: nil)
        #expect(String(decoding: revoked.bytes, as: UTF8.self) == #"{"type":"feed","plan":"demo","revoked":true}"#)
        for message in [answer, revoked] { #expect(try ServerMessage.decode(message.bytes) == message) }
    }
}
