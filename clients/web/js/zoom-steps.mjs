// Zooming in steps other than the + and - keys (pure; loaded after the first render): zoom to fit,
// which finds the zoom and column width that show a range of days in the chart's width, and a
// pinch's step.

import { ZOOMS } from './axis.mjs';

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

/** A pinch's zoom step: 1 (zoom in) once the fingers are a quarter further apart than at the start, -1 once a fifth closer, else 0. */
export function pinchStep(startDistance, distance) {
  if (!(startDistance > 0)) return 0;
  const ratio = distance / startDistance;
  return ratio >= 1.25 ? 1 : ratio <= 0.8 ? -1 : 0;
}
