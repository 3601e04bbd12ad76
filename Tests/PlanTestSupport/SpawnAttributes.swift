import Glibc

/// Spawn attributes that give a child process the signal state a shell would give it: no signal
/// blocked, and SIGHUP, SIGINT, SIGTERM and SIGPIPE at their default actions.
///
/// A child inherits its parent thread's signal mask, and the threads tests run on may block
/// signals. A tmux server spawned from such a thread blocked SIGTERM, so the SIGTERM its own
/// `kill-server` sends itself never arrived: the server, and the client in it, ran on after the
/// test (five sessions left behind per run of the terminal suites).
public func withCleanSignals<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return withUnsafePointer(to: &attributes) { body($0) }
}
