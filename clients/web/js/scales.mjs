// The chart's scales: the day zooms' header rows (month / ISO week / days) or the coarser scales'
// (coarse-scales.mjs, loaded when first needed); the plan's dates; how far the axis must reach.

import { monthSections, weekSections } from './axis.mjs';
import { rowValues } from './marks.mjs';

const COARSE = { 12: 'months', 30: 'quarters', 91: 'years' };

/** 'days', 'months', 'quarters' or 'years'. */
export const scaleOf = (zoom) => COARSE[zoom] ?? 'days';

let coarse = null;

/** Loads coarse-scales.mjs once; a zoom past 8 days a column waits for it. */
export async function loadCoarseScales() {
  coarse ??= await import('./coarse-scales.mjs');
  return coarse;
}

export const coarseScalesLoaded = () => coarse !== null;

/** The three header rows at `zoom`, top first: sections functions (axis.mjs), null for the day columns. */
export function headerTiers(zoom) {
  const scale = scaleOf(zoom);
  return scale === 'days' || !coarse ? [monthSections, weekSections, null] : coarse.TIERS[scale];
}

/** The grid's lines at a coarser scale, or null: a line between every two columns. */
export function gridLines(axis, first, end) {
  const scale = scaleOf(axis.zoom);
  return scale === 'days' || !coarse ? null : coarse.gridLines(axis, scale, first, end);
}

/** Non-working days are shaded while a day is at least 2 px wide. */
export const shadesDays = (zoom, columnWidth) => columnWidth / zoom >= 2;

/** The plan's dates: the first day of its scheduled tasks and the day after the last, or null without any. */
export function planRange(tasks) {
  let from = null;
  let to = null;
  for (const task of tasks) {
    if (task.kind === 'summary') continue;
    const { start, end } = rowValues(task, null);
    if (start === null) continue;
    from = from === null ? start : Math.min(from, start);
    // A milestone's day is [date, date + 1).
    const stop = task.kind === 'milestone' ? end + 1 : end;
    to = to === null ? stop : Math.max(to, stop);
  }
  return from === null ? null : { from, to };
}

/** The days (at least `days`) an axis needs to fill a chart `chartWidth` px wide scrolled to `firstColumn`. */
export function coverDays({ days, zoom, columnWidth, chartWidth, firstColumn = 0 }) {
  const columns = firstColumn + Math.ceil(Math.max(chartWidth, 0) / Math.max(columnWidth, 1)) + 1;
  return Math.max(days, columns * zoom);
}
