/// A header label with shorter fallbacks for narrow sections or columns.
///
/// Widths are counted in `Character`s; every label the axis makes is one terminal cell per
/// character (the en dash and German umlauts included).
public struct AxisLabel: Sendable, Hashable {
    /// The variants from the longest (`full`) to the shortest; never empty.
    public let variants: [String]

    /// Creates a label from its variants, longest first.
    public init(_ variants: [String]) {
        precondition(!variants.isEmpty, "a label needs at least one variant")
        self.variants = variants
    }

    /// The longest variant, e.g. "September 2026" or "Week 53 2020".
    public var full: String { variants[0] }

    /// The shortest variant.
    public var shortest: String { variants[variants.count - 1] }

    /// The longest variant of at most `width` characters, or nil when even the shortest is wider.
    public func fitting(_ width: Int) -> String? {
        variants.first { $0.count <= width }
    }
}
