import Glibc
import PlanTerminal

exit(await PlanCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
