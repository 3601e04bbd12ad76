// How the whole plan is cut into printed pages (pure): every row of the list, in runs of as many
// as a page holds, and the chart over the plan's dates, in slices as wide as a page's chart; for
// each run of rows its slices left to right. Sizes in CSS pixels of a landscape A4 or Letter page.

/** A page's usable size, its heading's height, and the list's columns beside the chart. */
export const PAGE = { width: 970, height: 690, heading: 26, columns: [['name', 240], ['dates', 170]] };
export const PAGE_LIST = PAGE.columns.reduce((sum, [, width]) => sum + width, 0);
export const PAGE_CHART = PAGE.width - PAGE_LIST;

/** How many rows of `rowHeight` fit under a chart header `headerHeight` high. */
export const rowsPerPage = (rowHeight, headerHeight) => Math.max(Math.floor((PAGE.height - PAGE.heading - headerHeight) / rowHeight), 1);

/**
 * The columns of `axis` the print shows: those holding the days [from, to) (scales.mjs planRange),
 * or, for a plan without dates, the first page's worth; [first, end).
 */
export function printColumns(axis, range, columnsPerPage) {
  if (!range) return [0, Math.min(columnsPerPage, axis.columnCount)];
  const first = Math.min(Math.max(Math.floor((range.from - axis.start) / axis.zoom), 0), axis.columnCount - 1);
  const end = Math.min(Math.max(Math.ceil((range.to - axis.start) / axis.zoom), first + 1), axis.columnCount);
  return [first, end];
}

/**
 * The pages for `rowCount` rows and the columns [firstColumn, endColumn): { number (from 1), rows:
 * [first, end), columns: [first, end) }, each run of `perPage` rows (at least one page without rows)
 * followed across by the chart's slices of `columnsPerPage` columns.
 */
export function printPages({ rowCount, firstColumn, endColumn, perPage, columnsPerPage }) {
  const pages = [];
  const across = Math.max(columnsPerPage, 1);
  for (let first = 0; first < Math.max(rowCount, 1); first += perPage) {
    for (let column = firstColumn; column < Math.max(endColumn, firstColumn + 1); column += across) {
      pages.push({ number: pages.length + 1, rows: [first, Math.min(first + perPage, rowCount)], columns: [column, Math.min(column + across, Math.max(endColumn, firstColumn + 1))] });
    }
  }
  return pages;
}
