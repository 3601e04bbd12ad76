# ops/bench's fault scenarios (sourced by it): partition, outage and kill, and the check of the
# plan's log against the edits plan-load saw acked that all three use.

# check_log NAME [DOWN UP]: the plan NAME's log, decisions and version against $dir/NAME.answers
# (ops/lib/bench-check-log.py); prints `== NAME…` and records a failure.
check_log() {
    local name=$1
    shift
    psql "$DATABASE_URL" -Atqc "SELECT version, proposal_id FROM mutations WHERE plan_id = '$name' ORDER BY version" \
        >"$dir/$name.log"
    psql "$DATABASE_URL" -Atqc "SELECT proposal_id, version FROM decisions WHERE plan_id = '$name'
        AND outcome = 'ack' AND NOT noop" >"$dir/$name.decisions"
    psql "$DATABASE_URL" -Atqc "SELECT version FROM plans WHERE id = '$name'" >"$dir/$name.version"
    python3 ops/lib/bench-check-log.py "$name" "$dir" "$@" || failed=1
}

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

# 6. partition: the namespaces and their link, then one run per cut.
partition() {
    local srv=cs-bench-srv cli=cs-bench-cli subnet=10.215.1 cut
    ip netns del "$srv" 2>/dev/null || true
    ip netns del "$cli" 2>/dev/null || true
    ip netns add "$srv"
    ip netns add "$cli"
    ip link add cs-bench-vs type veth peer name cs-bench-vc
    ip link set cs-bench-vs netns "$srv"
    ip link set cs-bench-vc netns "$cli"
    ip -n "$srv" addr add "$subnet.1/24" dev cs-bench-vs
    ip -n "$cli" addr add "$subnet.2/24" dev cs-bench-vc
    for ns in "$srv" "$cli"; do ip -n "$ns" link set lo up; done
    ip -n "$srv" link set cs-bench-vs up
    ip -n "$cli" link set cs-bench-vc up
    for cut in ${PARTITION_CUTS:-2 60}; do partition_cut "$cut"; done
    ip netns del "$srv"
    ip netns del "$cli"
}

