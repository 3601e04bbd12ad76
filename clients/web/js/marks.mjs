// What the chart draws for each row (semantics.md "Time axis"; the Swift core's TimeAxis+Marks):
// activities cover their exact exclusive interval, summaries the bounds the server derived,
// milestones a diamond in their date's column, unscheduled rows an "Unscheduled" label, tasks
// outside the horizon nothing; progress clipped using the task's own interval. The arrows between
// rows: arrows.mjs.

import { parseCivil } from './dates.mjs';
import { x, centerX, columnIndexOf } from './axis.mjs';

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
