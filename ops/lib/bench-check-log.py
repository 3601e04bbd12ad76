# ops/bench's check of what the database holds against what plan-load saw acked (scenarios
# outage, kill and partition). Reads, in FOLDER, NAME.json (plan-load's JSON), NAME.answers
# (`--answers`: "VERSION ID" per acked proposal), NAME.log ("VERSION|ID" per logged mutation),
# NAME.decisions ("ID|VERSION" per stored ack), NAME.version (the plan's version) and, given DOWN
# and UP (unix ms of the fault and the return), NAME.health ("UNIX_MS CODE" per /healthz poll).
# Prints `== NAME: key=value …` (with DOWN and UP, also the /healthz figures and plan-load's JSON);
# exits 1 when an acked proposal is not in the log at its version, a logged one has no ack
# decision, the log is not contiguous up to the final version, an id got two decisions, or (with
# DOWN and UP) /healthz did not come back (or, for `outage`, never said 503).
#
#   python3 ops/lib/bench-check-log.py NAME FOLDER [DOWN UP]
import json
import sys

name, folder = sys.argv[1], sys.argv[2]
fault = len(sys.argv) > 4


def lines(suffix):  # the file's non-empty lines (none when it was not written)
    try:
        return [line for line in open(f"{folder}/{name}.{suffix}").read().split("\n") if line]
    except FileNotFoundError:
        return []


text = "\n".join(lines("json")).strip()
run = json.loads(text or '{"notes": ["plan-load failed: see its stderr"]}')
log = {identifier: int(version) for version, identifier in (line.split("|", 1) for line in lines("log"))}
versions = sorted(log.values())
plan_version = int(lines("version")[0]) if lines("version") else -1
contiguous = versions == list(range(1, plan_version + 1)) and plan_version == run.get("final_version")
decisions = {identifier: int(version) for identifier, version in (line.rsplit("|", 1) for line in lines("decisions"))}
acked = [(int(version), identifier) for version, identifier in (line.split(" ", 1) for line in lines("answers"))]
# Lost: acked, and not in the log at the version of its ack.
lost = [identifier for version, identifier in acked if log.get(identifier) != version]
undecided = [identifier for identifier, version in log.items() if decisions.get(identifier) != version]
figures = {
    "proposals": run.get("proposals"), "confirmed": run.get("confirmed"),
    "unavailable": run.get("unavailable_answers"), "resent": run.get("resent"),
    "answered_twice": run.get("answered_twice"), "conflicting_decisions": run.get("conflicting_decisions"),
    "acked": len(acked), "lost_acked": len(lost), "log_versions": len(versions), "contiguous": contiguous,
    "log_without_decision": len(undecided),
}
ok = bool(acked) and not lost and contiguous and not undecided and run.get("conflicting_decisions") == 0
if fault:
    down, up = int(sys.argv[3]), int(sys.argv[4])
    health = [(int(t), code) for t, code in (line.split(" ") for line in lines("health") if " " in line)]
    unhealthy = [t for t, code in health if t >= down and code == "503"]
    # Back: the first 200 after the restart with nothing but 200 from then on.
    back = next((t for i, (t, code) in enumerate(health) if t >= up and all(c == "200" for _, c in health[i:])), None)
    figures = {"outage_ms": up - down} | figures | {
        "healthz_seen": "/".join(dict.fromkeys(code for t, code in health if t >= down)),
        "healthz_503_seen": bool(unhealthy), "healthz_503_after_ms": unhealthy[0] - down if unhealthy else None,
        "healthz_200_after_ms": back - up if back else None,
        "converged": run.get("converged"), "gaps": run.get("gaps"), "viewers_resumed": run.get("viewers_resumed"),
        "resumed_with_snapshot": run.get("viewers_resumed_with_snapshot"),
    }
    ok = ok and back is not None and (bool(unhealthy) or name != "outage")
    print(f"== {name}: " + " ".join(f"{key}={value}" for key, value in figures.items()))
else:
    print(f"== {name} log: " + " ".join(f"{key}={value}" for key, value in figures.items()))
for identifier in lost[:5]:
    print(f"   lost acked edit: {identifier} (in the log at {log.get(identifier)})")
for identifier in undecided[:5]:
    print(f"   logged without its ack decision: {identifier}")
if fault:
    for note in run.get("notes", []):
        print("   note: " + note)
    print("   json: " + text)
sys.exit(0 if ok else 1)
