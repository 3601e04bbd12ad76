// Direct manipulation of the charts, without the DOM: a press on a bar (its middle moves it, an end
// changes its start or end; a milestone moves) followed to the dates its ghost shows, snapped to
// whole days and, where the plan's calendar has non-working days, to working days (a moved
// activity keeps its working days, as scheduling.md §3.5 places a task); the proposal a drop sends
// names the task as the page holds it, so that the server rejects a stale one. Keys move by one
// (working) day from where the ghost is. Bookings in the resources view move by minutes. Pure.

import { parseCivil, formatCivil, parseLocal, EARLIEST, LATEST } from './dates.mjs';
import { isWorkingDay, workingDaysBetween, afterWorkingDays } from './calendar.mjs';

/** A press that moves less than this (CSS pixels) is a click, not a drag. */
export const CLICK_PX = 4;
/** How long a finger rests on a bar before it drags it (until then, moving scrolls). */
export const LONG_PRESS_MS = 500;

/** A task's dates as day numbers { start, end } (end exclusive; a milestone's both its date), or null when it cannot be dragged. */
export function barDates(task) {
  if (task?.kind === 'milestone') {
    const day = parseCivil(task.date);
    return day === null ? null : { start: day, end: day };
  }
  if (task?.kind !== 'activity' || !task.schedule) return null;
  const start = parseCivil(task.schedule.start);
  const end = parseCivil(task.schedule.end);
  return start === null || end === null ? null : { start, end };
}

const inRange = (day) => day !== null && day >= EARLIEST && day <= LATEST;

/**
 * `day` itself when it is a working day of `calendar` (or every day works), else the nearest working
 * day in `direction` (+1 later, −1 earlier); null when there is none within years 1…9999.
 */
export function snapToWorkingDay(calendar, day, direction) {
  if (!inRange(day)) return null;
  if (!calendar || calendar.allWorking || isWorkingDay(calendar, day)) return day;
  if (direction >= 0) {
    const after = afterWorkingDays(calendar, day, 1);
    return after === null || after - 1 > LATEST ? null : after - 1;
  }
  const before = workingDaysBetween(calendar, EARLIEST, day);
  return before <= 0 ? null : afterWorkingDays(calendar, EARLIEST, before) - 1;
}

/**
 * `dates` (barDates) changed by `delta` days: `part` 'move' shifts them (with a calendar: the start
 * on a working day, keeping the working days), 'start' or 'end' moves that end only (with a
 * calendar: onto a working day, the end after one), never past the other. Snapping goes the way
 * of `delta`. Null when the result leaves years 1…9999.
 */
export function shiftDates(calendar, dates, part, delta, milestone = false) {
  if (delta === 0) return dates;
  const direction = Math.sign(delta);
  const snap = (day) => snapToWorkingDay(calendar, day, direction);
  const working = calendar && !calendar.allWorking;
  if (milestone) {
    const day = snap(dates.start + delta);
    return day === null ? null : { start: day, end: day };
  }
  let { start, end } = dates;
  if (part === 'move' && !working) [start, end] = [start + delta, end + delta];
  else if (part === 'move') {
    start = snap(start + delta);
    const days = Math.max(1, workingDaysBetween(calendar, dates.start, dates.end));
    end = start === null ? null : afterWorkingDays(calendar, start, days);
  } else if (part === 'end') {
    const last = snap(Math.max(end - 1 + delta, start));
    end = last === null ? null : Math.max(last + 1, start + 1);
  } else {
    start = snap(Math.min(start + delta, end - 1));
    if (start !== null && start >= end) start = snapToWorkingDay(calendar, end - 1, -1) ?? end - 1;
    if (start !== null && start < dates.start && direction > 0) start = dates.start;
  }
  return inRange(start) && inRange(end) && end > start ? { start, end } : null;
}

/**
 * A drag begun on `task` at pointer (x, y): `part` 'move', 'start' or 'end' (a milestone only
 * moves), `dayWidth` CSS pixels per day. Null for a task that cannot be dragged (a summary, whose
 * dates are derived; an unscheduled activity).
 */
