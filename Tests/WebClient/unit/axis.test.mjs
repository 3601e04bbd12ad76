// The time axis against the Swift core's AxisColumnsTests and AxisSectionsTests golden cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d, formatCivil, isoWeekday } from '../../../clients/web/js/dates.mjs';
import {
  makeAxis, column, x, centerX, columnIndexOf, dayAtX, monthSections, weekSections, fitting,
} from '../../../clients/web/js/axis.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const axis = (start, days, zoom = 1) => makeAxis(d(start), days, zoom);

test('2021-01-01 is labelled as week 53 of 2020 (Week / KW)', () => {
  const weeks = weekSections(axis('2020-12-28', 14), 'en');
  assert.deepEqual(weeks.map((w) => w.label[0]), ['Week 53 2020', 'Week 1 2021']);
  assert.equal(weeks[0].last, d('2021-01-03'));
  assert.deepEqual([weeks[0].startX, weeks[0].endX, weeks[1].startX, weeks[1].endX], [0, 7, 7, 14]);
  assert.deepEqual(weekSections(axis('2020-12-28', 14), 'de').map((w) => w.label[0]), ['KW 53 2020', 'KW 1 2021']);
});

test('a horizon starting on 2021-01-01 begins with a clipped week 53 of 2020', () => {
  const a = axis('2021-01-01', 9);
  const weeks = weekSections(a, 'en');
  assert.equal(weeks.length, 2);
  assert.equal(weeks[0].key, '2020-W53');
  assert.equal(weeks[0].first, d('2021-01-01'));
  assert.ok(weeks[0].clippedAtStart && !weeks[0].clippedAtEnd);
  assert.deepEqual([weeks[0].startX, weeks[0].endX], [0, 3]);
  assert.ok(weeks[1].clippedAtEnd);
  assert.equal(weeks[1].last, d('2021-01-09'));
  assert.deepEqual([weeks[1].startX, weeks[1].endX], [3, 9]);
  assert.deepEqual(monthSections(a, 'en').map((m) => m.label[0]), ['January 2021']);
});

test('a month starting inside a zoomed column starts at a fractional x and is clipped to the horizon', () => {
  const months = monthSections(axis('2026-08-30', 40, 4), 'en');
  assert.deepEqual(months.map((m) => m.label[0]), ['August 2026', 'September 2026', 'October 2026']);
  assert.deepEqual(months.map((m) => m.startX), [0, 0.5, 8]);
  assert.deepEqual(months.map((m) => m.endX), [0.5, 8, 10]);
  assert.ok(months[0].clippedAtStart && !months[0].clippedAtEnd);
  assert.ok(!months[1].clippedAtStart && !months[1].clippedAtEnd);
  assert.ok(months[2].clippedAtEnd);
  assert.equal(months[2].last, d('2026-10-08'));
});

test('an ISO week starting inside a zoomed column starts at a fractional x', () => {
  assert.equal(isoWeekday(d('2026-08-30')), 7);
  const weeks = weekSections(axis('2026-08-30', 40, 4), 'en');
  assert.equal(weeks[0].key, '2026-W35');
  assert.deepEqual([weeks[0].startX, weeks[0].endX], [0, 0.25]);
  assert.equal(weeks[1].key, '2026-W36');
  assert.deepEqual([weeks[1].startX, weeks[1].endX], [0.25, 2]);
  assert.deepEqual([weeks[2].startX, weeks[2].endX], [2, 3.75]);
  assert.equal(weeks.at(-1).endX, 10);
  assert.ok(weeks.at(-1).clippedAtEnd);
});

test('sections at six days per column keep exact day boundaries', () => {
  const a = axis('2026-09-08', 90, 6);
  const months = monthSections(a, 'en');
  assert.ok(Math.abs(months[1].startX - 23 / 6) < 1e-12);
  assert.equal(column(a, 3).first, d('2026-09-26'));
});

test('sections cover the horizon without gaps', () => {
  const a = axis('2026-09-08', 200, 8);
  for (const sections of [monthSections(a, 'en'), weekSections(a, 'de')]) {
    assert.equal(sections[0].startX, 0);
    assert.equal(sections.at(-1).endX, a.width);
    assert.equal(sections[0].first, a.start);
    assert.equal(sections.at(-1).last, a.end - 1);
    for (let i = 1; i < sections.length; i += 1) {
      assert.equal(sections[i - 1].endX, sections[i].startX);
      assert.equal(sections[i - 1].last + 1, sections[i].first);
    }
  }
});

