"""Keypress-to-render of an interactive terminal program, measured through a pseudo-terminal of
our own: the program runs on the pty's slave side (TERM=xterm-256color, COLUMNS×LINES), keys are
written to the master side one at a time, and a key's latency is the time from writing it to the
last byte of the screen update it caused: the bytes that follow it with gaps under --gap-ms
(one refresh is written at once; a second one, such as the resources view's after its page
arrives, is not counted). The next key waits until the program was silent for --settle-ms. Prints one JSON object: per view and per key the
samples' p50/p99/max in ms, the program's CPU time per key in each view (user and system, from
/proc: what the key cost it, whatever else runs on the machine), and its resident memory (VmRSS
after loading and at the end, VmHWM at the end) in KiB.

    python3 ops/lib/pty-keys.py --ready TEXT [--cols 160 --lines 50] [--rounds N]
        [--browse N] [--edit-task JSON --propose "COMMAND…"] -- PROGRAM ARGS…

The views are the interactive client's: list, timeline, resources (Tab moves between them); the
"search" keys are pressed in the list, after its own (see SEARCH_KEYS; Escape's figure includes
ncurses' 25 ms wait for what may follow an Escape). In
each, the keys are Down and Up (alternating, so each changes the selection), PageDown and PageUp,
in the list and the timeline Space twice (the first row, a group, collapsed and expanded again),
and in the timeline and resources views also ] and [ (half a page right and left), in the resources
view also + and - (zoom in and out); Tab, from each
view into the next (list → timeline → resources → history → list), is measured --rounds times
and counted under the view it opens.

With --browse N, the resources view is browsed first, before anything is measured: N keys, each
waited for (its page too), down the resources by pages and back up (runs of 40 keys, PgDn, then
PgUp, and so on, every fifth key of a run a zoom or a half-page move instead). Their latencies
are printed as "browse" (with "missed": keys that brought no screen update, counted among
"keys_without_update" too), with the resident memory after it; then the list view is shown again and
the views are measured as above: the keys of a view that has been used for a while.

With --edit-task (a task's JSON as the server holds it) and --propose (a command that sends the
proposal it reads on standard input, such as `plan propose - …`), the list view is shown again and
--rounds edits of that task's progress are proposed from outside, one after the other, each
waited for: the program's CPU time per confirmed change it received is printed beside the keys
(what keeping the plan up to date costs the client, which no key press measures).
"""
import argparse
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

KEYS = {"down": b"\x1b[B", "up": b"\x1b[A", "pgdn": b"\x1b[6~", "pgup": b"\x1b[5~", "right": b"]", "left": b"[",
        "tab": b"\t", "space": b" ", "quit": b"q", "enter": b"\r", "bs": b"\x7f", "esc": b"\x1b",
        "zoomin": b"+", "zoomout": b"-"}
# The search view's keys: `/`, a query typed key by key (its first key scans the whole plan, each
# next one only the matches before), Backspace, Enter, n and N, Escape; then the late filter on
# and off (`F l`: one pass over the plan to build its rows; `F x`). Each "ch:X" is the character X.
SEARCH_KEYS = ["ch:/"] + ["ch:" + c for c in "task 19"] + ["bs", "enter", "ch:n", "ch:N", "esc",
                                                            "ch:F", "ch:l", "ch:F", "ch:x", "ch:G", "ch:g", "ch:g"]


def key_bytes(key):
    return key[3:].encode() if key.startswith("ch:") else KEYS[key]


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ready", required=True, help="text the screen shows once the plan is loaded")
    parser.add_argument("--cols", type=int, default=160)
    parser.add_argument("--lines", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20, help="pairs of each key per view")
    parser.add_argument("--gap-ms", type=float, default=5, help="a longer silence ends an update")
    parser.add_argument("--settle-ms", type=float, default=150, help="silence before the next key")
    parser.add_argument("--load-timeout", type=float, default=300)
    parser.add_argument("--browse", type=int, default=0, help="keys of browsing the resources view first")
    parser.add_argument("--edit-task", help="the JSON of a task to edit from outside")
    parser.add_argument("--propose", help="the command that proposes what it reads on standard input")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    if arguments.command and arguments.command[0] == "--":
        arguments.command = arguments.command[1:]
    return arguments


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values


class Terminal:
    def __init__(self, command, cols, lines):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))
            os.environ["TERM"] = "xterm-256color"
            os.execvp(command[0], command)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))
        self.seen = b""
        self.patience = 10.0

    def read(self, timeout):
        """Bytes within `timeout` seconds (b"" when none came), with the time of the last read."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b"", None
        try:
            data = os.read(self.fd, 1 << 20)
        except OSError:
            raise SystemExit("the program ended; its last output: " + self.seen[-2000:].decode(errors="replace"))
        return data, time.perf_counter()

    def settle(self, settle):
        """Reads until the program is silent for `settle` seconds; the time of the last byte."""
        last = None
        while True:
            data, at = self.read(settle)
            if not data:
                return last
            self.seen = (self.seen + data)[-(1 << 16):]
            last = at

    def wait_for(self, text, timeout):
        deadline = time.perf_counter() + timeout
        while text.encode() not in self.seen:
            if time.perf_counter() > deadline:
                raise SystemExit(f"timed out waiting for {text!r}")
            data, _ = self.read(1)
            self.seen = (self.seen + data)[-(1 << 16):]

    def press(self, key, gap, settle):
        """Milliseconds from writing `key` to the end of the update it caused (None: no update
        within `patience` seconds), then waits for `settle` of silence."""
        sent = time.perf_counter()
        if os.environ.get("PTY_KEYS_TRACE"):
            print("key", key, file=sys.stderr)
        os.write(self.fd, key_bytes(key))
        data, last = self.read(self.patience)
        if not data:
            return None
        self.seen = (self.seen + data)[-(1 << 16):]
        while True:
            data, at = self.read(gap)
            if not data:
                break
            self.seen = (self.seen + data)[-(1 << 16):]
            last = at
        self.settle(settle)
        return (last - sent) * 1000


def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def remote_edits(terminal, task, propose, rounds, gap, settle):
    """Proposes `rounds` progress edits of `task` from outside; the client's CPU ms per edit."""
    terminal.press("tab", gap, settle)  # history → list
    before = cpu_ms(terminal.pid)
    for round in range(rounds):
        proposed = dict(task, progress=(task.get("progress", 0) + 1 + round % 50) % 101)
        op = json.dumps({"type": "replace", "previous": task, "proposed": proposed}).encode()
        done = subprocess.run(propose.split(), input=op, capture_output=True)
        if done.returncode != 0:
            raise SystemExit("the proposal failed: " + (done.stdout + done.stderr).decode(errors="replace"))
        task = proposed
        terminal.settle(settle)
    return round_to((cpu_ms(terminal.pid) - before) / rounds)


