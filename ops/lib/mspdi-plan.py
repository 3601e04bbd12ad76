#!/usr/bin/env python3
"""Writes an MS Project XML (MSPDI) plan of N tasks to stdout, shaped like files MS Project
writes: a Standard calendar (Mon-Fri, 08-12 and 13-17, holidays in both exception forms and a
yearly recurrence), summaries every 20 rows on two outline levels, activities with links of every
type and lag format, milestones, resources and assignments. Used by ops/bench-interchange.

usage: mspdi-plan.py TASKS [SEED]
"""
import random
import sys
from datetime import date, timedelta


def main():
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 32)
    out = sys.stdout
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n')
    w('<Project xmlns="http://schemas.microsoft.com/project">\n')
    w(f'\t<SaveVersion>14</SaveVersion>\n\t<Name>bench-{count}.xml</Name>\n\t<Title>Bench {count}</Title>\n')
    w('\t<CalendarUID>1</CalendarUID>\n\t<MinutesPerDay>480</MinutesPerDay>\n\t<Calendars>\n\t\t<Calendar>\n')
    w('\t\t\t<UID>1</UID>\n\t\t\t<Name>Standard</Name>\n\t\t\t<IsBaseCalendar>1</IsBaseCalendar>\n')
    w('\t\t\t<BaseCalendarUID>-1</BaseCalendarUID>\n\t\t\t<WeekDays>\n')
    for day_type in range(1, 8):
        working = 0 if day_type in (1, 7) else 1
        w(f'\t\t\t\t<WeekDay><DayType>{day_type}</DayType><DayWorking>{working}</DayWorking>')
        if working:
            w('<WorkingTimes><WorkingTime><FromTime>08:00:00</FromTime><ToTime>12:00:00</ToTime></WorkingTime>'
              '<WorkingTime><FromTime>13:00:00</FromTime><ToTime>17:00:00</ToTime></WorkingTime></WorkingTimes>')
        w('</WeekDay>\n')
    holidays = [date(2026, 12, 24) + timedelta(days=d) for d in range(3)] + [date(2027, 4, 2), date(2027, 5, 1)]
    for day in holidays:
        w(f'\t\t\t\t<WeekDay><DayType>0</DayType><DayWorking>0</DayWorking><TimePeriod><FromDate>{day}T00:00:00'
          f'</FromDate><ToDate>{day}T23:59:00</ToDate></TimePeriod></WeekDay>\n')
    w('\t\t\t</WeekDays>\n\t\t\t<Exceptions>\n')
    for day in holidays:
        w(f'\t\t\t\t<Exception><EnteredByOccurrences>0</EnteredByOccurrences><TimePeriod><FromDate>{day}T00:00:00'
          f'</FromDate><ToDate>{day}T23:59:00</ToDate></TimePeriod><Occurrences>1</Occurrences><Name>Holiday</Name>'
          '<Type>1</Type><DayWorking>0</DayWorking></Exception>\n')
    w('\t\t\t\t<Exception><EnteredByOccurrences>1</EnteredByOccurrences><TimePeriod><FromDate>2026-01-01T00:00:00'
      '</FromDate><ToDate>2035-01-01T23:59:00</ToDate></TimePeriod><Occurrences>10</Occurrences><Name>New year'
      '</Name><Type>2</Type><Month>0</Month><MonthDay>1</MonthDay><DayWorking>0</DayWorking></Exception>\n')
    w('\t\t\t</Exceptions>\n\t\t</Calendar>\n\t</Calendars>\n\t<Tasks>\n')
    w('\t\t<Task><UID>0</UID><ID>0</ID><Name>Bench</Name><OutlineLevel>0</OutlineLevel><Summary>1</Summary></Task>\n')
    start = date(2026, 9, 7)
    previous_leaf = None
    for uid in range(1, count + 1):
        level = 1 if uid % 400 == 1 else (2 if uid % 20 == 1 else 3)
        summary = level < 3
        day = start + timedelta(days=rng.randrange(0, 700))
        length = rng.randrange(1, 15)
        milestone = not summary and rng.random() < 0.05
        finish = day if milestone else day + timedelta(days=length - 1)
        w(f'\t\t<Task>\n\t\t\t<UID>{uid}</UID>\n\t\t\t<ID>{uid}</ID>\n\t\t\t<Name>Task {uid} &amp; more</Name>\n'
          f'\t\t\t<OutlineLevel>{level}</OutlineLevel>\n\t\t\t<Start>{day}T08:00:00</Start>\n'
          f'\t\t\t<Finish>{finish}T{"08" if milestone else "17"}:00:00</Finish>\n'
          f'\t\t\t<Duration>PT{0 if milestone else 8 * length}H0M0S</Duration>\n'
          f'\t\t\t<Milestone>{1 if milestone else 0}</Milestone>\n\t\t\t<Summary>{1 if summary else 0}</Summary>\n'
          f'\t\t\t<PercentComplete>{rng.randrange(0, 101)}</PercentComplete>\n')
        if not summary and previous_leaf is not None and rng.random() < 0.6:
            link_type = rng.choice([0, 1, 1, 1, 2, 3])
            lag_format = rng.choice([7, 7, 5, 8, 19])
            lag = rng.choice([0, 0, 4800, 9600, -4800, 2400])
            w(f'\t\t\t<PredecessorLink><PredecessorUID>{previous_leaf}</PredecessorUID><Type>{link_type}</Type>'
              f'<CrossProject>0</CrossProject><LinkLag>{lag}</LinkLag><LagFormat>{lag_format}</LagFormat>'
              '</PredecessorLink>\n')
        w('\t\t</Task>\n')
        if not summary:
            previous_leaf = uid
    w('\t</Tasks>\n\t<Resources>\n\t\t<Resource><UID>0</UID><ID>0</ID><Name>Unassigned</Name></Resource>\n')
    resources = max(1, count // 50)
    for uid in range(1, resources + 1):
        w(f'\t\t<Resource><UID>{uid}</UID><ID>{uid}</ID><Name>Person {uid}</Name><Type>1</Type></Resource>\n')
    w('\t</Resources>\n\t<Assignments>\n')
    for uid in range(1, count + 1, 3):
        if uid % 20 == 1:
            continue
        day = start + timedelta(days=uid % 700)
        w(f'\t\t<Assignment><UID>{uid}</UID><TaskUID>{uid}</TaskUID><ResourceUID>{rng.randrange(1, resources + 1)}'
          f'</ResourceUID><Start>{day}T08:00:00</Start><Finish>{day}T17:00:00</Finish><Units>1</Units></Assignment>\n')
    w('\t</Assignments>\n</Project>\n')


main()