export function beginDrag(task, part, x, y, dayWidth, calendar = null) {
  const original = barDates(task);
  if (!original || !(dayWidth > 0)) return null;
  const milestone = task.kind === 'milestone';
  return { task, part: milestone ? 'move' : part, milestone, x, y, dayWidth, calendar, original, ghost: original, moved: false };
}

/** The drag with the pointer at (x, y): once it has gone CLICK_PX from the press, its ghost follows, snapped. */
export function dragTo(drag, x, y) {
  const moved = drag.moved || Math.hypot(x - drag.x, y - drag.y) >= CLICK_PX;
  if (!moved) return drag;
  // Math.round(-0.4) is -0: a delta of nothing either way.
  const delta = Math.round((x - drag.x) / drag.dayWidth) || 0;
  const ghost = shiftDates(drag.calendar, drag.original, drag.part, delta, drag.milestone) ?? drag.ghost;
  return { ...drag, moved, ghost };
}

/** The drag one (working) day further, `step` +1 or −1, from where its ghost is (a key press). */
export function stepDrag(drag, step) {
  const ghost = shiftDates(drag.calendar, drag.ghost, drag.part, step, drag.milestone) ?? drag.ghost;
  return { ...drag, moved: true, ghost };
}

/** What a drop proposes: the task with its ghost's dates, or null (a click, or nothing changed). */
export function dropOperation(drag) {
  if (!drag?.moved) return null;
  return datesOperation(drag.task, drag.ghost);
}

/** A replace of `task` (the value held: the server rejects it as stale if it changed) with `dates`, or null when they are its own. */
export function datesOperation(task, dates) {
  const original = barDates(task);
  if (!original || !dates || (dates.start === original.start && dates.end === original.end)) return null;
  const proposed = task.kind === 'milestone' ? { ...task, date: formatCivil(dates.start) }
    : { ...task, schedule: { start: formatCivil(dates.start), end: formatCivil(dates.end) } };
  return { type: 'replace', previous: task, proposed };
}

/**
 * A booking's interval as minute numbers after moving `part` ('move', 'start' or 'end') by `minutes`:
 * { start, end }, or null when the end would not be after the start.
 */
export function shiftEntry(entry, part, minutes) {
  let start = parseLocal(entry.start);
  let end = parseLocal(entry.end);
  if (start === null || end === null) return null;
  if (part !== 'end') start += minutes;
  if (part !== 'start') end += minutes;
  return end > start && start >= 0 && end <= (LATEST + 1) * 1440 - 1 ? { start, end } : null;
}

/**
 * A drag begun on a booking (`target` { entry, assignment }) at (x, y): `part` 'move' (in time,
 * and onto another resource) or 'start'/'end'; `minuteWidth` CSS pixels per minute, `snap` minutes.
 */
export function beginEntryDrag(target, part, x, y, minuteWidth, snap) {
  const interval = shiftEntry(target.entry, part, 0);
  if (!interval || !(minuteWidth > 0)) return null;
  const resourceID = target.assignment.resourceID;
  return { target, part, x, y, minuteWidth, snap, minutes: 0, resourceID, moved: false, ghost: { ...interval, resourceID } };
}

function entryGhost(drag, minutes, resourceID) {
  const interval = shiftEntry(drag.target.entry, drag.part, minutes);
  if (!interval) return drag;
  const onto = drag.part === 'move' ? resourceID ?? drag.resourceID : drag.target.assignment.resourceID;
  return { ...drag, moved: true, minutes, resourceID: onto, ghost: { ...interval, resourceID: onto } };
}

/** The booking's drag with the pointer at (x, y) over the row of `resourceID` (null: none). */
export function entryDragTo(drag, x, y, resourceID) {
  if (!drag.moved && Math.hypot(x - drag.x, y - drag.y) < CLICK_PX) return drag;
  const minutes = (Math.round((x - drag.x) / drag.minuteWidth / drag.snap) * drag.snap) || 0;
  return { ...entryGhost(drag, minutes, resourceID ?? drag.resourceID), moved: true };
}

/** The booking's drag one snap further (`step` +1 or −1), a key press. */
export function entryStep(drag, step) {
  return entryGhost(drag, drag.minutes + step * drag.snap, drag.resourceID);
}
