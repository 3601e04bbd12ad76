// Zoom to fit (`f`, or Fit in the toolbar; loaded after the first render): the zoom and column
// width (zoom-steps.mjs fitZoom) that show the whole plan's dates in the chart's width.

import { makeAxis } from './axis.mjs';
import { planRange, loadCoarseScales } from './scales.mjs';
import { fitZoom } from './zoom-steps.mjs';
import { COLUMN_WIDTH, chartWidthOf, cover, scrollCharts } from './plan-axis.mjs';

/** Zoom to fit: the plan's dates (scales.mjs planRange) and a day either side fill the chart's width, scrolled to their start. */
export async function zoomToFit(view) {
  const range = view.copy && view.horizon ? planRange(view.copy.tasks) : null;
  if (!range) return;
  await loadCoarseScales();
  const fit = fitZoom({ axisStart: view.horizon.start, from: range.from - 1, to: range.to + 1, chartWidth: chartWidthOf(view), baseWidth: COLUMN_WIDTH });
  [view.zoom, view.columnWidth] = [fit.zoom, fit.columnWidth];
  view.axis = makeAxis(view.horizon.start, view.horizon.days, fit.zoom);
  const left = Math.max(fit.firstColumn, 0) * fit.columnWidth;
  cover(view, chartWidthOf(view), left);
  view.render();
  scrollCharts(left);
}
