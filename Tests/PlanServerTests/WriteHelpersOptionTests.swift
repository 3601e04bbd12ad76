import CommandLineOptions
import Testing

@testable import PlanServer

@Suite("Server: --write-helpers")
struct WriteHelpersOptionTests {
    @Test("one helper per service thread by default; 0 turns them off; past 16, or not a number, is refused")
    func option() throws {
        func configuration(_ arguments: [String]) throws(CommandLineError) -> ServerConfiguration {
            let options = try ParsedArguments(arguments, valueOptions: ServerConfiguration.serveValueOptions)
            return try ServerConfiguration(databaseURL: "", options: options)
        }
        #expect(try configuration([]).transportConfiguration.writeHelpers == 1)
        #expect(try configuration(["--write-helpers", "0"]).transportConfiguration.writeHelpers == 0)
        #expect(try configuration(["--write-helpers", "3"]).transportConfiguration.writeHelpers == 3)
        for value in ["17", "-1", "some"] {
            #expect {
                _ = try configuration(["--write-helpers", value])
            } throws: { error in
                "\(error)".contains("--write-helpers")
            }
        }
    }
}
