import ChronoSketchCore
import CommandLineOptions
import PlanInterchange
import PlanProtocol
import PlanStore
import SystemSupport

/// `plan-server` subcommands (protocol.md §8). `main.swift` only hands over the arguments.
public enum ServerCommands {
    /// The subcommands, by the words that name them.
    enum Subcommand: String, CaseIterable {
        case serve, migrate, grant
        case userAdd = "user add"
        case userRevoke = "user revoke"
        case userToken = "user token"
        case planCreate = "plan create"
        case planExport = "plan export"
        case planHistory = "plan history"
        case feedCreate = "feed create"
        case feedList = "feed list"
        case feedRevoke = "feed revoke"

        /// How many positionals its name takes.
        var words: Int { rawValue.split(separator: " ").count }

        /// The options it takes with a value.
        var valueOptions: Set<String> {
            switch self {
            case .serve: ServerConfiguration.serveValueOptions
            case .planCreate: ["--database", "--title", "--import", "--format"]
            case .planExport: ["--database", "--version", "--format"]
            case .planHistory: ["--database", "--since"]
            case .migrate, .grant, .userAdd, .userRevoke, .userToken, .feedCreate, .feedList, .feedRevoke:
                ["--database"]
            }
        }

        /// The flags it takes.
        var flagOptions: Set<String> { self == .serve ? ServerConfiguration.serveFlagOptions : [] }
    }

