/// The HTTP paths of a plan's documents on the serve port, as the server gives them out and
/// clients ask for them (interchange.md §13, §14).
public enum PlanPaths {
    /// `text` as one path segment: every byte but the unreserved ones (RFC 3986: letters, digits,
    /// `-._~`) percent-encoded, so that any plan id makes a valid segment.
    public static func segment(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The calendar feed of `plan` read with the feed key `key`: `/plans/PLAN/calendar.ics?key=KEY`.
    public static func feed(plan: String, key: String) -> String {
        "/plans/\(segment(plan))/calendar.ics?key=\(key)"
    }
}
