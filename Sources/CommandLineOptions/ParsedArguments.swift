/// One command line split into options and positional arguments, by the rules every ChronoSketch
/// command shares:
/// - `--name value` and `--name=value` mean the same; a flag takes no value;
/// - an option nobody declared is refused, naming it; so is an option given twice;
/// - `--help` (or `-h`) may stand anywhere and is reported, never refused;
/// - `-` is a positional (standard input); after `--` everything is positional.
public struct ParsedArguments: Sendable, Equatable {
    /// The arguments that are not options, in order.
    public private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    public private(set) var help = false
    /// The options given with a value, by name (`--name`).
    public private(set) var values: [String: String] = [:]
    /// The flags given, by name.
    public private(set) var flags: Set<String> = []

    /// Splits `arguments` (without the program name). `valueOptions` take a value and `flagOptions`
    /// take none; both are full names such as `--port`.
    /// - Throws: `CommandLineError` for an unknown or repeated option, a missing value, or a value
    ///   given to a flag.
    public init(
        _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String> = []
    ) throws(CommandLineError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let (name, inline) = Self.split(argument)
            if name == "--help" || name == "-h" {
                help = true
            } else if flagOptions.contains(name) {
                guard inline == nil else { throw .unexpectedValue(name) }
                guard flags.insert(name).inserted else { throw .repeated(name) }
            } else if valueOptions.contains(name) {
                guard values[name] == nil else { throw .repeated(name) }
                if let inline {
                    values[name] = inline
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else { throw .missingValue(name) }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw .unknown(name)
            }
        }
    }

    /// `--name=value` as its two parts; anything else as the name alone.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The value of option `name`, if given.
    public func value(_ name: String) -> String? { values[name] }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Refuses every given option outside `allowed` (for a subcommand that takes fewer options
    /// than the command line as a whole knows).
    /// - Throws: `CommandLineError.unknown` naming the first such option, in name order.
    public func only(_ allowed: Set<String>) throws(CommandLineError) {
        if let stray = (Set(values.keys).union(flags)).subtracting(allowed).sorted().first {
            throw .unknown(stray)
        }
    }

    /// The positional at `index`.
    /// - Throws: `CommandLineError.missingArgument(name)` when there is none.
    public func positional(_ index: Int, _ name: String) throws(CommandLineError) -> String {
        guard index < positionals.count else { throw .missingArgument(name) }
        return positionals[index]
    }

    /// Refuses positionals beyond the first `count`.
    /// - Throws: `CommandLineError.unexpectedArgument` naming the first surplus one.
    public func noPositionals(after count: Int) throws(CommandLineError) {
        if positionals.count > count { throw .unexpectedArgument(positionals[count]) }
    }

    /// The value of `name` read as a number of at least `minimum`, or nil when not given.
    /// - Throws: `CommandLineError.badValue` when it is not such a number.
    public func number<T: LosslessStringConvertible & Comparable>(
        _ name: String, atLeast minimum: T
    ) throws(CommandLineError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = T(text), value >= minimum else {
            throw .badValue(name, text, expected: "a number of at least \(minimum)")
        }
        return value
    }

    /// The value of `name` read as a number in `range`, or nil when not given.
    /// - Throws: `CommandLineError.badValue` when it is not such a number.
    public func number<T: LosslessStringConvertible & Comparable>(
        _ name: String, in range: ClosedRange<T>
    ) throws(CommandLineError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = T(text), range.contains(value) else {
            throw .badValue(name, text, expected: "\(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