# partition_cut SECONDS: a fresh server and plan, the load, the link cut for SECONDS, the checks,
# then the server's memory once the plan has left it.
partition_cut() {
    local cut=$1 name="partition-$1" status=0 pid loader netport
    plan "$name" ops/demo-plan.json
    : >"$dir/$name.out"
    ip netns exec "$srv" "${SERVER_BIN:-$bin/plan-server}" serve --host "$subnet.1" --port 0 \
        --max-proposals-per-second 100000 $connection_limits --ping-interval-seconds 5 \
        --idle-plan-seconds "${PARTITION_IDLE_PLAN_SECONDS:-5}" >"$dir/$name.out" 2>"$dir/$name.server.log" &
    pid=$!
    for _ in $(seq 100); do grep -q "listening on" "$dir/$name.out" 2>/dev/null && break; sleep 0.1; done
    netport=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$dir/$name.out")
    [ -n "$netport" ] || { echo "the server in $srv did not start" >&2; cat "$dir/$name.server.log" >&2; kill "$pid" 2>/dev/null; failed=1; return; }
    local start_kib before_kib after_kib idle_kib unloaded_s=""
    start_kib=$(rss_kib "$pid")
    ip netns exec "$cli" "$bin/plan-load" --server "ws://$subnet.1:$netport/ws" --token "$token" \
        --plan "$name" --viewers "${PARTITION_VIEWERS:-1000}" --editors 10 --rate 50 \
        --duration $((cut + ${PARTITION_AFTER:-40})) --reconnect --idle-timeout 15 --retry-unavailable --sample 10 \
        --answers "$dir/$name.answers" --json >"$dir/$name.json" 2>"$dir/$name.err" &
    loader=$!
    for _ in $(seq 600); do grep -q "viewers subscribed after" "$dir/$name.err" 2>/dev/null && break; sleep 0.2; done
    sleep "${PARTITION_BEFORE:-10}"
    before_kib=$(rss_kib "$pid")
    ip -n "$cli" link set cs-bench-vc down
    sleep "$cut"
    ip -n "$cli" link set cs-bench-vc up
    wait "$loader" || status=$?
    after_kib=$(rss_kib "$pid")
    last_json=$(cat "$dir/$name.json")
    report_load "$name" "$status" viewers proposals confirmed gaps converged viewer_reconnects \
        viewers_resumed viewers_resumed_with_snapshot editor_reconnects answered_twice conflicting_decisions \
        fanout_p99_ms ack_p99_ms
    check_log "$name"
    # Every connection is closed: the plan leaves memory after --idle-plan-seconds, and the
    # allocator's free memory goes back to the system every 10 s after that.
    local waited=$SECONDS metrics
    for _ in $(seq 600); do
        metrics=$(ip netns exec "$cli" curl -s -m 2 "http://$subnet.1:$netport/metrics" || true)
        grep -qx 'chronosketch_loaded_plans 0' <<<"$metrics" && { unloaded_s=$((SECONDS - waited)); break; }
        sleep 0.1
    done
    sleep 11
    idle_kib=$(rss_kib "$pid")
    echo "== $name memory: rss_start_kib=$start_kib rss_before_cut_kib=$before_kib rss_after_run_kib=$after_kib" \
        "rss_plan_unloaded_kib=$idle_kib plan_unloaded_after_s=${unloaded_s:-never}" \
        "connections_left=$(sed -n 's/^chronosketch_connections //p' <<<"$metrics")"
    [ -n "$unloaded_s" ] || failed=1
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
    # Why the server closed connections (its log names each close's code and reason).
    echo "   server closes: $(sed -n 's/.* closed with \([0-9]*\) (\([^)]*\)).*/\1 (\2)/p' "$dir/$name.server.log" \
        | sed 's/[0-9][0-9]* s)/N s)/' | sort | uniq -c | sed 's/^ *//' | paste -sd ';' -)"
}

# fault outage|kill: the load of scenarios 6 and 7, the fault 5 s into it, then the checks.
fault() {
    local name=$1 status=0
    plan "$name" ops/demo-plan.json
    load --plan "$name" --viewers "${FAULT_VIEWERS:-50}" --sample 10 --editors 2 --rate "${FAULT_RATE:-40}" \
        --duration "${FAULT_DURATION:-30}" --reconnect --retry-unavailable --answers "$dir/$name.answers" \
        >"$dir/$name.json" 2>"$dir/$name.err" &
    local loader=$!
    # plan-load prints "t=5 s: …" after five seconds of proposing.
    for _ in $(seq 600); do grep -q "^t=5 s" "$dir/$name.err" 2>/dev/null && break; sleep 0.1; done
    # /healthz every 50 ms: "UNIX_MS CODE" lines (000: nothing listens).
    (while :; do
        echo "$(now_ms) $(curl -s -o /dev/null -m 1 -w '%{http_code}' "http://127.0.0.1:$port/healthz" || true)"
        sleep 0.05
    done) >"$dir/$name.health" &
    local poller=$! down up
    down=$(now_ms)
    if [ "$name" = outage ]; then
        ops/pg kill "$dir"
        sleep "${OUTAGE_SECONDS:-10}"
        PGPORT_PRIVATE=$pgport ops/pg start "$dir" >/dev/null
    else
        kill -KILL "$server_pid"
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
        sleep "${KILL_SECONDS:-3}"
        start_server
    fi
    up=$(now_ms)
    echo "   $name: back $((up - down)) ms after the fault"
    wait "$loader" || status=$?
    kill "$poller" 2>/dev/null || true
    wait "$poller" 2>/dev/null || true
    # A plan-load failure (a divergence, or no figures at all) fails the run; its JSON is printed below.
    [ "$status" -ne 0 ] && failed=1
    # What the database holds (the plan's log, its decisions and version) against what plan-load
    # saw acked, and /healthz around the fault.
    check_log "$name" "$down" "$up"
}
