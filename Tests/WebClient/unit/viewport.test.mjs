// Navigation and zoom anchoring against the Swift core's AxisNavigationTests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d, formatCivil } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import {
  makeViewport, maxFirstColumn, pageStep, canMovePrevious, canMoveNext, movePrevious, moveNext,
  scrollTo, show, zoomTo, zoomIn, zoomOut, centerDate, horizonFor,
} from '../../../clients/web/js/viewport.mjs';

const viewport = ({ days = 90, zoom = 1, visible = 20, date = null } = {}) =>
  makeViewport(makeAxis(d('2026-09-08'), days, zoom), visible, date);

test('the initial position is the horizon start, or the given date at the left edge', () => {
  const start = viewport();
  assert.equal(start.firstColumn, 0);
  assert.equal(maxFirstColumn(start), 70);
  assert.equal(viewport({ date: d('2026-10-08') }).firstColumn, 30);
  assert.equal(viewport({ zoom: 4, date: d('2026-10-08') }).firstColumn, 3);
  assert.equal(viewport({ zoom: 2, visible: 10, date: d('2026-10-08') }).firstColumn, 15);
});

test('Previous and Next move half the chart width and stop at the finite edges', () => {
  let v = viewport();
  assert.ok(!canMovePrevious(v) && canMoveNext(v));
  assert.equal(pageStep(v), 10);
  v = movePrevious(v);
  assert.equal(v.firstColumn, 0);
  v = moveNext(v);
  assert.equal(v.firstColumn, 10);
  for (let i = 0; i < 5; i += 1) v = moveNext(v);
  assert.equal(v.firstColumn, 60);
  v = moveNext(scrollTo(v, 65));
  assert.equal(v.firstColumn, 70);
  assert.ok(canMovePrevious(v) && !canMoveNext(v));
  assert.equal(moveNext(v).firstColumn, 70);
  assert.equal(movePrevious(v).firstColumn, 60);
  assert.equal(movePrevious(scrollTo(v, 5)).firstColumn, 0);
  assert.equal(pageStep(viewport({ visible: 7 })), 3);
  assert.equal(pageStep(viewport({ visible: 1 })), 1);
  assert.equal(viewport({ visible: 0 }).visibleColumns, 1);
});

test('Today shows the date clamped into the horizon and the scroll edges', () => {
  const v = viewport();
  assert.equal(show(v, d('2026-09-18')).firstColumn, 10);
  assert.equal(show(v, d('2026-01-01')).firstColumn, 0);
  assert.equal(show(v, d('2027-05-01')).firstColumn, 70);
  assert.equal(show(v, d('2026-11-01')).firstColumn, 54);
});

test('zooming at the left edge keeps the horizon start visible', () => {
  let v = zoomOut(viewport());
  assert.equal(v.axis.zoom, 2);
  assert.equal(v.firstColumn, 0);
  v = zoomTo(v, 6);
  assert.equal(v.firstColumn, 0);
  assert.equal(zoomTo(v, 1).firstColumn, 0);
  const wide = zoomIn(viewport({ days: 400, zoom: 4 }));
  assert.equal(wide.axis.zoom, 2);
  assert.equal(wide.firstColumn, 0);
});

test('zooming after scrolling right keeps the date at the centre of the chart area', () => {
  const v = scrollTo(viewport(), 40);
  const centre = centerDate(v);
  assert.equal(formatCivil(centre), '2026-10-28');
  const zoomed = zoomTo(v, 2);
  assert.equal(zoomed.firstColumn, 15);
  assert.equal(centerDate(zoomed), centre);
  assert.equal(zoomIn(viewport()).axis.zoom, 1);
  // Past the terminal's 8 days per column the web client's scales follow: months, quarters, years.
  assert.equal(zoomOut(viewport({ zoom: 8 })).axis.zoom, 12);
  assert.equal(zoomOut(viewport({ days: 800, zoom: 91 })).axis.zoom, 91, 'the year scale is the coarsest');
});

test("a plan's horizon starts on a Monday a week before its first date and ends four weeks after its last", () => {
  const horizon = horizonFor(d('2026-09-08'), d('2026-12-31'), d('2026-01-01'));
  assert.equal(formatCivil(horizon.start), '2026-08-31');
  assert.equal(horizon.start + horizon.days, d('2026-12-31') + 28);
  const empty = horizonFor(null, null, d('2026-09-08'));
  assert.equal(empty.days, 91);
  assert.ok(empty.start <= d('2026-09-08') - 7);
});
