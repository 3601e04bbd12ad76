import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport

/// A fresh plan with an editor, a viewer and an owner, for one test.
struct PlanFixture {
    let plan: String
    let editor: String
    let editorToken: String
    let viewerToken: String
    let strangerToken: String
    let document: PlanDocument
    /// The store the plan and its users live in.
    let store: PlanStore

    static func make(_ document: PlanDocument = Demo.document, store: PlanStore = TestDatabase.store) throws
        -> PlanFixture
    {
        let plan = TestDatabase.unique("plan")
        try store.createPlan(id: plan, document: document)
        let editor = TestDatabase.unique("editor")
        let editorToken = try store.createUser(editor)
        try store.grant(user: editor, plan: plan, role: .editor)
        let viewer = TestDatabase.unique("viewer")
        let viewerToken = try store.createUser(viewer)
        try store.grant(user: viewer, plan: plan, role: .viewer)
        let strangerToken = try store.createUser(TestDatabase.unique("stranger"))
        return PlanFixture(
            plan: plan, editor: editor, editorToken: editorToken, viewerToken: viewerToken,
            strangerToken: strangerToken, document: document, store: store)
    }

    /// Another user with `role` on this plan.
    func user(_ role: PlanRole) throws -> String {
        let name = TestDatabase.unique(role.rawValue)
        let token = try store.createUser(name)
        try store.grant(user: name, plan: plan, role: role)
        return token
    }
}
