// The civil-date module against the Swift core's CivilDateTests cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCivil, formatCivil, parseLocal, formatLocal, isoWeek, isoWeekday, civil, daysInMonth, EARLIEST, LATEST,
  today,
} from '../../../clients/web/js/dates.mjs';

test('parses and formats real dates', () => {
  for (const text of ['0001-01-01', '2026-09-08', '2024-02-29', '9999-12-31', '2000-02-29']) {
    assert.equal(formatCivil(parseCivil(text)), text);
  }
  assert.equal(parseCivil('0001-01-01'), EARLIEST);
  assert.equal(parseCivil('9999-12-31'), LATEST);
});

test('refuses malformed text and impossible dates', () => {
  const bad = ['', '2026-9-08', '2026-09-8', '26-09-08', '2026/09/08', '2026-09-08 ', ' 2026-09-08', '20260908',
    '2026-09-08T00:00', '+2026-09-08', '2026-0a-08', '２０２６-09-08', '2026-02-29', '2026-02-30', '2100-02-29',
    '0000-01-01', '2026-13-01', '2026-00-10', '2026-04-31', '2026-01-00', '2026-01-32', null, 20260908];
  for (const text of bad) assert.equal(parseCivil(text), null, String(text));
});

test('day arithmetic crosses months, leap days and years', () => {
  const date = parseCivil('2024-02-28');
  assert.equal(formatCivil(date + 1), '2024-02-29');
  assert.equal(formatCivil(date + 2), '2024-03-01');
  assert.equal(formatCivil(date + 366), '2025-02-28');
  assert.equal(formatCivil(date - 59), '2023-12-31');
  assert.equal(parseCivil('2026-09-10') - parseCivil('2026-09-08'), 2);
});

test('day numbers agree with components for every day of four centuries', () => {
  let day = parseCivil('1900-01-01');
  const expected = { year: 1900, month: 1, day: 1 };
  while (expected.year < 2300) {
    assert.deepEqual(civil(day), expected);
    day += 1;
    expected.day += 1;
    if (expected.day > daysInMonth(expected.year, expected.month)) {
      expected.day = 1;
      expected.month += 1;
      if (expected.month > 12) {
        expected.month = 1;
        expected.year += 1;
      }
    }
  }
});

test('weekdays: 0001-01-01 is a Monday, 2026-09-08 a Tuesday, 2021-01-03 a Sunday', () => {
  assert.equal(isoWeekday(EARLIEST), 1);
  assert.equal(isoWeekday(parseCivil('2026-09-08')), 2);
  assert.equal(isoWeekday(parseCivil('2021-01-03')), 7);
});

test('ISO weeks and week-years at year turns (2021-01-01 is week 53 of 2020)', () => {
  const cases = [['2021-01-01', 2020, 53], ['2021-01-03', 2020, 53], ['2021-01-04', 2021, 1], ['2024-12-30', 2025, 1],
    ['2026-01-01', 2026, 1], ['2026-12-31', 2026, 53], ['2027-01-03', 2026, 53], ['2018-12-31', 2019, 1],
    ['2026-09-08', 2026, 37]];
  for (const [text, weekYear, week] of cases) assert.deepEqual(isoWeek(parseCivil(text)), { weekYear, week }, text);
});

test('local date-times: minutes, no seconds, offsets or 24:00', () => {
  for (const text of ['2026-09-09T09:00', '2026-09-09T23:59', '0001-01-01T00:00', '9999-12-31T23:59']) {
    assert.equal(formatLocal(parseLocal(text)), text);
  }
  for (const text of ['2026-09-09T24:00', '2026-09-09T09:00:00', '2026-09-09T09:00Z', '2026-09-09T09:00+02:00',
    '2026-09-09 09:00', '2026-02-30T10:00', '2026-09-09T9:00', '2026-09-09T09:60', '2026-09-09']) {
    assert.equal(parseLocal(text), null, text);
  }
  assert.equal(parseLocal('2026-09-09T12:30') - parseLocal('2026-09-09T09:00'), 210);
  assert.equal(parseLocal('2026-09-10T00:00'), parseCivil('2026-09-10') * 1440);
});

test("today is the browser's civil date", () => {
  assert.equal(formatCivil(today(new Date(2026, 8, 8, 23, 59))), '2026-09-08');
});
