extension ServerCommands {
    /// `plan-server --help`: every subcommand.
    static let usage = """
        usage:
          plan-server serve [--host 127.0.0.1] [--port 8080] [--database URL] [--tls-cert PEM --tls-key PEM] …
          plan-server migrate [--database URL]
          plan-server user add NAME [--database URL]       prints a new secret token as its last line
          plan-server user revoke NAME [--database URL]    every token of NAME stops working; its sessions close
          plan-server user token NAME [--database URL]     prints a new token for NAME as its last line
          plan-server grant USER PLAN viewer|editor|owner [--database URL]
          plan-server plan create ID --title T [--import FILE [--format json|msproject|gantt]] [--database URL]
          plan-server plan export ID [--version V] [--format json|msproject|csv|ics] [--database URL]   the plan (as of V)
          plan-server plan history ID [--since V] [--database URL]   the audit trail, one JSON line per version
          plan-server feed create NAME PLAN [--database URL]   prints PLAN's calendar feed path with NAME's key
          plan-server feed list NAME [--database URL]          NAME's feed keys: plan, path, created
          plan-server feed revoke NAME PLAN [--database URL]   that feed address stops working
        The database comes from --database or DATABASE_URL (a libpq URI or keyword string).
        Options take their value as --name VALUE or --name=VALUE; each may be given once.
        `plan-server SUBCOMMAND --help` explains a subcommand.
        """

    /// `plan-server feed --help`.
    static let feedUsage = """
        usage: plan-server feed create NAME PLAN | feed list NAME | feed revoke NAME PLAN [--database URL]
        A feed key lets a calendar application, which sends no header, read PLAN's calendar at
        /plans/PLAN/calendar.ics?key=KEY, and nothing else. NAME needs a role on PLAN; asking again
        prints the same key. A key stops working on feed revoke, when NAME's role on PLAN ends,
        and on user revoke. Only its SHA-256 is stored.

        """

    /// `plan-server SUBCOMMAND --help`.
    static func usage(of command: Subcommand) -> String {
        let database = "  --database URL   the database (default: DATABASE_URL)\n"
        switch command {
        case .serve:
            return """
                usage: plan-server serve [options]
                Serves ws://HOST:PORT/ws (wss:// with --tls-cert and --tls-key), /healthz, /metrics and the
                web client at / until SIGTERM or SIGINT; prints "listening on HOST:PORT" once it accepts
                connections.
                  --host 127.0.0.1               the interface      --port 8080   (0: a free port)
                  --tls-cert PEM --tls-key PEM   serve wss://        --instance NAME  (default s<pid>)
                  --quiet                        no log lines
                  --max-message-bytes N  --max-queue-bytes N  --max-proposals-per-second N
                  --max-tasks-per-plan N  --max-watches-per-connection N  --max-assignments-per-entry N
                                                 the limits announced in welcome (each at least 1)
                  --frame-interval-ms 100        --idle-plan-seconds 30     --service-threads 1 (1 to 64)
                  --write-helpers 1 (0 to 16: threads per service thread sharing a broadcast to thousands)
                  --log-keep 0 (0: keep all)     --hello-timeout-seconds 10 (1 to 3600)
                  --ping-interval-seconds 20 (0 to 3600; 0: no pings)  --max-intake-backlog 10000 (≥ 2)
                  --max-connections-per-user 1000  --max-connections-per-address 2000   (0: no limit)
                  --trusted-proxy CIDR,CIDR…     proxies whose PROXY header or X-Forwarded-For names the
                                                 client (one comma-separated list, such as
                                                 127.0.0.1/32,10.0.0.0/8,::1/128; default: none)
                  --checkpoint-every 500 (≥ 1: versions between full copies of a plan, for fetch)
                  --max-user-queue-bytes 134217728   unsent bytes one user's connections may hold together
                  --write-timeout-seconds 30         unsent bytes may wait this long for a byte of progress
                  --queue-budget-bytes 1073741824    unsent bytes all connections may hold (0: no budget)
                  --max-intake-per-connection 64     a connection's messages waiting for the hub (≥ 2)
                  --web-root DIR                 the web client's files, read at start (default: PLAN_WEB_ROOT,
                                                 else clients/web beside or above the binary; none: / is 404)

                """ + database
        case .migrate:
            return "usage: plan-server migrate [--database URL]\nApplies the sql/ migrations (PLAN_SQL_DIR); "
                + "safe to repeat.\n" + database
        case .userAdd:
            return "usage: plan-server user add NAME [--database URL]\nCreates a user and prints its secret "
                + "token as the last line (shown only now; only its SHA-256 is stored).\n" + database
        case .userRevoke:
            return "usage: plan-server user revoke NAME [--database URL]\nDeletes every token of NAME: no old "
                + "token is accepted again, and every open session of NAME, on every server\nprocess of the "
                + "database, is closed with 1008 within a second. The user and its roles stay.\n" + database
        case .userToken:
            return "usage: plan-server user token NAME [--database URL]\nIssues another token for NAME and "
                + "prints it as the last line (shown only now; only its SHA-256 is stored).\n" + database
        case .grant:
            return "usage: plan-server grant USER PLAN viewer|editor|owner [--database URL]\nGives USER that "
                + "role on PLAN (replacing any other); open sessions of USER use it at once.\n" + database
        case .planCreate:
            return """
                usage: plan-server plan create ID --title T [--import FILE [--format json|msproject|gantt]] [--database URL]
                Creates plan ID, empty with title T, or with FILE's data (validated as a whole, like a
                proposal); with --import, --title may be left out (the file's title is kept). FILE is our
                JSON export or MS Project XML, told apart by its content (--format names it instead);
                what the file holds that a plan cannot is listed on stderr as "warning: CODE: text".

                """ + database
        case .planExport:
            return """
                usage: plan-server plan export ID [--version V] [--format json|msproject|csv|ics] [--database URL]
                Prints the plan's data, current or as it was at version V, as one JSON object: id, version
                and the import shape (title, tasks, dependencies, resources, entries, assignments, and
                baselines when there are any), so it can be imported again (without the baselines).
                --format msproject writes MS Project XML (what it cannot hold is listed on stderr),
                csv one row per task (RFC 4180), ics an iCalendar of the dated tasks (RFC 5545).

                """ + database
        case .feedCreate, .feedList, .feedRevoke:
            return feedUsage + database
        case .planHistory:
            return """
                usage: plan-server plan history ID [--since V] [--database URL]
                Prints the audit trail of the versions after V (default: all the log holds), oldest
                first, one JSON object per line: version, at, mutation (id, user, undoes), op, changes.

                """ + database
        }
    }
}
