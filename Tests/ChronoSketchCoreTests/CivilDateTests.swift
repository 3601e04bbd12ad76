import Testing

@testable import ChronoSketchCore

@Suite("CivilDate")
struct CivilDateTests {
    @Test("parses and formats real dates")
    func roundTrip() throws {
        for text in ["0001-01-01", "2026-09-08", "2024-02-29", "9999-12-31", "2000-02-29"] {
            #expect(try CivilDate(text).description == text)
        }
    }
}
