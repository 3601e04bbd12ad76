// Direct manipulation without the DOM (bar-drag.mjs): a press followed to a ghost's dates, snapped to
// days and, with a calendar, to working days; a short press is a click; a drop's proposal names the
// task as held; keys step from the ghost; summaries and unscheduled tasks do not drag; bookings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  barDates, snapToWorkingDay, shiftDates, beginDrag, dragTo, stepDrag, dropOperation, datesOperation, shiftEntry, CLICK_PX,
} from '../../../clients/web/js/bar-drag.mjs';
import { makeCalendar, workingDaysBetween } from '../../../clients/web/js/calendar.mjs';
import { parseCivil, formatCivil, isoWeekday, parseLocal, formatLocal } from '../../../clients/web/js/dates.mjs';

const day = parseCivil;
const weekdays = makeCalendar({ workingDays: [1, 2, 3, 4, 5], holidays: ['2026-09-16'] });
const everyDay = makeCalendar({});
// Monday 2026-09-07 … Friday 09-11 (exclusive end Saturday 09-12).
const build = { id: 'build', title: 'Build', kind: 'activity', schedule: { start: '2026-09-09', end: '2026-09-11' }, progress: 40 };
const release = { id: 'release', title: 'Release', kind: 'milestone', date: '2026-09-18' };
const dates = (ghost) => [formatCivil(ghost.start), formatCivil(ghost.end)];

test('only scheduled activities and milestones have dates to drag; a summary (derived) and an unscheduled task do not', () => {
  assert.deepEqual(barDates(build), { start: day('2026-09-09'), end: day('2026-09-11') });
  assert.deepEqual(barDates(release), { start: day('2026-09-18'), end: day('2026-09-18') });
  assert.equal(barDates({ id: 'p', kind: 'summary', title: 'Phase' }), null);
  assert.equal(barDates({ id: 'u', kind: 'activity', title: 'Later', progress: 0 }), null);
  assert.equal(beginDrag({ id: 'p', kind: 'summary', title: 'Phase' }, 'move', 0, 0, 40), null);
  assert.equal(beginDrag(build, 'move', 0, 0, 0), null, 'no width per day, no drag');
});

test('snapping to a working day goes the way of the drag, and is the day itself when it works or every day does', () => {
  assert.equal(formatCivil(snapToWorkingDay(weekdays, day('2026-09-12'), 1)), '2026-09-14'); // Saturday → Monday
  assert.equal(formatCivil(snapToWorkingDay(weekdays, day('2026-09-13'), -1)), '2026-09-11'); // Sunday → Friday
  assert.equal(formatCivil(snapToWorkingDay(weekdays, day('2026-09-16'), 1)), '2026-09-17'); // the holiday
  assert.equal(formatCivil(snapToWorkingDay(weekdays, day('2026-09-16'), -1)), '2026-09-15');
  assert.equal(formatCivil(snapToWorkingDay(weekdays, day('2026-09-15'), 1)), '2026-09-15');
  assert.equal(formatCivil(snapToWorkingDay(everyDay, day('2026-09-12'), 1)), '2026-09-12');
  assert.equal(formatCivil(snapToWorkingDay(null, day('2026-09-12'), -1)), '2026-09-12');
  const lastDay = makeCalendar({ workingDays: [1, 2, 3, 4, 5], holidays: ['9999-12-31'] });
  assert.equal(snapToWorkingDay(lastDay, day('9999-12-31'), 1), null, 'no working day after the last Friday of 9999');
  assert.equal(formatCivil(snapToWorkingDay(lastDay, day('9999-12-31'), -1)), '9999-12-30');
  assert.equal(snapToWorkingDay(weekdays, day('0001-01-06'), -1), day('0001-01-05'), 'day 0 is a Monday');
  assert.equal(snapToWorkingDay(makeCalendar({ workingDays: [6] }), day('0001-01-05'), -1), null);
});

