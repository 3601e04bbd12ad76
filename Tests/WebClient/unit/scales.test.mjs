// The month, quarter and year scales, their header rows and grid lines, zoom to fit, how far the
// axis reaches, and a pinch's step (scales.mjs, coarse-scales.mjs, zoom-steps.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d, formatCivil, isoWeekday, civil } from '../../../clients/web/js/dates.mjs';
import { makeAxis, ZOOMS, x, monthSections, weekSections } from '../../../clients/web/js/axis.mjs';
import {
  scaleOf, headerTiers, gridLines, shadesDays, planRange, coverDays, loadCoarseScales, coarseScalesLoaded,
} from '../../../clients/web/js/scales.mjs';
import { quarterSections, yearSections } from '../../../clients/web/js/coarse-scales.mjs';
import { fitZoom, pinchStep, MAX_STRETCH } from '../../../clients/web/js/zoom-steps.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

test('until the coarser scales are loaded, every zoom gets the day rows and column lines', () => {
  assert.equal(coarseScalesLoaded(), false);
  assert.deepEqual(headerTiers(30), [monthSections, weekSections, null]);
  assert.equal(gridLines(makeAxis(d('2026-09-01'), 400, 30), 0, 5), null);
});

await loadCoarseScales();

test('the day zooms keep month / week / columns; the coarser scales show years over quarters or months', () => {
  assert.deepEqual(ZOOMS.map(scaleOf), ['days', 'days', 'days', 'days', 'days', 'months', 'quarters', 'years']);
  assert.deepEqual(headerTiers(1), [monthSections, weekSections, null]);
  assert.deepEqual(headerTiers(12), [yearSections, monthSections, weekSections]);
  assert.deepEqual(headerTiers(30), [yearSections, quarterSections, monthSections]);
  const [top, middle, bottom] = headerTiers(91);
  assert.deepEqual([top, middle], [yearSections, quarterSections]);
  // The year scale's months are some 13 px wide: a one-letter label last.
  const months = bottom(makeAxis(d('2026-09-01'), 400, 91), 'de');
  assert.deepEqual(months[0].label, ['September 2026', 'Sep 2026', 'Sep', 'S']);
  assert.deepEqual(months[1].label.at(-1), 'O');
});

test('quarters begin on 1 January, April, July and October, clipped to the horizon', () => {
  const axis = makeAxis(d('2026-08-30'), 200, 30);
  const quarters = quarterSections(axis, 'en');
  assert.deepEqual(quarters.map((q) => q.key), ['2026-Q3', '2026-Q4', '2027-Q1']);
  assert.deepEqual(quarters.map((q) => formatCivil(q.first)), ['2026-08-30', '2026-10-01', '2027-01-01']);
  assert.deepEqual(quarters.map((q) => formatCivil(q.last)), ['2026-09-30', '2026-12-31', '2027-03-17']);
  assert.ok(quarters[0].clippedAtStart && quarters[2].clippedAtEnd && !quarters[1].clippedAtStart);
  assert.equal(quarters[1].startX, (d('2026-10-01') - d('2026-08-30')) / 30);
  assert.deepEqual(quarters[1].label, ['Quarter 4 2026', 'Q4 2026', 'Q4']);
  assert.deepEqual(quarterSections(axis, 'de')[1].label, ['4. Quartal 2026', 'Q4 2026', 'Q4']);
  // Only those overlapping the columns asked for.
  assert.deepEqual(quarterSections(axis, 'en', 2, 4).map((q) => q.key), ['2026-Q4']);
});

test('a year is 365 or 366 days, from 1 January', () => {
  const years = yearSections(makeAxis(d('2027-12-01'), 800, 91), 'en');
  assert.deepEqual(years.map((y) => y.key), ['2027', '2028', '2029', '2030']);
  assert.equal(years[1].last - years[1].first + 1, 366, '2028 is a leap year');
  assert.equal(formatCivil(years[2].first), '2029-01-01');
  assert.deepEqual(years[1].label, ['2028', '’28']);
  // Every day of the horizon lies in exactly one year and one quarter.
  const axis = makeAxis(d('2027-12-01'), 800, 91);
  for (const sections of [yearSections(axis, 'en'), quarterSections(axis, 'en')]) {
    assert.equal(sections[0].first, axis.start);
    assert.equal(sections.at(-1).last, axis.end - 1);
    for (let i = 1; i < sections.length; i += 1) assert.equal(sections[i].first, sections[i - 1].last + 1);
  }
});

test('grid lines follow the bottom header row: Mondays at the month scale, first days of months beyond', () => {
  assert.equal(gridLines(makeAxis(d('2026-09-01'), 200, 4), 0, 50), null, 'a line between columns at the day zooms');
  const months = makeAxis(d('2026-09-01'), 200, 12);
  const weekly = gridLines(months, 0, 10).map((position) => months.start + position * 12);
  assert.ok(weekly.length >= 15 && weekly.every((day) => isoWeekday(day) === 1), 'Mondays');
  assert.equal(formatCivil(weekly[0]), '2026-09-07');
  const quarters = makeAxis(d('2026-09-01'), 400, 30);
  const monthly = gridLines(quarters, 0, 5).map((position) => quarters.start + position * 30);
  assert.deepEqual(monthly.map(formatCivil), ['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01', '2027-01-01']);
  assert.deepEqual(gridLines(quarters, 0, 5).slice(0, 2), [0, x(quarters, d('2026-10-01'))]);
  assert.ok(gridLines(makeAxis(d('2026-09-01'), 800, 91), 0, 9).every((position) => civil(Math.round(d('2026-09-01') + position * 91)).day === 1));
});

