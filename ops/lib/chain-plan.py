#!/usr/bin/env python3
"""Prints a plan of dependency chains for `ops/bench commits` (issue 29): GROUPS groups, each a
chain of LENGTH two-day activities, each finish-to-start after the one before and starting right
after it on a Monday-to-Friday calendar, every fifth step forking into a diamond that joins at the
next (a three-day branch finish-to-start, a one-day one start-to-start +1 in and
finish-to-finish out), plus the demo plan's timeline. MODE is "automatic" or
"manual" (the same data; only the settings differ), so the two runs compare the settle's cost.

    python3 ops/lib/chain-plan.py MODE [GROUPS] [LENGTH] > plan.json
"""
import datetime
import json
import os
import sys

mode = sys.argv[1]
groups = int(sys.argv[2]) if len(sys.argv) > 2 else 6
length = int(sys.argv[3]) if len(sys.argv) > 3 else 20
demo = json.load(open(os.path.join(os.path.dirname(__file__), "..", "demo-plan.json")))


def working(day):
    return day.isoweekday() <= 5


def after_working_days(start, count):
    """The day after the count-th working day from start (start is a working day)."""
    day = start
    while count > 0:
        if working(day):
            count -= 1
        day += datetime.timedelta(days=1)
    return day


tasks, dependencies = [], []
for group in range(groups):
    tasks.append({"id": f"chain{group}", "title": f"Chain {group}", "kind": "summary"})
    start = datetime.date(2026, 9, 7)
    for index in range(length):
        while not working(start):
            start += datetime.timedelta(days=1)
        end = after_working_days(start, 2)
        task = f"c{group}-{index}"
        tasks.append({"id": task, "title": f"Step {group}.{index}", "parentID": f"chain{group}", "kind": "activity",
                      "schedule": {"start": start.isoformat(), "end": end.isoformat()}, "progress": 0})
        if index > 0 and (index - 1) % 5 != 4:
            dependencies.append({"predecessorID": f"c{group}-{index - 1}", "successorID": task})
        start = end
        if index % 5 == 4 and index < length - 1:
            while not working(start):
                start += datetime.timedelta(days=1)
            long_end, short_end = after_working_days(start, 3), after_working_days(start, 1)
            for suffix, branch_end in (("a", long_end), ("b", short_end)):
                tasks.append({"id": task + suffix, "title": f"Branch {group}.{index}{suffix}",
                              "parentID": f"chain{group}", "kind": "activity",
                              "schedule": {"start": start.isoformat(), "end": branch_end.isoformat()}, "progress": 0})
            following = f"c{group}-{index + 1}"
            dependencies += [
                {"predecessorID": task, "successorID": task + "a"},
                {"predecessorID": task + "a", "successorID": following},
                {"predecessorID": task, "successorID": task + "b", "type": "start-to-start", "lag": 1},
                {"predecessorID": task + "b", "successorID": following, "type": "finish-to-finish", "lag": 0},
            ]
            start = long_end
json.dump({
    "title": f"Chains ({mode})",
    "settings": {"scheduling": mode, "calendar": {"workingDays": [1, 2, 3, 4, 5], "holidays": []}},
    "tasks": tasks, "dependencies": dependencies, "resources": demo["resources"], "entries": demo["entries"],
    "assignments": demo["assignments"],
}, sys.stdout)
