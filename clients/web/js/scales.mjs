// The chart's scales (pure): the day zooms (1, 2, 4, 6, 8 days per column: month / ISO week / day
// header rows, as the terminal shows them) and the web client's coarser ones — months (12 days a
// column: year / month / week), quarters (30: year / quarter / month) and years (91: year /
// quarter / month) — whose bottom header row also gives the grid lines. Zoom to fit, how far the
// axis must reach to fill the chart, and a pinch's step.

import { ZOOMS, monthSections, weekSections, quarterSections, yearSections, x } from './axis.mjs';
import { civil, daysInMonth, isoWeekday } from './dates.mjs';
import { rowValues } from './marks.mjs';

const COARSE = { 12: 'months', 30: 'quarters', 91: 'years' };

/** 'days', 'months', 'quarters' or 'years'. */
export const scaleOf = (zoom) => COARSE[zoom] ?? 'days';

/** Months with a one-letter label too ("S"), for the narrow months of the year scale. */
function narrowMonthSections(axis, language, from, to) {
  return monthSections(axis, language, from, to).map((section) => ({ ...section, label: [...section.label, section.label.at(-1)[0]] }));
}

/**
 * The three header rows at `zoom`, top first: each a sections function (axis.mjs: `(axis, language,
 * from, to)`), or null for the row of columns with their day ranges (the day zooms' last row).
 */
export function headerTiers(zoom) {
  switch (scaleOf(zoom)) {
    case 'months': return [yearSections, monthSections, weekSections];
    case 'quarters': return [yearSections, quarterSections, monthSections];
    case 'years': return [yearSections, quarterSections, narrowMonthSections];
    default: return [monthSections, weekSections, null];
  }
}

/**
 * The grid's lines in columns [first, end) at a coarser scale, as positions (column units): where
 * the bottom header row's weeks (months scale) or months (quarters, years) begin; null at the day
 * zooms (a line between every two columns).
 */
export function gridLines(axis, first, end) {
  const scale = scaleOf(axis.zoom);
  if (scale === 'days') return null;
  const from = axis.start + first * axis.zoom;
  const to = Math.min(axis.start + end * axis.zoom, axis.end);
  const lines = [];
  let day = scale === 'months' ? from - (isoWeekday(from) - 1) : from - (civil(from).day - 1);
  while (day < to) {
    if (day >= from) lines.push(x(axis, day));
    const { year, month } = civil(day);
    day += scale === 'months' ? 7 : daysInMonth(year, month);
  }
  return lines;
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

/** How much wider than the normal width (`baseWidth`) a column may grow when a short plan is fitted. */
export const MAX_STRETCH = 4;

/**
 * Zoom to fit: the finest zoom at which the days [from, to) fit in `chartWidth` pixels with columns of
 * `baseWidth` (an axis starting on day `axisStart`), the columns then widened to fill the chart (at
 * most MAX_STRETCH times); when not even the coarsest fits, the coarsest with narrower columns.
 * Returns { zoom, columnWidth (whole pixels), firstColumn (the column holding `from`), columns (how
 * many the range touches) }.
 */
export function fitZoom({ axisStart, from, to, chartWidth, baseWidth = 40, zooms = ZOOMS }) {
  const width = Math.max(chartWidth, 1);
  const span = (zoom) => {
    const firstColumn = Math.floor((from - axisStart) / zoom);
    return { zoom, firstColumn, columns: Math.max(Math.ceil((Math.max(to, from + 1) - axisStart) / zoom) - firstColumn, 1) };
  };
  for (const zoom of zooms) {
    const fitted = span(zoom);
    if (fitted.columns * baseWidth <= width) {
      return { ...fitted, columnWidth: Math.min(Math.floor(width / fitted.columns), baseWidth * MAX_STRETCH) };
    }
  }
  const coarsest = span(zooms.at(-1));
  return { ...coarsest, columnWidth: Math.max(Math.floor(width / coarsest.columns), 1) };
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

/** A pinch's zoom step: 1 (zoom in) once the fingers are a quarter further apart than at the start, -1 once a fifth closer, else 0. */
export function pinchStep(startDistance, distance) {
  if (!(startDistance > 0)) return 0;
  const ratio = distance / startDistance;
  return ratio >= 1.25 ? 1 : ratio <= 0.8 ? -1 : 0;
}
