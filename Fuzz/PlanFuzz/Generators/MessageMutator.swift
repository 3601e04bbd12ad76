/// Mutations of a message: values replaced by hostile strings, huge numbers or wrong types,
/// members removed, added or duplicated, deep nesting, and (rarely) broken bytes.
public enum MessageMutator {
    /// The message with `count` structural mutations applied; each is described in `log`.
    public static func mutate(
        _ message: FuzzJSON, count: Int, allowNUL: Bool, random: inout FuzzRandom, log: inout [String]
    ) -> FuzzJSON {
        var message = message
        for _ in 0..<count { message = mutateOnce(message, allowNUL: allowNUL, random: &random, log: &log) }
        return message
    }

    static func mutateOnce(_ message: FuzzJSON, allowNUL: Bool, random: inout FuzzRandom, log: inout [String])
        -> FuzzJSON
    {
        let paths = message.paths
        let path = random.pick(paths)
        let node = message.node(at: path)
        switch random.int(0...8) {
        case 0:
            log.append("\(path): hostile string")
            return message.transforming(at: path) { _ in HostileStrings.make(random: &random, allowNUL: allowNUL) }
        case 1:
            log.append("\(path): odd number")
            return message.transforming(at: path) { _ in HostileStrings.number(random: &random) }
        case 2:
            let replacement = random.pick([FuzzJSON.null, .bool(true), .array([]), .object([]), .number(0), "x"])
            log.append("\(path): wrong type \(replacement.bytes.count) bytes")
            return message.transforming(at: path) { _ in replacement }
        case 3:
            log.append("\(path): member removed")
            return message.transforming(at: path) { node in
                guard case .object(var members) = node, !members.isEmpty else { return node }
                members.remove(at: random.int(0...members.count - 1))
                return .object(members)
            }
        case 4:
            log.append("\(path): member duplicated")
            return message.transforming(at: path) { node in
                guard case .object(var members) = node, !members.isEmpty else { return node }
                var copy = members[random.int(0...members.count - 1)]
                copy.value = random.chance(0.5) ? HostileStrings.make(random: &random, allowNUL: allowNUL) : .null
                members.insert(copy, at: random.int(0...members.count))
                return .object(members)
            }
        case 5:
            let key = random.pick(["extra", "type", "id", "plan", "ref", "token", "__proto__", "op", ""])
            log.append("\(path): extra member \(key)")
            return message.transforming(at: path) { node in
                guard case .object(var members) = node else { return node }
                members.append(.init(key, HostileStrings.make(random: &random, allowNUL: allowNUL)))
                return .object(members)
            }
        case 6:
            let depth = random.pick([1, 5, 29, 30, 31, 32, 33, 40, 200])
            log.append("\(path): nested in \(depth) arrays")
            return message.transforming(at: path) { node in
                (0..<depth).reduce(node) { inner, _ in .array([inner]) }
            }
        case 7:
            guard case .string(let text) = node else {
                return mutateOnce(message, allowNUL: allowNUL, random: &random, log: &log)
            }
            log.append("\(path): variant of \(text.prefix(20).debugDescription)")
            return message.transforming(at: path) { _ in
                HostileStrings.variant(of: text, random: &random, allowNUL: allowNUL)
            }
        default:
            let type = random.pick(
                MessageTemplates.types + MessageTemplates.operations + ["SUBSCRIBE", "", "propose "])
            log.append("type changed to \(type)")
            return message.setting("type", .string(type))
        }
    }

    /// The bytes with one byte-level mutation: a flipped bit, a cut, an inserted byte, invalid
    /// UTF-8, trailing garbage or a second document.
    public static func mutateBytes(_ bytes: [UInt8], random: inout FuzzRandom, log: inout [String]) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var bytes = bytes
        let offset = random.int(0...bytes.count - 1)
        switch random.int(0...5) {
        case 0:
            bytes[offset] ^= UInt8(1) << UInt8(random.int(0...7))
            log.append("bit flipped at \(offset)")
        case 1:
            bytes.removeLast(bytes.count - offset)
            log.append("cut at \(offset)")
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: offset)
            log.append("byte inserted at \(offset)")
        case 3:
            bytes.insert(
                contentsOf: random.pick([[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80]] as [[UInt8]]), at: offset)
            log.append("invalid UTF-8 at \(offset)")
        case 4:
            bytes += Array(random.pick([",", " {}", "\u{0}", "]", "\n\n"]).utf8)
            log.append("trailing bytes")
        default:
            bytes = Array(random.pick(["", " ", "[]", "null", "\"propose\"", "{}", "[{\"type\":\"plans\"}]"]).utf8)
            log.append("replaced by a non-object")
        }
        return bytes
    }
}