    /// Runs one subcommand; returns the process exit code (0 done, 1 failed, 2 refused).
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        do {
            let options = try ParsedArguments(
                arguments, valueOptions: Subcommand.allCases.reduce(into: []) { $0.formUnion($1.valueOptions) },
                flagOptions: ServerConfiguration.serveFlagOptions)
            guard let command = subcommand(options.positionals) else {
                if options.positionals.isEmpty || options.help {
                    options.help ? ProcessIO.print(usage) : ProcessIO.printError(usage)
                    return options.help ? 0 : 2
                }
                throw CommandLineError.other("unknown command \(options.positionals.joined(separator: " "))")
            }
            if options.help {
                ProcessIO.print(usage(of: command))
                return 0
            }
            try options.only(command.valueOptions.union(command.flagOptions))
            let database = options.value("--database") ?? environment["DATABASE_URL"]
            return try run(command, options: options, database: database, environment: environment)
        } catch let error as CommandLineError {
            ProcessIO.printError("plan-server: \(error.description)\nTry plan-server --help.")
            return 2
        } catch let error as CommandError {
            ProcessIO.printError("plan-server: \(error.message)")
            return error.status
        } catch {
            ProcessIO.printError("plan-server: \(error)")
            return 1
        }
    }

    /// The subcommand the first positionals name, if any.
    static func subcommand(_ positionals: [String]) -> Subcommand? {
        Subcommand.allCases.first { command in
            positionals.prefix(command.words).joined(separator: " ") == command.rawValue
        }
    }

    private static func run(
        _ command: Subcommand, options: ParsedArguments, database: String?, environment: [String: String]
    ) throws -> Int32 {
        func store() throws(CommandError) -> PlanStore {
            guard let database, !database.isEmpty else {
                throw CommandError("no database: pass --database or set DATABASE_URL")
            }
            return PlanStore(conninfo: database, connections: 1)
        }
        switch command {
        case .serve:
            try options.noPositionals(after: 1)
            guard let database, !database.isEmpty else {
                throw CommandError("no database: pass --database or set DATABASE_URL")
            }
            return try serve(ServerConfiguration(databaseURL: database, options: options, environment: environment))
        case .migrate:
            try options.noPositionals(after: 1)
            let applied = try store().migrate(directory: Migrator.defaultDirectory(environment: environment))
            ProcessIO.print(
                applied.isEmpty ? "the schema is up to date" : "applied: \(applied.joined(separator: ", "))")
        case .userAdd:
            let name = try options.positional(2, "NAME")
            try options.noPositionals(after: 3)
            let token = try store().createUser(name)
            ProcessIO.print("created user \(name); its token (shown only now):\n\(token)")
        case .userRevoke:
            let name = try options.positional(2, "NAME")
            try options.noPositionals(after: 3)
            let count = try store().revokeTokens(of: name)
            ProcessIO.print("revoked \(count) token\(count == 1 ? "" : "s") of \(name); its open sessions are closed")
        case .userToken:
            let name = try options.positional(2, "NAME")
            try options.noPositionals(after: 3)
            let token = try store().issueToken(for: name)
            ProcessIO.print("a new token for \(name) (shown only now):\n\(token)")
        case .grant:
            try grant(options, store: store())
        case .planCreate:
            try createPlan(options, store: store)
        case .planExport:
            try exportPlan(options, store: store())
        case .planHistory:
            try printHistory(options, store: store())
        case .feedCreate, .feedList, .feedRevoke:
            try feed(command, options, store: store())
        }
        return 0
    }

    private static func grant(_ options: ParsedArguments, store: PlanStore) throws {
        let user = try options.positional(1, "USER")
        let plan = try options.positional(2, "PLAN")
        let roleName = try options.positional(3, "ROLE")
        try options.noPositionals(after: 4)
        guard let role = PlanRole(rawValue: roleName) else {
            throw CommandError("the role must be viewer, editor or owner, not \(roleName)")
        }
        try store.grant(user: user, plan: plan, role: role)
        ProcessIO.print("\(user) is \(role.rawValue) of \(plan)")
    }

    /// `plan create ID --title T [--import FILE]`: with a file, `--title` may be left out (the
    /// file's title is kept) and, when given, replaces it. The id and the document are held to
    /// the limits of every proposal (ids, titles, tasks per plan, assignments per entry).
    private static func createPlan(_ options: ParsedArguments, store: () throws -> PlanStore) throws {
        let id = try options.positional(2, "ID")
        try options.noPositionals(after: 3)
        let title = options.value("--title")
        let file = options.value("--import")
        guard title != nil || file != nil else { throw CommandError("plan create needs --title (or --import)") }
        if let problem = ProtocolLimits.standard.idProblem(id) ?? TextPolicy.problem(id) {
            throw CommandError("the plan id \(problem)")
        }
        var document = PlanDocument(title: title ?? id, state: PlanState())
        if let file {
            let formatName = options.value("--format")
            let format = try formatName.map { name in
                guard let format = InterchangeFormat(rawValue: name) else {
                    throw CommandError("--format must be json, msproject or gantt, not \(name)")
                }
                return format
            }
            let imported: ImportedPlan
            do {
                imported = try Files.withChunks(of: file) { next in try PlanImport.read(chunks: next, format: format) }
            } catch {
                throw CommandError("\(file): \(error)", status: 1)
            }
            document = imported.document
            for warning in imported.warnings { ProcessIO.printError("\(warning)") }
            if let title {
                document.title = title
            } else if GanttTask.isBlank(document.title) {
                document.title = id
            }
        }
        // The limits every later proposal is held to (protocol.md §1, the defaults).
        if let problem = document.limitProblem(.standard) {
            throw CommandError("the plan breaks a limit: \(problem)", status: 1)
        }
        try store().createPlan(id: id, document: document)
        ProcessIO.print("created plan \(id) (\(document.state.tasks.count) tasks)")
    }
}

struct CommandError: Error {
    let message: String
    /// The exit status: 2 for a command that cannot run as given, 1 for one that ran and failed
    /// (an unknown plan, a version outside the history).
    let status: Int32
    init(_ message: String, status: Int32 = 2) {
        self.message = message
        self.status = status
    }

    /// The plan `id` does not exist (exit status 1).
    static func noPlan(_ id: String) -> CommandError { CommandError("no plan \(id)", status: 1) }
}
