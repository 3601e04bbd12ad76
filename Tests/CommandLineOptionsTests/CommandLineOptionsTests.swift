import CommandLineOptions
import Testing

@Suite("CommandLineOptions: one parser, the same rules for every command")
struct CommandLineOptionsTests {
    static let values: Set<String> = ["--port", "--title", "--rate"]
    static let flags: Set<String> = ["--quiet"]

    func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
        try ParsedArguments(arguments, valueOptions: Self.values, flagOptions: Self.flags)
    }

    @Test("--x y and --x=y mean the same; options and positionals mix in any order")
    func bothForms() throws {
        let separate = try parse(["serve", "--port", "80", "--quiet", "extra"])
        let joined = try parse(["serve", "--port=80", "--quiet", "extra"])
        #expect(separate == joined)
        #expect(separate.value("--port") == "80" && separate.flag("--quiet"))
        #expect(separate.positionals == ["serve", "extra"])
        #expect(try parse(["--title=a=b"]).value("--title") == "a=b")
        #expect(try parse(["--title="]).value("--title") == "")
        #expect(try parse(["--rate", "-3"]).value("--rate") == "-3")
    }

    @Test(
        "unknown, repeated, valueless and over-valued options are refused, naming the option",
        arguments: [
            (["--prot", "80"], CommandLineError.unknown("--prot")),
            (["--prot=80"], .unknown("--prot")),
            (["-x"], .unknown("-x")),
            (["--port", "1", "--port", "2"], .repeated("--port")),
            (["--port=1", "--port", "2"], .repeated("--port")),
            (["--quiet", "--quiet"], .repeated("--quiet")),
            (["--port"], .missingValue("--port")),
            (["--port", "--quiet"], .missingValue("--port")),
            (["--quiet=yes"], .unexpectedValue("--quiet")),
        ])
    func refused(arguments: [String], error: CommandLineError) {
        #expect(throws: error) { try parse(arguments) }
    }

    @Test("the messages name the option")
    func messages() {
        #expect(CommandLineError.unknown("--prot").description == "unknown option --prot")
        #expect(CommandLineError.repeated("--port").description == "--port is given twice")
        #expect(CommandLineError.missingValue("--port").description == "--port needs a value")
        #expect(CommandLineError.unexpectedValue("--quiet").description == "--quiet takes no value")
        #expect(CommandLineError.badValue("--port", "x", expected: "0 to 9").description == "--port x: expected 0 to 9")
        #expect(CommandLineError.missingArgument("NAME").description == "missing NAME")
        #expect(CommandLineError.unexpectedArgument("y").description == "unexpected argument y")
    }

    @Test("--help and -h stand anywhere; - is a positional; after -- everything is")
    func helpAndPositionals() throws {
        #expect(try parse(["serve", "--help"]).help)
        #expect(try parse(["-h", "--port", "1"]).help)
        #expect(try !parse(["serve"]).help)
        #expect(try parse(["propose", "-"]).positionals == ["propose", "-"])
        let rest = try parse(["--port", "1", "--", "--title", "-h"])
        #expect(rest.positionals == ["--title", "-h"] && !rest.help && rest.value("--title") == nil)
    }

    @Test("a subcommand refuses the options it does not take")
    func only() throws {
        let parsed = try parse(["user", "add", "x", "--title", "t", "--quiet"])
        #expect(throws: CommandLineError.unknown("--quiet")) { try parsed.only(["--title"]) }
        #expect(throws: CommandLineError.unknown("--title")) { try parsed.only(["--quiet"]) }
        #expect(throws: Never.self) { try parsed.only(["--title", "--quiet"]) }
    }

    @Test("positionals: required ones named, surplus ones refused")
    func positionals() throws {
        let parsed = try parse(["user", "add"])
        #expect(try parsed.positional(1, "WHAT") == "add")
        #expect(throws: CommandLineError.missingArgument("NAME")) { try parsed.positional(2, "NAME") }
        #expect(throws: CommandLineError.unexpectedArgument("add")) { try parsed.noPositionals(after: 1) }
        #expect(throws: Never.self) { try parsed.noPositionals(after: 2) }
    }

    @Test("numbers: a lower bound or a range, nil when absent, refused otherwise")
    func numbers() throws {
        let parsed = try parse(["--port", "80", "--rate", "0.5"])
        #expect(try parsed.number("--port", in: 0...65535) == 80)
        #expect(try parsed.number("--rate", atLeast: 0.001) == 0.5)
        #expect(try parsed.number("--title", atLeast: 1) as Int? == nil)
        #expect(throws: CommandLineError.badValue("--port", "80", expected: "1 to 64")) {
            try parsed.number("--port", in: 1...64) as Int?
        }
        #expect(throws: CommandLineError.badValue("--rate", "0.5", expected: "a number of at least 1")) {
            try parsed.number("--rate", atLeast: 1) as Int?
        }
    }
}