test('German labels use KW and German month names such as März; narrow labels fall back', () => {
  const a = axis('2026-02-20', 20);
  assert.deepEqual(monthSections(a, 'de').map((m) => m.label[0]), ['Februar 2026', 'März 2026']);
  assert.deepEqual(monthSections(a, 'de')[1].label, ['März 2026', 'Mär 2026', 'Mär']);
  assert.deepEqual(weekSections(a, 'de')[0].label, ['KW 8 2026', 'KW8 2026', 'KW8', '8']);
  const week = weekSections(axis('2026-09-08', 10), 'en')[0];
  assert.deepEqual(week.label, ['Week 37 2026', 'W37 2026', 'W37', '37']);
  assert.equal(fitting(week.label, (label) => label.length <= 11), 'W37 2026');
  assert.equal(fitting(week.label, (label) => label.length <= 2), '37');
  assert.equal(fitting(['September 2026', 'Sep 2026', 'Sep'], (label) => label.length <= 2), null);
});

test('sections overlapping a column range still span their whole part of the horizon', () => {
  const a = axis('2026-09-08', 90);
  const october = monthSections(a, 'en', 30, 40);
  assert.equal(october.length, 1);
  assert.equal(october[0].first, d('2026-10-01'));
  assert.deepEqual([october[0].startX, october[0].endX], [23, 54]);
  assert.equal(monthSections(a, 'en', 20, 25).length, 2);
  assert.equal(monthSections(a, 'en', 95, 99).length, 0);
  const first = weekSections(a, 'en', 5, 6);
  assert.equal(first.length, 1);
  assert.ok(first[0].clippedAtStart);
  assert.equal(formatCivil(weekSections(a, 'en', 6, 7)[0].first), '2026-09-14');
  assert.equal(weekSections(a, 'en', 5, 7).length, 2);
});

test('one-day columns are labelled with their day of month; zoomed ones with their range, the last clipped', () => {
  const a = axis('2026-09-08', 90);
  assert.equal(a.columnCount, 90);
  assert.deepEqual(column(a, 0).label, ['8']);
  assert.equal(column(a, 23).first, d('2026-10-01'));
  const z = axis('2026-09-08', 10, 4);
  assert.equal(z.columnCount, 3);
  assert.equal(z.width, 2.5);
  const columns = [0, 1, 2].map((i) => column(z, i));
  assert.deepEqual(columns.map((c) => c.label[0]), ['8–11', '12–15', '16–17']);
  assert.deepEqual(columns.map((c) => c.dayCount), [4, 4, 2]);
  assert.deepEqual(columns.map((c) => c.isClipped), [false, false, true]);
  assert.equal(columns[2].endX, 2.5);
  assert.deepEqual(columns[0].label, ['8–11', '8']);
  assert.equal(column(axis('2026-11-30', 3, 4), 0).label[0], '30–2');
  const six = axis('2026-09-27', 12, 6);
  assert.deepEqual([column(six, 0).label[0], column(six, 1).label[0]], ['27–2', '3–8']);
  const last = column(axis('2026-09-08', 91, 6), 15);
  assert.deepEqual(last.label, ['7']);
  assert.equal(formatCivil(last.first), '2026-12-07');
});

test('x maps dates to fractional columns, unclamped, with one day ratio', () => {
  const a = axis('2026-09-08', 90, 4);
  assert.equal(x(a, d('2026-09-08')), 0);
  assert.equal(x(a, d('2026-09-14')), 1.5);
  assert.equal(x(a, d('2026-09-07')), -0.25);
  assert.equal(x(a, a.end), a.width);
  assert.equal(centerX(a, d('2026-09-08')), 0.125);
  assert.equal(columnIndexOf(a, d('2026-09-14')), 1);
  assert.equal(columnIndexOf(a, d('2026-09-07')), null);
  assert.equal(columnIndexOf(a, a.end), null);
  assert.equal(columnIndexOf(a, a.end - 1), 22);
  assert.equal(dayAtX(a, 1.5), d('2026-09-14'));
  assert.equal(dayAtX(a, 1.6), d('2026-09-14'));
  assert.equal(dayAtX(a, -4), a.start);
  assert.equal(dayAtX(a, 500), a.end - 1);
});

test('zoom must be 1, 2, 4, 6, 8 (or a scale: 12, 30, 91) and a horizon has days', () => {
  assert.throws(() => makeAxis(0, 10, 3), RangeError);
  assert.throws(() => makeAxis(0, 10, 7), RangeError);
  assert.equal(makeAxis(0, 400, 91).columnCount, 5);
  assert.throws(() => makeAxis(0, 0, 1), RangeError);
});
