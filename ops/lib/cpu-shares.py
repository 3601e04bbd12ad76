#!/usr/bin/env python3
"""Where the machine's cores went over a window, by who used them: `cpu-shares.py DELAY SECONDS
[SERVER_PID]` waits DELAY seconds, samples /proc for SECONDS seconds and prints one line, e.g.
`cores over 10 s: pgbench's backends 0.59, pgbench 0.18, plan-load 0.38, our backends 0.31,
plan-server 0.27, PostgreSQL's own 0.02, other 0.05, idle 0.14, waiting for I/O 0.01 (of 2)`.
PostgreSQL backends count as pgbench's when they serve the database PGBENCH_DB (default pgb); the
process SERVER_PID counts as plan-server whatever its binary is called (SERVER_BIN=)."""
import os
import sys
import time

PGBENCH_DB = os.environ.get("PGBENCH_DB", "pgb")
TICKS = os.sysconf("SC_CLK_TCK")


SERVER_PID = sys.argv[3] if len(sys.argv) > 3 else None


def who(pid, cmdline):
    if pid == SERVER_PID:
        return "plan-server"
    if cmdline.startswith("postgres: "):
        words = cmdline.split()
        # "postgres: USER DB [local] STATE" for a backend, "postgres: walwriter" for the rest.
        if len(words) >= 4 and (words[3].startswith("[") or ":" in words[3] or "(" in words[3]):
            return "pgbench's backends" if words[2] == PGBENCH_DB else "our backends"
        return "PostgreSQL's own"
    program = os.path.basename(cmdline.split(" ", 1)[0]) if cmdline else ""
    return program if program in ("plan-server", "plan-load", "pgbench") else "other"


def sample():
    used = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                cmdline = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        used[pid] = (who(pid, cmdline), int(fields[11]) + int(fields[12]))
    with open("/proc/stat") as stat:
        fields = stat.readline().split()
    return used, (int(fields[4]), int(fields[5]))


def main():
    delay, seconds = float(sys.argv[1]), float(sys.argv[2])
    time.sleep(delay)
    before, (idle_before, iowait_before) = sample()
    started = time.time()
    time.sleep(seconds)
    after, (idle_after, iowait_after) = sample()
    elapsed = time.time() - started
    shares = {}
    for pid, (name, ticks) in after.items():
        previous = before.get(pid, (name, 0))[1]
        shares[name] = shares.get(name, 0.0) + (ticks - previous) / TICKS / elapsed
    order = ["pgbench's backends", "pgbench", "plan-load", "our backends", "plan-server", "PostgreSQL's own", "other"]
    parts = [f"{name} {shares[name]:.2f}" for name in order if name in shares]
    idle = (idle_after - idle_before) / TICKS / elapsed
    iowait = (iowait_after - iowait_before) / TICKS / elapsed
    cores = len(os.sched_getaffinity(0))
    print(f"cores over {elapsed:.0f} s: {', '.join(parts)}, idle {idle:.2f}, waiting for I/O {iowait:.2f} (of {cores})")


if __name__ == "__main__":
    main()
