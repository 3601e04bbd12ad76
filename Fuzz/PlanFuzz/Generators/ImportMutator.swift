/// Mutations of plan files for fuzzing the import path: byte flips and cuts, repeated and dropped
/// regions, and the values the importers read replaced by extremes (huge or negative counts,
/// lags, levels, dates past year 9999, recurrence periods), DOCTYPEs, entities and deep nesting
/// spliced in.
public enum ImportMutator {
    /// Values that stress what the importers read from elements and attributes.
    static let hostileValues = [
        "0", "-1", "-2147483648", "2147483647", "9223372036854775807", "-9223372036854775808", "99999999999999999999",
        "1e308", "-1e308", "nan", "inf", "0.5", "-0.5", "", " ", "9999-12-31T23:59:59", "0001-01-01T00:00:00",
        "10000-01-01T00:00:00", "2024-02-30T08:00:00", "2024-01-01", "PT99999999H0M0S", "&amp;", "&#0;", "&#x10FFFF;",
        "\u{202E}evil", "計画", "<x/>",
    ]

    /// Elements and attributes whose values the importers read.
    static let readNames = [
        "UID", "ID", "OutlineLevel", "Start", "Finish", "Duration", "PercentComplete", "Milestone", "Summary", "IsNull",
        "PredecessorUID", "Type", "LinkLag", "LagFormat", "CrossProject", "CalendarUID", "BaseCalendarUID", "DayType",
        "DayWorking", "FromDate", "ToDate", "Occurrences", "Period", "DaysOfWeek", "MonthDay", "MonthItem",
        "MonthPosition", "Month", "MinutesPerDay", "ResourceUID", "TaskUID", "Units",
    ]
    static let readAttributes = [
        "id", "start", "duration", "complete", "meeting", "project", "type", "difference", "year", "month", "date",
        "task-id", "resource-id", "load", "end", "resourceid", "sun", "sat", "value",
    ]

    /// One mutation of `file`.
    public static func mutate(_ file: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        var bytes = file
        for _ in 0..<random.int(1...3) {
            switch random.int(0...9) {
            case 0, 1, 2: bytes = replaceValue(bytes, random: &random)
            case 3: bytes = replaceAttribute(bytes, random: &random)
            case 4 where !bytes.isEmpty: bytes = Array(bytes.prefix(random.int(0...bytes.count - 1)))
            case 5 where !bytes.isEmpty:
                bytes[random.int(0...bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
            case 6: bytes = repeatRegion(bytes, random: &random)
            case 7: bytes = splice(bytes, random: &random)
            default: bytes = dropRegion(bytes, random: &random)
            }
        }
        return bytes
    }

    /// `<Name>old</Name>` with a hostile value.
    private static func replaceValue(_ bytes: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        let name = random.pick(readNames)
        let open = Array("<\(name)>".utf8)
        let starts = occurrences(of: open, in: bytes)
        guard let start = starts.isEmpty ? nil : random.pick(starts) else { return bytes }
        let valueStart = start + open.count
        guard let end = firstIndex(of: Array("</\(name)>".utf8), in: bytes, from: valueStart) else { return bytes }
        return Array(bytes[..<valueStart]) + Array(random.pick(hostileValues).utf8) + Array(bytes[end...])
    }

    /// `name="old"` with a hostile value.
    private static func replaceAttribute(_ bytes: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        let prefix = Array(" \(random.pick(readAttributes))=\"".utf8)
        let starts = occurrences(of: prefix, in: bytes)
        guard let start = starts.isEmpty ? nil : random.pick(starts) else { return bytes }
        let valueStart = start + prefix.count
        guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return bytes }
        let value = random.pick(hostileValues).replacingQuotes
        return Array(bytes[..<valueStart]) + Array(value.utf8) + Array(bytes[end...])
    }

    /// A region repeated (many rows, duplicate ids, repeated exceptions).
    private static func repeatRegion(_ bytes: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        guard bytes.count > 2 else { return bytes }
        let start = random.int(0...bytes.count - 2)
        let end = min(bytes.count, start + random.int(1...4096))
        let region = Array(bytes[start..<end])
        return Array(bytes[..<end]) + Array([[UInt8]](repeating: region, count: random.int(1...20)).joined())
            + Array(bytes[end...])
    }

    private static func dropRegion(_ bytes: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        guard bytes.count > 2 else { return bytes }
        let start = random.int(0...bytes.count - 2)
        let end = min(bytes.count, start + random.int(1...2048))
        return Array(bytes[..<start]) + Array(bytes[end...])
    }

    /// A DOCTYPE, an entity declaration or reference, deep nesting or a stray tag after the first `>`.
    private static func splice(_ bytes: [UInt8], random: inout FuzzRandom) -> [UInt8] {
        let pieces = [
            "<!DOCTYPE Project [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>", "&b;",
            "<!DOCTYPE p SYSTEM \"file:///etc/passwd\">", String(repeating: "<Task>", count: 300), "<?pi data?>",
            "<![CDATA[<Task>]]>", "</Tasks>", "<Task><UID>1</UID></Task>", "\u{0}", "<!-- -->",
        ]
        guard let firstTag = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return Array(random.pick(pieces).utf8) + bytes
        }
        let at = random.chance(0.5) ? firstTag + 1 : random.int(firstTag + 1...max(firstTag + 1, bytes.count))
        return Array(bytes[..<at]) + Array(random.pick(pieces).utf8) + Array(bytes[at...])
    }

    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        var index = 0
        while let next = firstIndex(of: needle, in: bytes, from: index) {
            found.append(next)
            index = next + 1
        }
        return found
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension String {
    /// The text with `"` written as `&quot;` (for an attribute value).
    fileprivate var replacingQuotes: String {
        var result = ""
        for character in self { result += character == "\"" ? "&quot;" : String(character) }
        return result
    }
}
