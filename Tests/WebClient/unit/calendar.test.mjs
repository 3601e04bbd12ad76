// Working days as scheduling.md §3 counts them (its worked cases), checked against a walk over the
// days on random calendars; the shading's runs; the placing and the one-click conflict answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d, formatCivil } from '../../../clients/web/js/dates.mjs';
import {
  makeCalendar, isWorkingDay, workingDaysBetween, afterWorkingDays, nonWorkingRuns, placeOn, conflictFix,
} from '../../../clients/web/js/calendar.mjs';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';

const weekdays = makeCalendar({ workingDays: [1, 2, 3, 4, 5], holidays: ['2026-12-25'] });
const activity = (start, end) => ({ id: 's', title: 'S', kind: 'activity', schedule: { start, end }, progress: 0 });

test('W counts working days from a up to b, negative backwards; non-working days count nothing', () => {
  assert.equal(workingDaysBetween(weekdays, d('2026-09-05'), d('2026-09-09')), 2, '[Sat, Wed) is Monday and Tuesday');
  assert.equal(workingDaysBetween(weekdays, d('2026-09-05'), d('2026-09-07')), 0, '[Sat, Mon) holds no working day');
  assert.equal(workingDaysBetween(weekdays, d('2026-09-09'), d('2026-09-07')), -2);
  assert.equal(workingDaysBetween(weekdays, d('2026-12-21'), d('2026-12-28')), 4, 'Christmas is a holiday');
  assert.equal(isWorkingDay(weekdays, d('2026-12-25')), false);
  assert.equal(isWorkingDay(weekdays, d('2026-12-24')), true);
  assert.equal(workingDaysBetween(makeCalendar({}), d('2026-09-05'), d('2026-09-09')), 4, 'by default every day works');
});

test('placing keeps the working duration: Thursday ⊕ 2 is Saturday; the §3 cases of S with n = 3', () => {
  assert.equal(formatCivil(afterWorkingDays(weekdays, d('2026-09-10'), 2)), '2026-09-12');
  assert.equal(afterWorkingDays(weekdays, d('2026-09-10'), 0), d('2026-09-10'));
  const s = activity('2026-09-01', '2026-09-04');
  for (const [start, end] of [['2026-09-15', '2026-09-18'], ['2026-09-10', '2026-09-15'], ['2026-09-07', '2026-09-10'], ['2026-09-03', '2026-09-08']]) {
    assert.deepEqual(placeOn(weekdays, s, d(start)).schedule, { start, end });
  }
  assert.deepEqual(placeOn(weekdays, activity('2026-09-05', '2026-09-07'), d('2026-09-07')).schedule,
    { start: '2026-09-07', end: '2026-09-08' }, 'a task on a weekend keeps at least one day');
  assert.equal(placeOn(weekdays, { id: 'm', kind: 'milestone', date: '2026-09-01' }, d('2026-09-14')).date, '2026-09-14');
  assert.equal(placeOn(weekdays, { id: 'o', kind: 'activity', progress: 0 }, d('2026-09-14')), null, 'unscheduled: nothing to place');
  assert.equal(placeOn(weekdays, activity('2026-09-01', '2026-09-04'), d('9999-12-31')), null, 'past 9999');
});

test('positions agree with a walk over the days on random calendars', () => {
  let seed = 7;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let round = 0; round < 200; round += 1) {
    const workingDays = [1, 2, 3, 4, 5, 6, 7].filter(() => random(3) > 0);
    if (workingDays.length === 0) workingDays.push(1 + random(7));
    const base = d('2026-01-01');
    const holidays = Array.from({ length: random(6) }, () => formatCivil(base + random(60)));
    const calendar = makeCalendar({ workingDays, holidays });
    const [a, b] = [base + random(70), base + random(70)];
    let walked = 0;
    for (let day = Math.min(a, b); day < Math.max(a, b); day += 1) walked += isWorkingDay(calendar, day) ? 1 : 0;
    assert.equal(workingDaysBetween(calendar, a, b), a <= b ? walked : -walked, JSON.stringify({ workingDays, holidays, a, b }));
    const count = random(10);
    const after = afterWorkingDays(calendar, a, count);
    assert.equal(workingDaysBetween(calendar, a, after), count);
    assert.ok(count === 0 ? after === a : isWorkingDay(calendar, after - 1), 'the day before is the last working day');
  }
});

test('the shading: non-working days in runs, none for a calendar where every day works', () => {
  assert.deepEqual(nonWorkingRuns(weekdays, d('2026-12-18'), d('2026-12-29')).map(([a, b]) => [formatCivil(a), formatCivil(b)]),
    [['2026-12-19', '2026-12-21'], ['2026-12-25', '2026-12-28']]);
  assert.deepEqual(nonWorkingRuns(makeCalendar({ workingDays: [1, 2, 3, 4, 5, 6, 7] }), d('2026-12-18'), d('2026-12-29')), []);
  const sundays = makeCalendar({ workingDays: [1, 2, 3, 4, 5, 6], holidays: ['2026-09-13'] });
  assert.deepEqual(nonWorkingRuns(sundays, d('2026-09-12'), d('2026-09-15')), [[d('2026-09-13'), d('2026-09-14')]],
    'a holiday on a Sunday is one non-working day');
});

test('a conflict answered in one click: the same change on the earliest start, against the task as held now', () => {
  const held = activity('2026-09-01', '2026-09-04');
  const copy = new PlanCopy({ plan: 'p', version: 3, tasks: [{ ...held, title: 'Renamed' }],
    settings: { scheduling: 'automatic', calendar: { workingDays: [1, 2, 3, 4, 5], holidays: [] } } });
  const op = { type: 'replace', previous: held, proposed: activity('2026-09-02', '2026-09-05') };
  assert.deepEqual(conflictFix(op, { task: 's', earliest: '2026-09-10' }, copy), {
    type: 'replace', previous: { ...held, title: 'Renamed' }, proposed: activity('2026-09-10', '2026-09-15'),
  }, 'three working days from Thursday end after Monday');
  const add = { type: 'add', task: { id: 'm', title: 'M', kind: 'milestone', date: '2026-09-01' } };
  assert.deepEqual(conflictFix(add, { task: 'm', earliest: '2026-09-07' }, copy).task.date, '2026-09-07');
  assert.equal(conflictFix(op, { task: 'other', earliest: '2026-09-10' }, copy), null, 'another task (an undo’s restores)');
  assert.equal(conflictFix({ type: 'undo', version: 3 }, { task: 's', earliest: '2026-09-10' }, copy), null);
  assert.equal(conflictFix(op, { task: 's', earliest: '2026-09-10' }, new PlanCopy({ plan: 'p', version: 4, tasks: [] })), null,
    'removed since: nothing to move');
});
