// The chart's scales: the day zooms (1, 2, 4, 6, 8 days per column: month / ISO week / day header
// rows, as the terminal shows them) and the web client's coarser ones — months (12 days a column),
// quarters (30) and years (91), whose rows and lines coarse-scales.mjs has, loaded when first
// needed; the plan's dates, and how far the axis must reach to fill the chart (zoom to fit and a
// pinch's step: zoom-steps.mjs).

import { monthSections, weekSections } from './axis.mjs';
import { rowValues } from './marks.mjs';

const COARSE = { 12: 'months', 30: 'quarters', 91: 'years' };

/** 'days', 'months', 'quarters' or 'years'. */
export const scaleOf = (zoom) => COARSE[zoom] ?? 'days';

let coarse = null;

/** Loads the coarser scales' header rows and grid lines (coarse-scales.mjs), once; a zoom past 8 days a column waits for it. */
export async function loadCoarseScales() {
  coarse ??= await import('./coarse-scales.mjs');
  return coarse;
}

export const coarseScalesLoaded = () => coarse !== null;

/**
 * The three header rows at `zoom`, top first: each a sections function (axis.mjs: `(axis, language,
 * from, to)`), or null for the row of columns with their day ranges (the day zooms' last row).
 */
export function headerTiers(zoom) {
  const scale = scaleOf(zoom);
  return scale === 'days' || !coarse ? [monthSections, weekSections, null] : coarse.TIERS[scale];
}

/** The grid's lines at a coarser scale (coarse-scales.mjs gridLines), or null: a line between every two columns. */
export function gridLines(axis, first, end) {
  const scale = scaleOf(axis.zoom);
  return scale === 'days' || !coarse ? null : coarse.gridLines(axis, scale, first, end);
}

/** Whether non-working days are shaded: while a day is at least 2 px wide (not at the quarter and year scales). */
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

/**
 * How many days an axis from `axisStart` needs so that, scrolled to `firstColumn`, it fills a chart
 * of `chartWidth` pixels (columns of `columnWidth`), at least `days`: a coarse scale shows years
 * around a plan of weeks rather than an empty chart.
 */
export function coverDays({ days, zoom, columnWidth, chartWidth, firstColumn = 0 }) {
  const columns = firstColumn + Math.ceil(Math.max(chartWidth, 0) / Math.max(columnWidth, 1)) + 1;
  return Math.max(days, columns * zoom);
}
