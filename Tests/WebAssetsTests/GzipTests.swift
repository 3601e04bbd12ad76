import Testing

@testable import WebAssets

@Suite("Gzip through the system's zlib")
struct GzipTests {
    @Test(
        "what Gzip compresses, zlib's inflate gives back byte for byte",
        arguments: [0, 1, 100, 65_535, 65_536, 300_000])
    func roundTrip(size: Int) throws {
        var random = SplitMix(seed: UInt64(size))
        // Half text-like (repeats), half noise, so both deflate's paths are taken.
        let words = ["export ", "function ", "const ", "return ", "(a, b) ", "{\n", "}\n", "'x'", "ä€"]
        var bytes: [UInt8] = []
        while bytes.count < size {
            if random.below(2) == 0 {
                bytes += Array(words[random.below(words.count)].utf8)
            } else {
                bytes.append(UInt8(random.below(256)))
            }
        }
        bytes = Array(bytes.prefix(size))
        let compressed = try #require(Gzip.compressed(bytes))
        #expect(compressed.starts(with: [0x1F, 0x8B, 8]), "the gzip magic and deflate")
        #expect(inflateGzip(compressed) == bytes)
        #expect(Gzip.compressed(bytes) == compressed, "equal input, equal output (no time in the header)")
    }

    @Test("text shrinks at the best level; noise round-trips though it grows; a bad level is refused")
    func levels() throws {
        let text = Array(String(repeating: "import { a } from './a.mjs';\n", count: 200).utf8)
        let best = try #require(Gzip.compressed(text))
        let fastest = try #require(Gzip.compressed(text, level: 1))
        #expect(best.count < text.count / 20 && best.count <= fastest.count)
        #expect(inflateGzip(fastest) == text)
        var random = SplitMix(seed: 7)
        let noise = (0..<5000).map { _ in UInt8(random.below(256)) }
        let packed = try #require(Gzip.compressed(noise))
        #expect(packed.count > noise.count && inflateGzip(packed) == noise)
        #expect(Gzip.compressed(text, level: 10) == nil && Gzip.compressed(text, level: -2) == nil)
        #expect(inflateGzip(Array(best.dropLast(4))) == nil, "a truncated stream is no stream")
    }
}

/// A small seeded random number generator (SplitMix64), so a failing case can be run again.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
