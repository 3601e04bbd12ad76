import Testing
import WebSocketWire

@testable import WebAssets

@Suite("Content negotiation: Accept-Encoding and Accept-Language as pure choices")
struct ContentNegotiationTests {
    /// A field's value as `HTTPRequestHead.elements` splits it.
    static func elements(_ value: String) -> [String] {
        value.split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty }
    }

    @Test(
        "gzip when the list takes it at least as much as identity; identity otherwise",
        arguments: [
            ("gzip, deflate, br, zstd", "gzip"), ("gzip", "gzip"), ("GZIP", "gzip"), ("x-gzip", "gzip"),
            ("deflate, gzip;q=1.0, *;q=0.5", "gzip"), ("gzip;q=0.001", "gzip"), ("gzip ; q=0.5", "gzip"),
            ("*", "gzip"), ("*;q=0.3", "gzip"), ("br;q=1, *;q=0.1", "gzip"), ("gzip;q=1.000", "gzip"),
            ("identity;q=0.5, gzip", "gzip"), ("gzip;q=0.5, identity;q=0.5", "gzip"), ("gzip;level=1", "gzip"),
            ("gzip;q=0", "identity"), ("gzip;q=0.000", "identity"), ("gzip;Q=0", "identity"),
            ("*;q=0", "identity"), ("gzip;q=0, *", "identity"), ("*, gzip;q=0", "identity"),
            ("deflate, br", "identity"), ("identity", "identity"), ("", "identity"),
            ("gzip;q=0.5, identity", "identity"), ("identity;q=1, gzip;q=0.9", "identity"),
            ("gzip;q=0, identity;q=0", "identity"), ("*;q=0, identity;q=0", "identity"),
            // Broken qvalues leave their element out: the rest decides.
            ("gzip;q=2", "identity"), ("gzip;q=1.5", "identity"), ("gzip;q=0.5555", "identity"),
            ("gzip;q=", "identity"), ("gzip;q=abc", "identity"), ("gzip;q=.5", "identity"),
            ("gzip;q=-1", "identity"), ("gzip;q=1.001", "identity"), ("gzip;q=2, *", "gzip"),
            ("g\"zip", "identity"), (";q=1", "identity"), ("gzip;q=0.5;q=0", "identity"),
        ])
    func acceptEncoding(value: String, expected: String) {
        #expect(ContentNegotiation.coding(acceptEncoding: Self.elements(value)).rawValue == expected, "\(value)")
    }

    @Test("no Accept-Encoding field at all is identity; the first element naming a coding counts")
    func absentAndRepeated() {
        #expect(ContentNegotiation.coding(acceptEncoding: []) == .identity)
        #expect(ContentNegotiation.coding(acceptEncoding: ["gzip;q=0", "gzip"]) == .identity)
        #expect(ContentNegotiation.coding(acceptEncoding: ["gzip", "gzip;q=0"]) == .gzip)
    }

    @Test(
        "qvalues: 0 to 1 with at most three decimals, in thousandths",
        arguments: [
            ("0", 0), ("1", 1000), ("0.5", 500), ("0.25", 250), ("0.125", 125), ("1.0", 1000), ("1.000", 1000),
            ("0.", 0), ("1.", 1000),
        ])
    func qvalues(text: String, thousandths: Int) {
        #expect(ContentNegotiation.qvalue(text) == thousandths)
    }

    @Test("broken qvalues are nil", arguments: ["", "2", "1.1", "0.1234", ".5", "0,5", "05", "1e0", "+1", "0.5 "])
    func brokenQvalues(text: String) {
        #expect(ContentNegotiation.qvalue(text) == nil)
    }

    @Test(
        "a page's language: the first range (not refused) of another available language, else the fallback",
        arguments: [
            ("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-US,en;q=0.9", "en"), ("en-US, de;q=0.5", "de"),
            ("fr-FR, fr;q=0.9", "en"), ("DE", "de"), ("de-AT", "de"), ("de;q=0, en", "en"), ("", "en"),
            ("deu", "en"), ("*", "en"), ("de;q=x", "en"), ("fr, de-CH;q=0.3", "de"),
        ])
    func acceptLanguage(value: String, expected: String) {
        let chosen = ContentNegotiation.language(
            acceptLanguage: Self.elements(value), available: ["en", "de"], fallback: "en")
        #expect(chosen == expected, "\(value)")
    }
}
