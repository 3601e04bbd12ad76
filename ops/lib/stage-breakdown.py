"""Where a proposal's time went during one benchmark run: the difference of two /metrics scrapes
(before and after the run) of chronosketch_stage_seconds, chronosketch_commit_seconds, chronosketch_fanout_seconds (publishing) and the
confirmed proposals, printed as one line per stage (mean and count) and the mean batch size.

    python3 ops/lib/stage-breakdown.py BEFORE.txt AFTER.txt
"""
import re
import sys


def figures(path):
    values = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        match = re.match(r'^(chronosketch_stage_seconds|chronosketch_commit_seconds|chronosketch_fanout_seconds)_(sum|count)(\{stage="([a-z_]+)"\})? ([0-9.e+-]+)$', line.strip())
        if match:
            name = match.group(4) or ("publish" if "fanout" in match.group(1) else "commit")
            values[(name, match.group(2))] = float(match.group(5))
        match = re.match(r'^chronosketch_proposals_total\{outcome="confirmed"\} ([0-9]+)$', line.strip())
        if match:
            values[("confirmed", "count")] = float(match.group(1))
    return values


before, after = figures(sys.argv[1]), figures(sys.argv[2])
def delta(key):
    return after.get(key, 0.0) - before.get(key, 0.0)

stages = ["hub_wait", "hub_message", "commit_queued", "commit_transaction", "commit_encode", "commit_execute",
          "commit_sync", "publish"]
parts = []
for stage in stages:
    count = delta((stage, "count"))
    if count > 0:
        parts.append(f"{stage}={delta((stage, 'sum')) / count * 1000:.3f}ms×{int(count)}")
commits = delta(("commit", "count"))
if commits > 0:
    parts.append(f"batch_mean={delta(('confirmed', 'count')) / commits:.1f}")
    parts.append(f"commit_cycle={delta(('commit', 'sum')) / commits * 1000:.2f}ms")
print("   stages: " + (" ".join(parts) if parts else "(this server reports no stages)"))
