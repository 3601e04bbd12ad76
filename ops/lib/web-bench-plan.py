"""A generated plan for ops/bench-web: COUNT tasks (default 100,000) in groups of about 200 under
20 top-level phases, activities over half a year, a milestone per group, and DEPENDENCIES
finish-to-start dependencies (default 50,000): a chain inside each group (one per ten tasks), then
links from a task to one of the next 40 tasks of the plan's order (within a group or into the
next), always forward, so there is no cycle. JSON on stdout, in the import shape of
`plan-server plan create --import`."""
import json
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
random.seed(16)
tasks, dependencies = [], []
phases = 20
for p in range(phases):
    tasks.append({"id": f"p{p}", "title": f"Phase {p + 1}", "kind": "summary"})
group = 0
while len(tasks) < count:
    parent = f"p{group % phases}"
    gid = f"g{group}"
    tasks.append({"id": gid, "title": f"Work package {group + 1}", "parentID": parent, "kind": "summary"})
    previous = None
    for i in range(min(198, count - len(tasks) - 1)):
        start = random.randrange(180)
        length = 1 + random.randrange(20)
        tid = f"t{group}-{i}"
        start_day = f"2026-{1 + (start // 28) % 12:02d}-{1 + start % 28:02d}"
        end_total = start + length
        end_day = f"2026-{1 + (end_total // 28) % 12:02d}-{1 + end_total % 28:02d}"
        if end_day <= start_day:
            end_day = f"2026-{1 + (start // 28) % 12:02d}-{min(28, 1 + start % 28 + 1):02d}"
        tasks.append({"id": tid, "title": f"Task {group + 1}.{i + 1}", "parentID": gid, "kind": "activity",
                      "schedule": {"start": start_day, "end": end_day}, "progress": random.randrange(101)})
        if previous and i % 10 == 0:
            dependencies.append({"predecessorID": previous, "successorID": tid})
        previous = tid
    if len(tasks) < count:
        tasks.append({"id": f"m{group}", "title": f"Package {group + 1} done", "parentID": gid, "kind": "milestone",
                      "date": "2026-07-01"})
    group += 1
tasks = tasks[:count]
linkable = [task["id"] for task in tasks if task["kind"] != "summary"]
pairs = {(d["predecessorID"], d["successorID"]) for d in dependencies}
while len(dependencies) < min(wanted, len(linkable) * 20):
    at = random.randrange(len(linkable) - 1)
    pair = (linkable[at], linkable[min(at + 1 + random.randrange(40), len(linkable) - 1)])
    if pair not in pairs:
        pairs.add(pair)
        dependencies.append({"predecessorID": pair[0], "successorID": pair[1]})
json.dump({"title": f"Generated plan of {count} tasks", "tasks": tasks, "dependencies": dependencies,
           "resources": [{"id": f"r{i}", "label": f"Resource {i + 1}"} for i in range(50)], "entries": [], "assignments": []},
          sys.stdout)
