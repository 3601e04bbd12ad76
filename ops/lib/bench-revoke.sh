# ops/bench's revoke scenario (sourced by it): protocol §11, `plan-server user revoke NAME` closes
# every open session of NAME within one second, across server processes.

# 9. revoke: a second server process on the same database, REVOKE_SESSIONS sessions of a fresh
# user spread over both, then `plan-server user revoke`: each session's 1008 close timed from the
# command's start and from its exit.
revoke() {
    local user="revokee$$" user_token second second_port status=0 start end
    user_token=$("$bin/plan-server" user add "$user" | tail -n 1)
    "${SERVER_BIN:-$bin/plan-server}" serve --port 0 --quiet $connection_limits ${SERVER_ARGS:-} \
        >"$dir/revoke-b.out" 2>"$dir/revoke-b.log" &
    second=$!
    for _ in $(seq 300); do grep -q "listening on" "$dir/revoke-b.out" 2>/dev/null && break; sleep 0.1; done
    second_port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$dir/revoke-b.out")
    "$bin/revoke-bench" --server "ws://127.0.0.1:$port/ws,ws://127.0.0.1:$second_port/ws" --token "$user_token" \
        --sessions "${REVOKE_SESSIONS:-200}" --timeout "${REVOKE_TIMEOUT:-30}" >"$dir/revoke.json" 2>"$dir/revoke.err" &
    local bench=$!
    for _ in $(seq 600); do grep -q "^ready\|^only" "$dir/revoke.err" 2>/dev/null && break; sleep 0.1; done
    start=$(now_ms)
    "$bin/plan-server" user revoke "$user" >/dev/null
    end=$(now_ms)
    wait "$bench" || status=$?
    kill -TERM "$second" 2>/dev/null || true
    wait "$second" 2>/dev/null || true
    [ "$status" -ne 0 ] && failed=1
    python3 - "$dir/revoke.json" "$start" "$end" "$(head -n 1 "$dir/revoke.err")" <<'EOF' || failed=1
import json, math, sys
text = open(sys.argv[1]).read().strip()
run = json.loads(text or '{"sessions": 0, "closed": 0, "close_unix_ms": []}')
start, end = int(sys.argv[2]), int(sys.argv[3])
def figures(origin, name):
    delays = sorted(t - origin for t in run["close_unix_ms"])
    if not delays:
        return f"{name}_p50_ms=None {name}_p99_ms=None {name}_max_ms=None"
    def pick(fraction): return delays[min(len(delays) - 1, max(0, math.ceil(len(delays) * fraction) - 1))]
    return f"{name}_p50_ms={pick(0.5)} {name}_p99_ms={pick(0.99)} {name}_max_ms={delays[-1]}"
within = sum(1 for t in run["close_unix_ms"] if t - start <= 1000)
print(f"== revoke: sessions={run['sessions']} welcomed={run.get('welcomed')} closed={run['closed']}"
      f" closed_1008={run.get('closed_1008')} command_ms={end - start} {figures(start, 'from_start')}"
      f" {figures(end, 'from_exit')} closed_within_1s={within}   ({sys.argv[4]})")
ok = run["sessions"] > 0 and run.get("closed_1008") == run["sessions"] and within == run["sessions"]
sys.exit(0 if ok else 1)
EOF
}