test('snapping agrees with a walk over the days of random calendars', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let round = 0; round < 40; round += 1) {
    const workingDays = [1, 2, 3, 4, 5, 6, 7].filter(() => random() < 0.6);
    if (workingDays.length === 0) continue;
    const holidays = Array.from({ length: 12 }, () => formatCivil(day('2026-09-01') + Math.floor(random() * 60)));
    const calendar = makeCalendar({ workingDays, holidays });
    const works = (d) => workingDays.includes(isoWeekday(d)) && !holidays.includes(formatCivil(d));
    for (let d = day('2026-09-05'); d < day('2026-10-25'); d += 1) {
      for (const direction of [1, -1]) {
        let walked = d;
        while (!works(walked)) walked += direction;
        assert.equal(snapToWorkingDay(calendar, d, direction), walked, `${formatCivil(d)} ${direction} ${workingDays}`);
      }
    }
  }
});

test('a press that moves less than CLICK_PX is a click: nothing is proposed', () => {
  let drag = beginDrag(build, 'move', 100, 50, 40);
  drag = dragTo(drag, 100 + CLICK_PX - 1, 50);
  assert.equal(drag.moved, false);
  assert.equal(dropOperation(drag), null);
  // Past the threshold but less than half a day: moved, and still nothing to propose.
  drag = dragTo(drag, 100 + 15, 50);
  assert.equal(drag.moved, true);
  assert.deepEqual(dates(drag.ghost), ['2026-09-09', '2026-09-11']);
  assert.equal(dropOperation(drag), null);
  // Back within the threshold after moving: still a drag (dropped where it started: no proposal).
  assert.equal(dropOperation(dragTo(drag, 101, 50)), null);
});

test('moving a bar without a calendar shifts both ends by whole days, to the nearest day', () => {
  let drag = beginDrag(build, 'move', 100, 50, 40, everyDay);
  drag = dragTo(drag, 100 + 3 * 40 + 19, 80); // 3.475 days, vertically anywhere
  assert.deepEqual(dates(drag.ghost), ['2026-09-12', '2026-09-14']);
  drag = dragTo(drag, 100 - 2 * 40 - 21, 50); // −2.525 days
  assert.deepEqual(dates(drag.ghost), ['2026-09-06', '2026-09-08']);
  const op = dropOperation(drag);
  assert.equal(op.type, 'replace');
  assert.equal(op.previous, build, 'the task as held, for the server to judge it stale or not');
  assert.deepEqual(op.proposed, { ...build, schedule: { start: '2026-09-06', end: '2026-09-08' } });
});

test('with a calendar a move lands on a working day the way it goes and keeps the working days', () => {
  // Build: Wednesday and Thursday (2 working days). Three days later: Saturday → Monday 14th, over the holiday on the 16th.
  let drag = beginDrag(build, 'move', 0, 0, 20, weekdays);
  drag = dragTo(drag, 3 * 20, 0);
  assert.deepEqual(dates(drag.ghost), ['2026-09-14', '2026-09-16']);
  drag = dragTo(drag, 6 * 20, 0); // Tuesday 15th: Tuesday, then the holiday, then Thursday
  assert.deepEqual(dates(drag.ghost), ['2026-09-15', '2026-09-18']);
  assert.equal(workingDaysBetween(weekdays, drag.ghost.start, drag.ghost.end), 2);
  drag = dragTo(drag, -3 * 20, 0); // Sunday 6th → Friday 4th, then Monday
  assert.deepEqual(dates(drag.ghost), ['2026-09-04', '2026-09-08']);
});

test('resizing moves one end, snapped, never past the other', () => {
  let drag = beginDrag(build, 'end', 0, 0, 40, weekdays);
  drag = dragTo(drag, 2 * 40, 0); // last day Saturday → Monday
  assert.deepEqual(dates(drag.ghost), ['2026-09-09', '2026-09-15']);
  drag = dragTo(drag, -5 * 40, 0); // at least one day
  assert.deepEqual(dates(drag.ghost), ['2026-09-09', '2026-09-10']);
  drag = beginDrag(build, 'start', 0, 0, 40, everyDay);
  assert.deepEqual(dates(dragTo(drag, -4 * 40, 0).ghost), ['2026-09-05', '2026-09-11']);
  assert.deepEqual(dates(dragTo(drag, 9 * 40, 0).ghost), ['2026-09-10', '2026-09-11']);
  drag = beginDrag(build, 'start', 0, 0, 40, weekdays);
  assert.deepEqual(dates(dragTo(drag, -3 * 40, 0).ghost), ['2026-09-04', '2026-09-11'], 'Sunday → Friday');
});

