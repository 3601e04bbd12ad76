// Resizing the task list (pure; loaded after the first render with list-resize.mjs): a column or
// the split set to a width within the rules of list-layout.mjs, and what localStorage keeps.

import { COLUMNS, MIN_COLUMN, MAX_COLUMN, MIN_LIST, clamp, maxList } from './list-layout.mjs';

/** What localStorage keeps: only what differs from the defaults. */
export function writeWidths(widths) {
  const columns = Object.fromEntries(COLUMNS.filter(([name, width]) => widths.columns[name] !== width)
    .map(([name]) => [name, widths.columns[name]]));
  return JSON.stringify({ ...(Object.keys(columns).length ? { columns } : {}), ...(widths.split === null ? {} : { split: widths.split }) });
}

/** `widths` with column `name` at `width` (clamped); a split the user set moves by as much, so the list still shows what it showed. */
export function resizeColumn(widths, name, width) {
  const old = widths.columns[name];
  const next = clamp(Math.round(width), MIN_COLUMN, MAX_COLUMN);
  return { columns: { ...widths.columns, [name]: next }, split: widths.split === null ? null : Math.max(widths.split + next - old, MIN_LIST) };
}

/** `widths` with the split at `split` pixels, within what a window of `windowWidth` allows. */
export function resizeSplit(widths, split, windowWidth) {
  return { ...widths, split: clamp(Math.round(split), MIN_LIST, maxList(windowWidth)) };
}
