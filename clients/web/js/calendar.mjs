// A plan's working days (scheduling.md §1, §3): which days the chart shades, the working days
// between two dates, placing a task on a day keeping its working duration (for the one-click
// answer to a scheduleConflict). Counting goes by positions, as the server's WorkingTime does:
// the working days before a day are whole weeks times the working weekdays, plus the working
// weekdays before its own, minus the holidays before it (a binary search); nothing walks day by
// day except the shading of the days on screen. Pure.

import { parseCivil, formatCivil, isoWeekday, LATEST } from './dates.mjs';
import { partitionIndex } from './sorted.mjs';

export const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];
export const DEFAULT_SETTINGS = { scheduling: 'manual', calendar: { workingDays: ALL_DAYS, holidays: [] } };

/** A calendar ({ workingDays, holidays }, absent members their defaults) made ready for counting. */
export function makeCalendar(calendar = {}) {
  const working = new Array(8).fill(false);
  for (const weekday of calendar.workingDays ?? ALL_DAYS) working[weekday] = true;
  const prefix = [0];
  for (let weekday = 1; weekday <= 7; weekday += 1) prefix.push(prefix[weekday - 1] + (working[weekday] ? 1 : 0));
  // Only holidays on working weekdays take a working day away.
  const holidays = [...new Set((calendar.holidays ?? []).map(parseCivil))]
    .filter((day) => day !== null && working[isoWeekday(day)]).sort((a, b) => a - b);
  return { working, prefix, holidays, holidaySet: new Set(holidays), allWorking: prefix[7] === 7 && holidays.length === 0 };
}

export function isWorkingDay(calendar, day) {
  return calendar.working[isoWeekday(day)] && !calendar.holidaySet.has(day);
}

/** The number of elements of ascending `sorted` below `value`. */
function countBelow(sorted, value) {
  return partitionIndex(sorted, (element) => element < value);
}

/** The working days before `day` since day 0 (0001-01-01, a Monday). */
function position(calendar, day) {
  const weeks = Math.floor(day / 7);
  return weeks * calendar.prefix[7] + calendar.prefix[day - weeks * 7] - countBelow(calendar.holidays, day);
}

/** W(a, b): the working days d with a ≤ d < b, negative when b < a. */
export function workingDaysBetween(calendar, a, b) {
  return position(calendar, b) - position(calendar, a);
}

/** The day after the `count`-th working day from `start` (`start` itself for 0); null past 9999. */
export function afterWorkingDays(calendar, start, count) {
  const target = position(calendar, start) + count;
  let [low, high] = [start, LATEST + 1];
  if (position(calendar, high) < target) return null;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (position(calendar, middle) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The non-working days in [first, end) as runs [start, end). */
export function nonWorkingRuns(calendar, first, end) {
  const runs = [];
  if (calendar.allWorking) return runs;
  for (let day = first; day < end; day += 1) {
    if (isWorkingDay(calendar, day)) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === day) last[1] = day + 1;
    else runs.push([day, day + 1]);
  }
  return runs;
}

/**
 * `task` placed on `day` (§3.5): a milestone on that date, a scheduled activity from that day
 * keeping its working duration (at least 1). Null for anything else, or past 9999.
 */
export function placeOn(calendar, task, day) {
  if (task.kind === 'milestone') return { ...task, date: formatCivil(day) };
  if (task.kind !== 'activity' || !task.schedule) return null;
  const days = Math.max(1, workingDaysBetween(calendar, parseCivil(task.schedule.start), parseCivil(task.schedule.end)));
  const end = afterWorkingDays(calendar, day, days);
  return end === null ? null : { ...task, schedule: { start: formatCivil(day), end: formatCivil(end) } };
}

/**
 * The proposal that answers a scheduleConflict in one click: the rejected `op` again (a replace or
 * an add whose own task the conflict names), its task placed on the earliest start, judged against
 * the task as `copy` holds it now. Null when there is nothing to move (an undo's restores).
 */
export function conflictFix(op, conflict, copy) {
  const day = parseCivil(conflict?.earliest);
  const own = op.type === 'replace' ? op.proposed : op.type === 'add' ? op.task : null;
  if (day === null || !own || own.id !== conflict.task) return null;
  const moved = placeOn(makeCalendar(copy.settings?.calendar), own, day);
  if (!moved) return null;
  if (op.type === 'add') return { type: 'add', task: moved };
  const current = copy.get(own.id);
  return current ? { type: 'replace', previous: current, proposed: moved } : null;
}
