// What the chart draws for each row (semantics.md "Time axis"; the Swift core's TimeAxis+Marks and
// +Arrows): activities cover their exact exclusive interval, summaries the bounds the server
// derived, milestones a diamond in their date's column, unscheduled rows an "Unscheduled" label,
// tasks outside the horizon nothing; progress clipped using the task's own interval. Dependencies:
// arrows between visible scheduled rows joining the ends their type names (scheduling.md §3.2:
// finish-to-start from the predecessor's end to the successor's start, start-to-start, …).

import { parseCivil } from './dates.mjs';
import { x, centerX, columnIndexOf } from './axis.mjs';
import { workingDaysBetween } from './calendar.mjs';

/**
 * A task's dates as day numbers and its progress: an activity's schedule (end exclusive, lastDate
 * inclusive), a milestone's date, a summary's derived values from `summaries` (null when it has no
 * bounds). `progress` is null for milestones.
 */
export function rowValues(task, summaries) {
  if (task.kind === 'activity') {
    const start = task.schedule ? parseCivil(task.schedule.start) : null;
    const end = task.schedule ? parseCivil(task.schedule.end) : null;
    const scheduled = start !== null && end !== null;
    return { start: scheduled ? start : null, end: scheduled ? end : null,
      lastDate: scheduled ? end - 1 : null, progress: task.progress ?? 0 };
  }
  if (task.kind === 'milestone') {
    const date = parseCivil(task.date);
    return { start: date, end: date, lastDate: date, progress: null };
  }
  const values = summaries?.[task.id];
  return {
    start: values ? parseCivil(values.start) : null, end: values ? parseCivil(values.end) : null,
    lastDate: values ? parseCivil(values.lastDate) : null, progress: values?.progress ?? 0,
  };
}

/** The mark of a task with `values` (rowValues) on `axis`. */
export function mark(axis, task, values) {
  const { start, end } = values;
  if (start === null || end === null) return { type: 'unscheduled' };
  if (task.kind === 'milestone') {
    const column = columnIndexOf(axis, start);
    const position = centerX(axis, start);
    return column === null ? { type: 'outside', startX: position, endX: position }
      : { type: 'milestone', x: position, column };
  }
  const startX = x(axis, start);
  const endX = x(axis, end);
  const visible = start === end ? start >= axis.start && start < axis.end : start < axis.end && end > axis.start;
  if (!visible) return { type: 'outside', startX, endX };
  const visibleStartX = Math.max(startX, 0);
  const visibleEndX = Math.min(endX, axis.width);
  const progress = Math.min(Math.max(values.progress ?? 0, 0), 100);
  const filledEndX = startX + (progress / 100) * (endX - startX);
  return {
    type: 'bar', isSummary: task.kind === 'summary', startX, endX, visibleStartX, visibleEndX, progress,
    filledEndX, visibleFilledEndX: Math.min(Math.max(filledEndX, visibleStartX), visibleEndX),
  };
}

/** The ends a dependency type joins: { from, to }, each 'start' or 'end' (finish-to-start: end → start). */
export function anchors(type = 'finish-to-start') {
  const [from, , to] = type.split('-');
  return { from: from === 'start' ? 'start' : 'end', to: to === 'finish' ? 'end' : 'start' };
}

/**
 * The arrows of `dependencies` between `rows` (the visible tree: hidden descendants absent), in
 * dependency order, positions in days from the axis start (`fromDay`, `toDay`: the anchors the
 * type names; a milestone's diamond is its day's middle), `fromAnchor`/`toAnchor` the anchors'
 * dates. None when an endpoint is hidden or unscheduled. `valuesOf(task)` gives rowValues.
 */
export function arrows(rows, dependencies, valuesOf, indexByID) {
  const result = [];
  for (const dependency of dependencies) {
    const fromRow = indexByID.get(dependency.predecessorID);
    const toRow = indexByID.get(dependency.successorID);
    if (fromRow === undefined || toRow === undefined) continue;
    const { from: fromSide, to: toSide } = anchors(dependency.type);
    const from = endpoint(rows[fromRow].task, valuesOf(rows[fromRow].task), fromSide);
    const to = endpoint(rows[toRow].task, valuesOf(rows[toRow].task), toSide);
    if (!from || !to) continue;
    result.push({
      dependency, fromRow, toRow, fromDay: from.day, toDay: to.day, fromSide, toSide, fromAnchor: from.anchor,
      toAnchor: to.anchor, fromMilestone: from.milestone, toMilestone: to.milestone,
      top: Math.min(fromRow, toRow), bottom: Math.max(fromRow, toRow),
    });
  }
  return result;
}

function endpoint(task, values, side) {
  if (task.kind === 'milestone') return values.start === null ? null : { day: values.start + 0.5, anchor: values.start, milestone: true };
  const day = side === 'end' ? values.end : values.start;
  return day === null ? null : { day, anchor: day, milestone: false };
}

/**
 * An arrow's SVG path from (x1, y1) to (x2, y2): it leaves an end to the right and a start to the
 * left, and comes into a start from the left and into an end from the right, turning on the
 * row's edge when the two would cross. `head` is the arrowhead's path; the label goes at `labelX`
 * (anchored `labelAnchor`) just before the head.
 */
export function arrowPath(x1, y1, x2, y2, { fromSide = 'end', toSide = 'start', fromMilestone = false, toMilestone = false } = {}) {
  const out = fromSide === 'end' ? 1 : -1;
  const into = toSide === 'start' ? 1 : -1;
  const start = x1 + (fromMilestone ? 7 * out : 0);
  const end = x2 - (toMilestone ? 7 * into : 0);
  const exit = start + 8 * out;
  let d;
  if (out !== into) {
    const turn = out > 0 ? Math.max(exit, end + 8) : Math.min(exit, end - 8);
    d = `M${start} ${y1}H${turn}V${y2}H${end - into}`;
  } else if ((end - exit) * into >= 8) {
    d = `M${start} ${y1}H${exit}V${y2}H${end - into}`;
  } else {
    const row = y1 + (y2 > y1 ? 14 : -14);
    d = `M${start} ${y1}H${exit}V${row}H${end - 10 * into}V${y2}H${end - into}`;
  }
  return { d, head: `M${end} ${y2}l${-6 * into} -4v8z`, labelX: end - 10 * into, labelAnchor: into > 0 ? 'end' : 'start' };
}

/**
 * Whether an arrow is on the critical path: both its tasks critical in `figures` (a schedule
 * answer's tasks) and the dependency binding, its anchors no more working days apart than its lag.
 */
export function criticalArrow(arrow, figures, calendar) {
  const { predecessorID, successorID, lag = 0 } = arrow.dependency;
  if (!figures?.[predecessorID]?.critical || !figures[successorID]?.critical) return false;
  return workingDaysBetween(calendar, arrow.fromAnchor, arrow.toAnchor) <= lag;
}
