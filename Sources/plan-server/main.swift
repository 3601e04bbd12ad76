// plan-server: the ChronoSketch plan server's command line (serve, migrate, user add, grant, plan).
import Glibc
import PlanServer
import SystemSupport

exit(ServerCommands.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessIO.environment()))
