// Where a plan view's charts stand in time (functions of plan-view.mjs, which holds horizon, axis,
// zoom and columnWidth): the horizon, the axis filling the chart, the viewport, the navigation.

import { $ } from './dom.mjs';
import { makeAxis } from './axis.mjs';
import { rowValues } from './marks.mjs';
import {
  horizonFor, makeViewport, scrollTo, canMovePrevious, canMoveNext, finer, coarser,
} from './viewport.mjs';
import { today as todayOf } from './dates.mjs';
import { planRange, coverDays, scaleOf, loadCoarseScales, coarseScalesLoaded } from './scales.mjs';

export const COLUMN_WIDTH = 40;
/** The resources list's width (resources-view.mjs, loaded with the view). */
const LABEL_WIDTH = 220;

/** The horizon from the plan's dates (a week before the first, four weeks after the last). */
export function fitHorizon(view) {
  const range = planRange(view.client.copy.tasks);
  const first = !view.horizon;
  view.horizon = horizonFor(range?.from ?? null, range?.to ?? null, todayOf());
  view.axis = makeAxis(view.horizon.start, view.horizon.days, view.zoom);
  cover(view, chartWidthOf(view), 0);
  if (first) requestAnimationFrame(() => view.tasksView.scrollToColumn(0));
}

/** A new horizon when a confirmed task lies outside the axis. */
export function extendHorizon(view, tasks) {
  const outside = tasks.some((task) => {
    const values = rowValues(task, null);
    return values.start !== null && (values.start < view.axis.start || values.end > view.axis.end);
  });
  if (outside) fitHorizon(view);
}

/** The visible chart's width in pixels (0 while no chart is shown). */
export function chartWidthOf(view) {
  if (view.view === 'resources') return Math.max($('#resources').clientWidth - LABEL_WIDTH, 0);
  return Math.max($('#tasks').clientWidth - (view.tasksView.listWidth ?? 0), 0);
}

/** The chart's column viewport; `measured`: what the view read at the start of its frame (reading again would force a layout). */
export function viewportOf(view, measured = null) {
  const scroller = $(view.view === 'resources' ? '#resources' : '#tasks');
  const { scrollLeft, chartWidth } = measured ?? { scrollLeft: scroller.scrollLeft, chartWidth: chartWidthOf(view) };
  const visible = Math.max(Math.floor(Math.max(chartWidth, view.columnWidth) / view.columnWidth), 1);
  return scrollTo(makeViewport(view.axis, visible), Math.round(scrollLeft / view.columnWidth));
}

/** Lengthens the axis when it would end before the chart does (a coarse scale, a wider window). */
export function cover(view, chartWidth, scrollLeft) {
  if (!view.axis) return;
  const days = coverDays({ days: view.axis.days, zoom: view.zoom, columnWidth: view.columnWidth, chartWidth,
    firstColumn: Math.floor(scrollLeft / view.columnWidth) });
  if (days === view.axis.days) return;
  view.axis = makeAxis(view.axis.start, days, view.zoom);
  view.render();
}

/** Previous / Next disabled at the finite edges, zoom at the finest and coarsest. */
export function updateNavigation(view, measured = null) {
  if (!view.axis || view.view === 'history') return;
  const viewport = viewportOf(view, measured);
  const states = [['previous', !canMovePrevious(viewport)], ['next', !canMoveNext(viewport)],
    ['zoom-in', finer(view.zoom) === null], ['zoom-out', coarser(view.zoom) === null]];
  for (const [id, disabled] of states) if ($(`#${id}`).disabled !== disabled) $(`#${id}`).disabled = disabled;
}

/** Shows `viewport` (viewport.mjs): a new zoom goes back to 40 px columns; a coarser scale once its module is in. */
export function applyViewport(view, viewport) {
  if (!coarseScalesLoaded() && scaleOf(viewport.axis.zoom) !== 'days') {
    loadCoarseScales().then(() => applyViewport(view, viewport), (error) => view.app.status(view.t.serverError(error.message), true));
    return;
  }
  if (viewport.axis !== view.axis) {
    view.axis = viewport.axis;
    view.zoom = viewport.axis.zoom;
    view.columnWidth = COLUMN_WIDTH;
    view.render();
  }
  scrollCharts(viewport.firstColumn * view.columnWidth);
}

/** Scrolls both charts to `left` pixels once the next frame has sized them. */
export function scrollCharts(left) {
  requestAnimationFrame(() => {
    $('#tasks').scrollLeft = left;
    $('#resources').scrollLeft = left;
  });
}