test('non-working days are shaded while a day is 2 px wide or more', () => {
  assert.ok(shadesDays(8, 40) && shadesDays(12, 40) && shadesDays(30, 60));
  assert.ok(!shadesDays(30, 40) && !shadesDays(91, 40));
});

test("a plan's dates: from its first start to the day after its last end or milestone, summaries left out", () => {
  const tasks = [
    { id: 's', kind: 'summary' },
    { id: 'a', kind: 'activity', schedule: { start: '2026-09-07', end: '2026-09-12' } },
    { id: 'u', kind: 'activity' },
    { id: 'm', kind: 'milestone', date: '2026-09-20' },
    { id: 'b', kind: 'activity', schedule: { start: '2026-09-10', end: '2026-09-18' } },
  ];
  assert.deepEqual(planRange(tasks), { from: d('2026-09-07'), to: d('2026-09-21') });
  assert.deepEqual(planRange(tasks.slice(0, 2)), { from: d('2026-09-07'), to: d('2026-09-12') });
  assert.equal(planRange([{ id: 'u', kind: 'activity' }, { id: 's', kind: 'summary' }]), null);
});

test('zoom to fit picks the finest zoom that fits, widens its columns to fill the chart, and fits every range', () => {
  const start = d('2026-08-31');
  // 64 days from 2026-09-07 on 800 px: at 2 days a column 33 columns (1320 px at 40) do not fit; at 4 days
  // 17 columns (680 px) do, widened to 47 px.
  const fit = fitZoom({ axisStart: start, from: d('2026-09-07'), to: d('2026-11-10'), chartWidth: 800 });
  assert.equal(fit.zoom, 4);
  assert.equal(fit.firstColumn, 1);
  assert.equal(fit.columns, 17);
  assert.equal(fit.columnWidth, 47);
  const narrow = fitZoom({ axisStart: start, from: d('2026-09-07'), to: d('2026-11-10'), chartWidth: 225 });
  assert.equal(scaleOf(narrow.zoom), 'quarters', 'a phone fits two months at the quarter scale');
  // A short plan: columns widened at most MAX_STRETCH times.
  const short = fitZoom({ axisStart: start, from: d('2026-09-07'), to: d('2026-09-09'), chartWidth: 1000 });
  assert.deepEqual([short.zoom, short.columnWidth], [1, 40 * MAX_STRETCH]);
  // Ten years on 300 px: even years need narrower columns.
  const long = fitZoom({ axisStart: start, from: start, to: start + 3650, chartWidth: 300 });
  assert.equal(long.zoom, 91);
  assert.ok(long.columnWidth < 40 && long.columns * long.columnWidth <= 300);
  let seed = 7;
  const random = (n) => ((seed = (seed * 16807) % 2147483647) % n);
  for (let i = 0; i < 500; i += 1) {
    const from = start + random(400);
    const to = from + 1 + random(900);
    const chartWidth = 120 + random(1600);
    const result = fitZoom({ axisStart: start, from, to, chartWidth });
    const shown = [start + result.firstColumn * result.zoom, start + (result.firstColumn + result.columns) * result.zoom];
    assert.ok(shown[0] <= from && shown[1] >= to, `the range lies in the columns (${i})`);
    assert.ok(result.columns * result.columnWidth <= chartWidth, `the columns fit the chart (${i})`);
    const finer = ZOOMS[ZOOMS.indexOf(result.zoom) - 1];
    if (finer) {
      const columns = Math.ceil((to - start) / finer) - Math.floor((from - start) / finer);
      assert.ok(columns * 40 > chartWidth, `no finer zoom fits at 40 px (${i})`);
    }
  }
});

test('the axis reaches across the chart from where it is scrolled', () => {
  assert.equal(coverDays({ days: 91, zoom: 1, columnWidth: 40, chartWidth: 800 }), 91);
  assert.equal(coverDays({ days: 91, zoom: 91, columnWidth: 40, chartWidth: 800 }), 21 * 91);
  assert.equal(coverDays({ days: 91, zoom: 30, columnWidth: 40, chartWidth: 800, firstColumn: 3 }), 24 * 30);
  assert.equal(coverDays({ days: 91, zoom: 1, columnWidth: 40, chartWidth: 0 }), 91);
});

test('a pinch steps once the fingers are a quarter further apart or a fifth closer', () => {
  assert.equal(pinchStep(100, 124), 0);
  assert.equal(pinchStep(100, 125), 1);
  assert.equal(pinchStep(100, 81), 0);
  assert.equal(pinchStep(100, 80), -1);
  assert.equal(pinchStep(0, 50), 0);
});
