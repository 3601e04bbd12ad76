import ChronoSketchCore
import PlanProtocol
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
}
