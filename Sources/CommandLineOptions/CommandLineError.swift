/// Why a command line was refused. Each case names the option or argument at fault; `description`
/// is the English message, and a localized client can switch over the cases instead.
public enum CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option the command does not know.
    case unknown(String)
    /// An option given twice.
    case repeated(String)
    /// An option that needs a value and has none.
    case missingValue(String)
    /// A flag given a value (`--quiet=yes`).
    case unexpectedValue(String)
    /// An option whose value is not what it takes: the option, the value, what it expects.
    case badValue(String, String, expected: String)
    /// A required positional argument that is missing, by its name in the usage (`NAME`).
    case missingArgument(String)
    /// A positional argument nothing takes.
    case unexpectedArgument(String)
    /// Anything else, as a whole message.
    case other(String)

    /// The English message.
    public var description: String {
        switch self {
        case .unknown(let name): "unknown option \(name)"
        case .repeated(let name): "\(name) is given twice"
        case .missingValue(let name): "\(name) needs a value"
        case .unexpectedValue(let name): "\(name) takes no value"
        case .badValue(let name, let value, let expected): "\(name) \(value): expected \(expected)"
        case .missingArgument(let name): "missing \(name)"
        case .unexpectedArgument(let argument): "unexpected argument \(argument)"
        case .other(let message): message
        }
    }
}
