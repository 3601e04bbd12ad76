import ChronoSketchCore

/// A plan read from another tool's file, with every point where the file held more than a plan
/// can (interchange.md §7): the importer keeps what it can exactly and says what it dropped.
public struct ImportedPlan: Sendable {
    /// The plan, ready to be created (a manual plan with the file's calendar).
    public var document: PlanDocument
    /// What was dropped or converted, in the order it was met.
    public var warnings: [ImportWarning]

    /// Creates an imported plan.
    public init(document: PlanDocument, warnings: [ImportWarning]) {
        self.document = document
        self.warnings = warnings
    }
}

/// One lossy point of an import or export: `warning: CODE: text` on the command line.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
    /// The code of interchange.md §7 (`nullTask`, `summaryDependency`, …).
    public let code: String
    /// What was dropped or converted, in words.
    public let text: String

    /// Creates a warning.
    public init(_ code: String, _ text: String) {
        self.code = code
        self.text = text
    }

    /// `warning: CODE: text`.
    public var description: String { "warning: \(code): \(text)" }
}

/// Why a file could not be imported; nothing is created.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words a user can act on.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Warnings collected while reading. The same code met many times gives one line (the first
/// case and how many more), so that a file with ten thousand blank rows says so once.
struct WarningLog {
    private var texts: [String: [String]] = [:]
    private var order: [String] = []

    /// Notes one case of `code`.
    mutating func add(_ code: String, _ text: String) {
        if texts[code] == nil { order.append(code) }
        texts[code, default: []].append(text)
    }

    /// One warning per code, in the order the codes were first met.
    var warnings: [ImportWarning] {
        order.map { code in
            let cases = texts[code]!
            let more = cases.count - 1
            return ImportWarning(code, cases[0] + (more > 0 ? " (and \(more) more like it)" : ""))
        }
    }
}
