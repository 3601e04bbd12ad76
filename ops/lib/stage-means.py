"""Mean server time per `history` page and per `fetch`, and the share of pages within 5 ms, between
two readings of /metrics (chronosketch_stage_seconds); prints JSON members, nothing when the
server has no such stages. With a third argument `commit`: the commit's instead (its transaction
on the worker), as `commit_server_mean_ms` and `commit_server_within_5ms`."""
import re
import sys

PATTERN = re.compile(
    r'chronosketch_stage_seconds_(sum|count|bucket)\{stage="(history_read|fetch_rebuild|commit_transaction)"'
    r'(?:,le="([^"]+)")?\} (\S+)')


def read(path):
    values = {}
    for line in open(path):
        match = PATTERN.match(line)
        if match:
            values[(match.group(1), match.group(2), match.group(3))] = float(match.group(4))
    return values


before, after = read(sys.argv[1]), read(sys.argv[2])
members = []
stages = (("history_read", "history50"), ("fetch_rebuild", "fetch"))
if sys.argv[3:] == ["commit"]:
    stages = (("commit_transaction", "commit"),)
for stage, name in stages:
    count = after.get(("count", stage, None), 0) - before.get(("count", stage, None), 0)
    if count <= 0:
        continue
    total = after[("sum", stage, None)] - before.get(("sum", stage, None), 0)
    members.append(f'"{name}_server_mean_ms":{total / count * 1000:.2f}')
    within = after.get(("bucket", stage, "0.005"), 0) - before.get(("bucket", stage, "0.005"), 0)
    members.append(f'"{name}_server_within_5ms":{within / count:.2f}')
print(",".join(members))
