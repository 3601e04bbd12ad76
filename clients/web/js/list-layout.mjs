// The task list's widths (pure): its columns and the split, as kept in localStorage (read back
// checked; resizing and writing: list-widths.mjs), laid out in a window. Below NARROW pixels only
// the title column shows, the chart keeps 60 % of the width, the rest comes over it by a toggle.

export const COLUMNS = [['name', 240], ['kind', 96], ['dates', 186], ['progress', 92]];
export const STORAGE_KEY = 'chronosketch.layout';
export const NARROW = 700;
export const MIN_COLUMN = 48;
export const MAX_COLUMN = 640;
export const MIN_LIST = 120;
export const MIN_NAME = 96;
/** The list's largest share of the width: 40 % when narrow, else 70 %. */
export const NARROW_SHARE = 0.4;
export const WIDE_SHARE = 0.7;

export const clamp = (value, low, high) => Math.min(Math.max(value, low), Math.max(high, low));
/** `fraction` of `width`, whole pixels (1400 × 0.7 is 980, not 979.99…). */
const part = (width, fraction) => Math.floor(width * fraction + 1e-9);
const whole = (value) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null);

/** The defaults: every column at its width, the split at the list's end (null: follows the columns). */
export const defaultWidths = () => ({ columns: Object.fromEntries(COLUMNS), split: null });

/** The widths kept in `text` (JSON, or null); what is missing or not a number is the default, the rest clamped. */
export function readWidths(text) {
  const widths = defaultWidths();
  let kept = null;
  try {
    kept = text ? JSON.parse(text) : null;
  } catch {
    return widths;
  }
  if (!kept || typeof kept !== 'object') return widths;
  for (const [name] of COLUMNS) {
    const width = whole(kept.columns?.[name]);
    if (width !== null) widths.columns[name] = clamp(width, MIN_COLUMN, MAX_COLUMN);
  }
  const split = whole(kept.split);
  if (split !== null) widths.split = Math.max(split, MIN_LIST);
  return widths;
}

const total = (widths) => COLUMNS.reduce((sum, [name]) => sum + widths.columns[name], 0);

/** The widest list a window of `windowWidth` allows. */
export const maxList = (windowWidth) => Math.max(part(windowWidth, windowWidth < NARROW ? NARROW_SHARE : WIDE_SHARE), MIN_LIST);

/**
 * The list in a window `windowWidth` wide: { narrow, listWidth (where the chart begins), shownWidth
 * (wider over the chart when toggled open), columns ([name, width] shown), hidden, maxSplit }.
 */
export function listLayout(windowWidth, widths, expanded = false) {
  const columns = COLUMNS.map(([name]) => [name, widths.columns[name]]);
  const maxSplit = maxList(windowWidth);
  if (windowWidth >= NARROW) {
    const listWidth = clamp(widths.split ?? total(widths), MIN_LIST, maxSplit);
    return { narrow: false, listWidth, shownWidth: listWidth, columns, hidden: [], maxSplit };
  }
  const listWidth = Math.max(Math.min(widths.columns.name, part(windowWidth, NARROW_SHARE)), 1);
  if (!expanded) {
    return { narrow: true, listWidth, shownWidth: listWidth, columns: [['name', listWidth]], hidden: COLUMNS.slice(1).map(([name]) => name), maxSplit };
  }
  // Within the window: the title column gives way first (to MIN_NAME), then the others alike.
  const rest = columns.slice(1);
  const restWidth = rest.reduce((sum, [, width]) => sum + width, 0);
  const nameWidth = clamp(windowWidth - restWidth, Math.min(MIN_NAME, widths.columns.name), widths.columns.name);
  const scale = Math.min((windowWidth - nameWidth) / restWidth, 1);
  const shown = [['name', nameWidth], ...rest.map(([name, width]) => [name, Math.max(Math.floor(width * scale), 1)])];
  const shownWidth = shown.reduce((sum, [, width]) => sum + width, 0);
  return { narrow: true, listWidth, shownWidth, columns: shown, hidden: [], maxSplit };
}