def round_to(value):
    return round(value, 2)


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def figures(samples):
    return {"n": len(samples), "p50_ms": round(percentile(samples, 0.5), 2),
            "p95_ms": round(percentile(samples, 0.95), 2), "p99_ms": round(percentile(samples, 0.99), 2),
            "max_ms": round(max(samples), 2)}


BROWSE_EXTRAS = ["zoomout", "right", "zoomout", "zoomin", "left", "zoomin"]


def browse(terminal, count, gap, settle):
    """Browses the resources view with `count` keys (from the list view and back to it); the
    latencies, the CPU ms per key and the memory after it."""
    terminal.press("tab", gap, settle)  # list → timeline
    terminal.press("tab", gap, settle)  # timeline → resources
    samples, missed, before = [], 0, cpu_ms(terminal.pid)
    for index in range(count):
        if index % 5 == 4:
            key = BROWSE_EXTRAS[(index // 5) % len(BROWSE_EXTRAS)]
        else:
            key = "pgdn" if (index // 40) % 2 == 0 else "pgup"
        latency = terminal.press(key, gap, settle)
        if latency is None:
            missed += 1
        else:
            samples.append(latency)
    if not samples:
        raise SystemExit(f"pty-keys: none of the {count} browse keys brought a screen update")
    spent = round_to((cpu_ms(terminal.pid) - before) / max(count, 1))
    terminal.press("tab", gap, settle)  # resources → history
    terminal.press("tab", gap, settle)  # history → list
    return dict(figures(samples), missed=missed, cpu_ms_per_key=spent, memory=memory(terminal.pid))


def main():
    arguments = parse()
    gap, settle = arguments.gap_ms / 1000, arguments.settle_ms / 1000
    terminal = Terminal(arguments.command, arguments.cols, arguments.lines)
    started = time.perf_counter()
    terminal.wait_for(arguments.ready, arguments.load_timeout)
    terminal.settle(1.0)
    result = {"load_s": round(time.perf_counter() - started, 2), "loaded": memory(terminal.pid), "views": {}}
    if arguments.browse:
        result["browse"] = browse(terminal, arguments.browse, gap, settle)
    missed = result.get("browse", {}).get("missed", 0)
    views = ["list", "timeline", "resources"]
    for view, keys in [("list", ["down", "up", "pgdn", "pgup", "space", "space"]),
                       ("search", SEARCH_KEYS),
                       ("timeline", ["down", "up", "pgdn", "pgup", "right", "left", "space", "space"]),
                       ("resources", ["down", "up", "pgdn", "pgup", "right", "left", "zoomout", "zoomin"])]:
        per_key = {}
        cpu_before, presses = cpu_ms(terminal.pid), 0
        for _ in range(arguments.rounds):
            for key in keys:
                latency = terminal.press(key, gap, settle)
                presses += 1
                if latency is None:
                    missed += 1
                else:
                    per_key.setdefault(key, []).append(latency)
        result["views"][view] = per_key
        result.setdefault("cpu_ms_per_key", {})[view] = round_to((cpu_ms(terminal.pid) - cpu_before) / presses)
        if view != "list":
            terminal.press("tab", gap, settle)
    # In the history view now: Tab around, each counted under the view it opens.
    tabs = {view: [] for view in views}
    for _ in range(arguments.rounds):
        for view in views + ["history"]:
            latency = terminal.press("tab", gap, settle)
            if view in tabs and latency is not None:
                tabs[view].append(latency)
            elif latency is None:
                missed += 1
    result["views"]["search"] = dict(figures([s for v in result["views"]["search"].values() for s in v]),
                                     keys={key: figures(s) for key, s in result["views"]["search"].items() if s})
    for view in views:
        per_key = result["views"][view]
        per_key["tab"] = tabs[view]
        every = [sample for samples in per_key.values() for sample in samples]
        result["views"][view] = dict(figures(every), keys={key: figures(s) for key, s in per_key.items() if s})
    if arguments.edit_task and arguments.propose:
        result["remote_edit_cpu_ms"] = remote_edits(
            terminal, json.loads(arguments.edit_task), arguments.propose, arguments.rounds, gap, settle)
    result["end"] = memory(terminal.pid)
    result["keys_without_update"] = missed
    os.write(terminal.fd, KEYS["quit"])
    try:
        terminal.settle(2.0)
    except SystemExit:
        pass  # the program ended, as asked
    os.waitpid(terminal.pid, 0)
    print(json.dumps(result))


main()
