// The month, quarter and year scales' header rows and grid lines (pure; loaded with the first zoom
// past 8 days a column, scales.mjs): years over months over ISO weeks (12 days a column), years
// over quarters over months (30), and the same with one-letter months (91). The grid's lines follow
// the bottom row.

import { sections, monthSections, weekSections, x } from './axis.mjs';
import { civil, daysInMonth, isoWeekday } from './dates.mjs';
import { quarterWord } from './strings.mjs';

/** The quarter header row: "Q3 2026", "Q3" (German "Q3 2026", "Q3"; the long form "Quarter 3 2026"). */
export function quarterSections(axis, language, from, to) {
  return sections(axis, from, to, (day) => {
    const { year, month, day: dayOfMonth } = civil(day);
    const first = month - ((month - 1) % 3);
    let next = day - (dayOfMonth - 1);
    let start = next;
    for (let m = first; m < month; m += 1) start -= daysInMonth(year, m);
    for (let m = month; m < first + 3; m += 1) next += daysInMonth(year, m);
    const quarter = (first + 2) / 3;
    return { key: `${year}-Q${quarter}`, start, next, label: [quarterWord(language, quarter, year), `Q${quarter} ${year}`, `Q${quarter}`] };
  });
}

/** The year header row: "2026", then "26" where four digits do not fit. */
export function yearSections(axis, language, from, to) {
  return sections(axis, from, to, (day) => {
    const { year, month, day: dayOfMonth } = civil(day);
    let start = day - (dayOfMonth - 1);
    for (let m = 1; m < month; m += 1) start -= daysInMonth(year, m);
    const length = daysInMonth(year, 2) === 29 ? 366 : 365;
    return { key: String(year), start, next: start + length, label: [String(year), `’${String(year).slice(-2)}`] };
  });
}

/** Months with a one-letter label too ("S"), for the narrow months of the year scale. */
function narrowMonthSections(axis, language, from, to) {
  return monthSections(axis, language, from, to).map((section) => ({ ...section, label: [...section.label, section.label.at(-1)[0]] }));
}

/** The header rows of each coarser scale, top first. */
export const TIERS = {
  months: [yearSections, monthSections, weekSections],
  quarters: [yearSections, quarterSections, monthSections],
  years: [yearSections, quarterSections, narrowMonthSections],
};

/**
 * The grid's lines in columns [first, end) at `scale`, as positions (column units): where the
 * bottom header row's weeks (months) or months (quarters, years) begin.
 */
export function gridLines(axis, scale, first, end) {
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
