// The chart's time axis (semantics.md "Time axis", the Swift core's TimeAxis): a finite horizon
// of civil days divided into columns of 1, 2, 4, 6 or 8 days (the terminal's zooms) or, for the
// web client's month, quarter and year scales (coarse-scales.mjs), 12, 30 or 91 days, the last one
// clipped to the exclusive end. Positions are fractional column units, x = days from the horizon start / days per
// column; month and ISO-week sections keep exact civil boundaries even inside a zoomed column.
// Pure: day numbers in, numbers and labels out.

import { civil, daysInMonth, isoWeek, isoWeekday } from './dates.mjs';
import { monthName, shortMonthName, weekWord, shortWeekWord } from './strings.mjs';

export const ZOOMS = [1, 2, 4, 6, 8, 12, 30, 91];

/** The axis of `days` days (≥ 1) from day number `start`, `zoom` days per column. */
export function makeAxis(start, days, zoom = 1) {
  if (!ZOOMS.includes(zoom)) throw new RangeError(`zoom must be one of ${ZOOMS.join(', ')}`);
  if (!Number.isInteger(days) || days < 1) throw new RangeError('a horizon has at least one day');
  return { start, days, end: start + days, zoom, columnCount: Math.ceil(days / zoom), width: days / zoom };
}

/** The column at `index`: its first and last (inclusive) day, day count and day-row label variants. */
export function column(axis, index) {
  const first = axis.start + index * axis.zoom;
  const last = Math.min(first + axis.zoom, axis.end) - 1;
  const dayCount = last - first + 1;
  const firstLabel = String(civil(first).day);
  const label = dayCount > 1 ? [`${firstLabel}\u2013${civil(last).day}`, firstLabel] : [firstLabel];
  return {
    index, first, last, dayCount, isClipped: dayCount < axis.zoom,
    startX: index, endX: index + dayCount / axis.zoom, label,
  };
}

/** The position of the start of `day` in column units (unclamped). */
export function x(axis, day) {
  return (day - axis.start) / axis.zoom;
}

/** The position of the middle of `day` (where a milestone diamond sits). */
export function centerX(axis, day) {
  return (day - axis.start + 0.5) / axis.zoom;
}

/** The index of the column holding `day`, or null outside the horizon. */
export function columnIndexOf(axis, day) {
  if (day < axis.start || day >= axis.end) return null;
  return Math.floor((day - axis.start) / axis.zoom);
}

/** The day at position `position` (column units), clamped into the horizon. */
export function dayAtX(axis, position) {
  const days = Math.floor(position * axis.zoom);
  if (!Number.isFinite(days) || days <= 0) return axis.start;
  return days < axis.days ? axis.start + days : axis.end - 1;
}

/** `[from, to)` limited to the existing columns. */
export function clampColumns(axis, from, to) {
  const lower = Math.min(Math.max(from, 0), axis.columnCount);
  return [lower, Math.min(Math.max(to, lower), axis.columnCount)];
}

/**
 * The sections of a calendar period over the horizon (or the columns [from, to)): `period(day)` gives
 * the one holding `day` as { key, start, next, label }.
 */
export function sections(axis, from, to, period) {
  let first = axis.start;
  let end = axis.end;
  if (from !== undefined) {
    const [lower, upper] = clampColumns(axis, from, to);
    if (lower === upper) return [];
    first = axis.start + lower * axis.zoom;
    end = Math.min(axis.start + upper * axis.zoom, axis.end);
  }
  const result = [];
  for (let day = first; day < end;) {
    const { key, start, next, label } = period(day);
    const shownFirst = Math.max(start, axis.start);
    const shownEnd = Math.min(next, axis.end);
    result.push({
      key, first: shownFirst, last: shownEnd - 1, clippedAtStart: start < axis.start, clippedAtEnd: next > axis.end,
      startX: x(axis, shownFirst), endX: x(axis, shownEnd), label,
    });
    day = next;
  }
  return result;
}

/**
 * The month header row: one section per calendar month, clipped to the horizon; with `from`/`to`
 * only those overlapping those columns (each still spanning its whole part of the horizon). Labels
 * longest first: "September 2026", "Sep 2026", "Sep".
 */
export function monthSections(axis, language, from, to) {
  return sections(axis, from, to, (day) => {
    const { year, month, day: dayOfMonth } = civil(day);
    const start = day - (dayOfMonth - 1);
    const short = shortMonthName(language, month);
    return {
      key: `${year}-${month}`, start, next: start + daysInMonth(year, month),
      label: [`${monthName(language, month)} ${year}`, `${short} ${year}`, short],
    };
  });
}

/**
 * The ISO-week header row, labelled with the week and its ISO week-year: "Week 53 2020", "W53 2020",
 * "W53", "53" (German "KW 53 2020", "KW53 2020", "KW53", "53").
 */
export function weekSections(axis, language, from, to) {
  return sections(axis, from, to, (day) => {
    const start = day - (isoWeekday(day) - 1);
    const { weekYear, week } = isoWeek(day);
    const short = shortWeekWord(language) + week;
    return {
      key: `${weekYear}-W${week}`, start, next: start + 7,
      label: [`${weekWord(language)} ${week} ${weekYear}`, `${short} ${weekYear}`, short, String(week)],
    };
  });
}

/** The longest label variant `fits` accepts, or null. */
export function fitting(variants, fits) {
  return variants.find(fits) ?? null;
}
