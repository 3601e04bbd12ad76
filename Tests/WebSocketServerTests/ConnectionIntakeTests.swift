import Testing

@testable import WebSocketServer

@Suite("Transport: each connection's share of the hub's intake")
struct ConnectionIntakeTests {
    @Test("credit falls with messages handed over; a held connection is released at half the limit, once")
    func holdAndRelease() {
        var intake = ConnectionIntake()
        #expect(intake.credit(7, limit: 8) == 8)
        intake.handedOver(8, by: 7)
        #expect(intake.credit(7, limit: 8) == 0)
        let held = intake.hold(7, limit: 8)
        #expect(held)
        var released: [Bool] = []
        for _ in 0..<5 { released.append(intake.taken(from: 7, limit: 8)) }
        #expect(released == [false, false, false, true, false], "released at 4 of 8, once")
        #expect(intake.takeReleased() == [7])
        #expect(intake.credit(7, limit: 8) == 5)
    }

    @Test("a hold that finds the connection already at half is refused; a closed connection is forgotten")
    func refusedHoldAndForget() {
        var intake = ConnectionIntake()
        intake.handedOver(3, by: 1)
        let belowHalf = intake.hold(1, limit: 8)
        #expect(!belowHalf, "3 of 8 is below half: read on at once")
        intake.handedOver(6, by: 2)
        let held = intake.hold(2, limit: 8)
        #expect(held)
        intake.forget(2)
        #expect(intake.credit(2, limit: 8) == 8)
        let released = intake.taken(from: 2, limit: 8)
        #expect(!released)
        #expect(intake.takeReleased().isEmpty)
        #expect(intake.credit(2, limit: 8) == 8, "a late take of a closed connection's message counts for nothing")
    }
}
