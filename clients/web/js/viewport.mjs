// The horizontally scrolled window of a chart (the Swift core's ChartViewport): which whole
// columns are visible. Finite: the first visible column stays within 0…maxFirstColumn, a horizon
// narrower than the chart stays left-aligned. Previous/Next move half the chart width; Today shows
// a date clamped into the horizon; zoom keeps the horizon start visible at the left edge and
// otherwise the date at the centre. Values, not objects with state: every move returns a new one.

import { makeAxis, columnIndexOf, dayAtX, ZOOMS } from './axis.mjs';

export function makeViewport(axis, visibleColumns, date = null) {
  const viewport = { axis, visibleColumns: Math.max(visibleColumns, 1), firstColumn: 0 };
  return date === null ? viewport : show(viewport, date);
}

export const maxFirstColumn = (viewport) => Math.max(viewport.axis.columnCount - viewport.visibleColumns, 0);
export const pageStep = (viewport) => Math.max(Math.floor(viewport.visibleColumns / 2), 1);
export const canMovePrevious = (viewport) => viewport.firstColumn > 0;
export const canMoveNext = (viewport) => viewport.firstColumn < maxFirstColumn(viewport);

/** The day at the centre of the visible chart area. */
export function centerDate(viewport) {
  return dayAtX(viewport.axis, viewport.firstColumn + viewport.visibleColumns / 2);
}

export function scrollTo(viewport, column) {
  return { ...viewport, firstColumn: Math.min(Math.max(column, 0), maxFirstColumn(viewport)) };
}

export const movePrevious = (viewport) => scrollTo(viewport, viewport.firstColumn - pageStep(viewport));
export const moveNext = (viewport) => scrollTo(viewport, viewport.firstColumn + pageStep(viewport));

/** Scrolls so that `date`'s column (the date clamped into the horizon) is the first visible one. */
export function show(viewport, date) {
  const { axis } = viewport;
  const clamped = Math.min(Math.max(date, axis.start), axis.end - 1);
  return scrollTo(viewport, columnIndexOf(axis, clamped) ?? 0);
}

/** Changes the zoom, anchored at the left edge or at the centre date. */
export function zoomTo(viewport, zoom) {
  if (zoom === viewport.axis.zoom) return viewport;
  const wasAtStart = viewport.firstColumn === 0;
  const centerDays = (viewport.firstColumn + viewport.visibleColumns / 2) * viewport.axis.zoom;
  const axis = makeAxis(viewport.axis.start, viewport.axis.days, zoom);
  const zoomed = { ...viewport, axis, firstColumn: 0 };
  if (wasAtStart) return zoomed;
  return scrollTo(zoomed, Math.round(centerDays / zoom - viewport.visibleColumns / 2));
}

export const finer = (zoom) => ZOOMS[ZOOMS.indexOf(zoom) - 1] ?? null;
export const coarser = (zoom) => ZOOMS[ZOOMS.indexOf(zoom) + 1] ?? null;

export function zoomIn(viewport) {
  const zoom = finer(viewport.axis.zoom);
  return zoom === null ? viewport : zoomTo(viewport, zoom);
}

export function zoomOut(viewport) {
  const zoom = coarser(viewport.axis.zoom);
  return zoom === null ? viewport : zoomTo(viewport, zoom);
}

/**
 * The horizon a plan's chart shows: from the Monday on or before the earliest date (less a week)
 * to at least four weeks after the latest, at least `minimumDays` long; `today` when the plan has
 * no dates. Day numbers in, { start, days } out.
 */
export function horizonFor(earliest, latest, today, minimumDays = 91) {
  const from = earliest ?? today;
  const to = Math.max(latest ?? today, from);
  const monday = from - 7 - (((from - 7) % 7) + 7) % 7;
  const days = Math.max(to + 28 - monday, minimumDays);
  return { start: Math.max(monday, 0), days };
}
