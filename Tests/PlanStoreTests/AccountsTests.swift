import PlanStore
import PlanTestSupport
import Testing

@Suite("PlanStore accounts and migrations", .database)
struct AccountsTests {
    let store = TestDatabase.store

    @Test("migrations are idempotent")
    func migrationsIdempotent() throws {
        #expect(try store.migrate(directory: TestDatabase.migrationsDirectory) == [])
    }

    @Test("a new user's token authenticates; other tokens do not")
    func tokens() throws {
        let name = TestDatabase.unique("alice")
        let token = try store.createUser(name)
        #expect(token.hasPrefix("cs_") && token.count == 67)
        #expect(try store.authenticate(token: token) == name)
        #expect(try store.authenticate(token: token + "x") == nil)
        #expect(try store.authenticate(token: "") == nil)
        let second = try store.issueToken(for: name)
        #expect(second != token)
        #expect(try store.authenticate(token: second) == name)
    }

    @Test("only a hash of the token is stored: the token appears in no table")
    func tokenNeverStored() throws {
        let name = TestDatabase.unique("bob")
        let token = try store.createUser(name)
        let found = try store.pool.withConnection { connection throws(StoreError) in
            try connection.query(
                """
                SELECT count(*) FROM (
                    SELECT t::text AS row FROM tokens t UNION ALL SELECT u::text FROM users u
                    UNION ALL SELECT r::text FROM roles r UNION ALL SELECT m::text FROM mutations m
                    UNION ALL SELECT d::text FROM decisions d UNION ALL SELECT p::text FROM plans p
                ) everything WHERE row LIKE '%' || $1 || '%'
                """, [String(token.dropFirst(3))]
            ).int(0, 0)
        }
        #expect(found == 0)
        let hashLength = try store.pool.withConnection { connection throws(StoreError) in
            try connection.query("SELECT length(hash) FROM tokens WHERE user_name = $1", [name]).int(0, 0)
        }
        #expect(hashLength == 32)
    }

    @Test("user names are unique and nonblank")
    func userNames() throws {
        let name = TestDatabase.unique("carol")
        _ = try store.createUser(name)
        #expect(throws: StoreError.self) { try store.createUser(name) }
        #expect(throws: StoreError.self) { try store.createUser("   ") }
        #expect(throws: StoreError.self) { try store.issueToken(for: TestDatabase.unique("nobody")) }
    }
}
