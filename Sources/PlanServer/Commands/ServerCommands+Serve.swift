import CNetwork
import Dispatch
import Glibc
import PlanStore
import SystemSupport

extension ServerCommands {
    /// Serves until SIGTERM or SIGINT, then shuts down gracefully.
    static func serve(_ configuration: ServerConfiguration) throws -> Int32 {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        // Before any thread starts: one heap for every thread (see cn_use_one_heap_arena).
        cn_use_one_heap_arena()
        if let warning = DatabaseAddress.multiHostWarning(configuration.databaseURL) {
            ProcessIO.printError("plan-server: warning: \(warning)")
        }
        let runtime = try PlanServerRuntime(configuration: configuration)
        // Tests and scripts read the chosen port from this line.
        ProcessIO.print("listening on \(configuration.host):\(runtime.port)")
        let done = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        // A graceful stop gets 30 s (a second signal ends it at once): SIGTERM always ends the
        // process, even if a commit or a socket never finishes.
        let watchdog = DispatchSemaphore(value: 0)
        for source in sources { source.setEventHandler { watchdog.signal() } }
        DispatchQueue.global().async {
            _ = watchdog.wait(timeout: .now() + 30)
            ProcessIO.printError("plan-server: the graceful shutdown did not finish; exiting")
            exit(1)
        }
        runtime.shutdown()
        return 0
    }
}
