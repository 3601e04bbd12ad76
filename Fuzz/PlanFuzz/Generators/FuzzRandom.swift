import ChronoSketchCore

/// The fuzzers' source of randomness: `SplitMix64` with the helpers the generators need.
///
/// Every case of a run has a generator of its own, derived from the run's seed, the stream
/// (frames or messages) and the case's index, so any one case can be replayed alone.
public struct FuzzRandom: Sendable {
    private var generator: SplitMix64

    /// A generator from a seed.
    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// The generator of case `index` of `stream` in the run with `seed`.
    public init(seed: UInt64, stream: FuzzStream, case index: Int) {
        // Each step hashes (SplitMix64's output is a strong mix), so neighbouring cases get
        // unrelated states rather than shifted copies of one sequence.
        var streamMixer = SplitMix64(seed: seed ^ stream.salt)
        var caseMixer = SplitMix64(seed: streamMixer.next() ^ UInt64(truncatingIfNeeded: index))
        generator = SplitMix64(seed: caseMixer.next())
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { generator.next() }

    /// A uniformly chosen integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// One of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<max(0, count)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

/// The independent streams of cases in one run.
public enum FuzzStream: String, Sendable, CaseIterable {
    /// Frame-level cases (handshakes, frames, fragments).
    case frames
    /// Message-level sessions (mutated contract messages).
    case messages
    /// Mutated plan files for the import path (no server).
    case imports

    var salt: UInt64 {
        switch self {
        case .frames: 0xF4A3_E5C1_0B1D_2E37
        case .messages: 0x3C6E_F372_FE94_F82B
        case .imports: 0xA54F_F53A_5F1D_36F1
        }
    }
}
