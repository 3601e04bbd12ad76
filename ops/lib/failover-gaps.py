"""How long writes stopped at each fault of ops/test-failover: from FAULTS ("NAME UNIX_MS" lines)
and COMMITS (each committed version's commit time, unix ms, in version order), the longest pause
in writes from the fault to the next one: the wait for the first commit after it, or a longer
pause between two commits after it. Prints
`== failover gaps: NAME=MS …` and exits 1 when one is over its limit: a lost primary 15 s
(failover, back), a postmaster crash FAILOVER_CRASH_LIMIT_MS (5000; the target is 2 s on a quiet
machine), a lost standby 5 s.

    python3 ops/lib/failover-gaps.py FAULTS COMMITS"""
import os
import sys

faults = [(name, int(at)) for name, at in (line.split() for line in open(sys.argv[1]) if line.strip())]
commits = [int(line) for line in open(sys.argv[2]) if line.strip()]
limits = {"failover": 15000, "back": 15000, "crash": int(os.environ.get("FAILOVER_CRASH_LIMIT_MS", "5000")),
          "standby": 5000}
figures, over = {}, []
for index, (name, at) in enumerate(faults):
    end = faults[index + 1][1] if index + 1 < len(faults) else float("inf")
    window = [t for t in commits if at <= t < end]
    after = [t for t in commits if t >= at]
    if not after:
        figures[name] = None
        over.append(name)
        continue
    # The pause that holds the fault: the longest between consecutive commits in the window, and at
    # least the time from the fault to the first commit after it.
    pauses = [b - a for a, b in zip(window, window[1:])] + [after[0] - at]
    figures[name] = max(pauses)
    if figures[name] > limits.get(name, 15000):
        over.append(name)
print("== failover gaps (ms without a commit): " + " ".join(f"{name}={gap}" for name, gap in figures.items()))
for name in over:
    print(f"   {name}: writes stopped longer than {limits.get(name, 15000)} ms")
sys.exit(1 if over else 0)