test('a milestone only moves, onto a working day', () => {
  let drag = beginDrag(release, 'end', 0, 0, 40, weekdays);
  assert.equal(drag.part, 'move');
  drag = dragTo(drag, 40, 0); // Saturday 19th → Monday 21st
  assert.deepEqual(dates(drag.ghost), ['2026-09-21', '2026-09-21']);
  assert.deepEqual(dropOperation(drag), { type: 'replace', previous: release, proposed: { ...release, date: '2026-09-21' } });
});

test('keys step one working day from where the ghost is, so that a weekend does not swallow presses', () => {
  // From Friday's bar: one step right is Monday, the next Tuesday; back again to Friday.
  const friday = { ...build, schedule: { start: '2026-09-11', end: '2026-09-12' } };
  let drag = beginDrag(friday, 'move', 0, 0, 1, weekdays);
  drag = stepDrag(drag, 1);
  assert.deepEqual(dates(drag.ghost), ['2026-09-14', '2026-09-15']);
  drag = stepDrag(drag, 1);
  assert.deepEqual(dates(drag.ghost), ['2026-09-15', '2026-09-16']);
  drag = stepDrag(stepDrag(drag, -1), -1);
  assert.deepEqual(dates(drag.ghost), ['2026-09-11', '2026-09-12']);
  assert.equal(dropOperation(drag), null, 'back where it was: nothing to propose');
  drag = stepDrag(beginDrag(build, 'end', 0, 0, 1, weekdays), 1); // Build's end: Thursday → Friday
  assert.deepEqual(dates(drag.ghost), ['2026-09-09', '2026-09-12']);
  drag = stepDrag(drag, 1); // → Monday (the weekend is skipped)
  assert.deepEqual(dates(drag.ghost), ['2026-09-09', '2026-09-15']);
});

test('a drag that would leave years 1…9999 keeps its last ghost', () => {
  const late = { ...build, schedule: { start: '9999-12-29', end: '9999-12-31' } };
  const drag = dragTo(beginDrag(late, 'move', 0, 0, 40, everyDay), -40, 0);
  assert.deepEqual(dates(drag.ghost), ['9999-12-28', '9999-12-30']);
  assert.deepEqual(dates(dragTo(drag, 40, 0).ghost), ['9999-12-28', '9999-12-30'], 'an end in the year 10000 is not taken');
  assert.equal(shiftDates(everyDay, barDates(late), 'move', 5), null);
});

test('datesOperation proposes nothing for the dates the task has', () => {
  assert.equal(datesOperation(build, barDates(build)), null);
  assert.equal(datesOperation({ id: 'p', kind: 'summary' }, barDates(build)), null);
});

test('a booking moves or resizes by minutes; its end stays after its start', () => {
  const entry = { id: 'e', title: 'Workshop', start: '2026-09-09T09:00', end: '2026-09-09T12:30' };
  const shown = (interval) => [formatLocal(interval.start), formatLocal(interval.end)];
  assert.deepEqual(shown(shiftEntry(entry, 'move', 90)), ['2026-09-09T10:30', '2026-09-09T14:00']);
  assert.deepEqual(shown(shiftEntry(entry, 'end', -60)), ['2026-09-09T09:00', '2026-09-09T11:30']);
  assert.deepEqual(shown(shiftEntry(entry, 'start', 60)), ['2026-09-09T10:00', '2026-09-09T12:30']);
  assert.equal(shiftEntry(entry, 'end', -210), null);
  assert.equal(shiftEntry(entry, 'start', 240), null);
  assert.equal(parseLocal(entry.start) + 90, shiftEntry(entry, 'move', 90).start);
});
