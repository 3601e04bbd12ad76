/// Text folded for matching, as the web client's `fold` (search.mjs) does it: lower case, accents
/// and other combining marks dropped, `ß` as `ss`, `æ` as `ae`, `œ` as `oe`. Plain ASCII (most
/// titles and ids) only changes case, which is much cheaper. The accented Latin letters are
/// folded by a table made once from their Unicode names ("LATIN SMALL LETTER E WITH ACUTE" → e),
/// since the standard library has no decomposition of its own.
public enum TextFolding {
    /// `text` folded.
    public static func fold(_ text: some StringProtocol) -> String {
        String(decoding: foldedBytes(text), as: UTF8.self)
    }

    /// `text` folded, as UTF-8.
    public static func foldedBytes(_ text: some StringProtocol) -> [UInt8] {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return bytes
    }

    /// Appends `text` folded, as UTF-8, to `bytes`.
    public static func append(_ text: some StringProtocol, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in utf8 { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte) }
            return
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
            } else if isMark(scalar) {
                continue
            } else if let base = latin[scalar.value] {
                bytes.append(contentsOf: base.utf8)
            } else {
                bytes.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: true
        default: false
        }
    }

    /// The Latin letters with diacritics (Latin-1 Supplement, Extended-A and -B, Extended
    /// Additional) and the ligatures, by scalar value, to their folded base letters.
    private static let latin: [UInt32: String] = {
        var table: [UInt32: String] = [0xDF: "ss", 0x1E9E: "ss", 0xC6: "ae", 0xE6: "ae", 0x152: "oe", 0x153: "oe"]
        let ranges: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x1E00...0x1EFF]
        for value in ranges.joined() where table[value] == nil {
            guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
            for prefix in ["LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "] where name.hasPrefix(prefix) {
                let rest = name.dropFirst(prefix.count)
                let letter = rest.hasPrefix("DOTLESS ") ? rest.dropFirst(8) : rest
                guard let first = letter.first, first.isASCII, first.isLetter,
                    letter.dropFirst().isEmpty || letter.dropFirst().hasPrefix(" WITH ")
                else { continue }
                table[value] = first.lowercased()
            }
        }
        return table
    }()

    /// Whether the bytes `text[range]` hold `needle` (not empty) anywhere: the search of folded
    /// texts that the task search and the pickers share (a plain scan: titles are short).
    @inline(__always)
    static func bytes(
        _ text: UnsafeBufferPointer<UInt8>, in range: Range<Int>, hold needle: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let first = needle[0]
        let end = range.upperBound - needle.count
        var index = range.lowerBound
        while index <= end {
            if text[index] == first {
                var offset = 1
                while offset < needle.count && text[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
