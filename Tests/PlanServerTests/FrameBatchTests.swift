import Testing

@testable import PlanServer

/// How queued messages are batched into frames: small ones together up to one fragment's size,
/// so that a long queue (a resume of thousands of versions) is never copied into one frame.
@Suite("Transport: frame batches")
struct FrameBatchTests {
    static let fragment = Connection.fragmentSize

    @Test(
        "small messages go together up to one fragment; a large or an overflowing one ends the batch",
        arguments: [
            ([100, 200, 300], 3), ([fragment], 1), ([fragment + 1, 10], 0), ([10, fragment], 1),
            ([fragment / 2, fragment / 2, 1], 2), (Array(repeating: 500, count: 3_000), fragment / 500), ([], 0),
        ])
    func batches(sizes: [Int], expected: Int) {
        #expect(Connection.batchLength(sizes) == expected)
    }
}
