// What the chart draws for a row and between rows (the Swift core's AxisBarsTests cases where they
// overlap), and the resources view's lanes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { rowValues, mark, arrows } from '../../../clients/web/js/marks.mjs';
import { lanes } from '../../../clients/web/js/lanes.mjs';

const axis = makeAxis(d('2026-09-08'), 20, 2);
const activity = (start, end, progress = 0) => ({ id: 'a', title: 'A', kind: 'activity', schedule: { start, end }, progress });

test('an activity covers its exact exclusive interval; progress is clipped by its own interval', () => {
  const bar = mark(axis, activity('2026-09-06', '2026-09-12', 50), rowValues(activity('2026-09-06', '2026-09-12', 50), {}));
  assert.equal(bar.type, 'bar');
  assert.deepEqual([bar.startX, bar.endX, bar.visibleStartX, bar.visibleEndX], [-1, 2, 0, 2]);
  assert.equal(bar.filledEndX, 0.5);
  assert.equal(bar.visibleFilledEndX, 0.5);
  const late = activity('2026-09-20', '2026-10-10', 100);
  const clipped = mark(axis, late, rowValues(late, {}));
  assert.deepEqual([clipped.visibleEndX, clipped.visibleFilledEndX], [10, 10]);
  const outside = activity('2026-10-01', '2026-10-03');
  assert.equal(mark(axis, outside, rowValues(outside, {})).type, 'outside');
});

test('milestones sit in their date column; unscheduled rows and summaries without bounds say so', () => {
  const milestone = { id: 'm', title: 'M', kind: 'milestone', date: '2026-09-09' };
  assert.deepEqual(mark(axis, milestone, rowValues(milestone, {})), { type: 'milestone', x: 0.75, column: 0 });
  const open = { id: 'o', title: 'O', kind: 'activity', progress: 10 };
  assert.deepEqual(rowValues(open, {}), { start: null, end: null, lastDate: null, progress: 10 });
  assert.equal(mark(axis, open, rowValues(open, {})).type, 'unscheduled');
  const group = { id: 'g', title: 'G', kind: 'summary' };
  assert.equal(mark(axis, group, rowValues(group, { g: { start: null, end: null, lastDate: null, progress: 0 } })).type, 'unscheduled');
  const values = rowValues(group, { g: { start: '2026-09-08', end: '2026-09-12', lastDate: '2026-09-11', progress: 37.5 } });
  assert.deepEqual(values, { start: d('2026-09-08'), end: d('2026-09-12'), lastDate: d('2026-09-11'), progress: 37.5 });
  assert.equal(mark(axis, group, values).isSummary, true);
});

test('arrows run between visible scheduled rows from end to start, none for hidden or unscheduled endpoints', () => {
  const rows = [
    { task: activity('2026-09-08', '2026-09-10') }, { task: { id: 'b', title: 'B', kind: 'activity', schedule: { start: '2026-09-12', end: '2026-09-14' } } },
    { task: { id: 'm', title: 'M', kind: 'milestone', date: '2026-09-15' } }, { task: { id: 'u', title: 'U', kind: 'activity' } },
  ];
  const index = new Map(rows.map((row, i) => [row.task.id, i]));
  const found = arrows(rows, [
    { predecessorID: 'a', successorID: 'b' }, { predecessorID: 'b', successorID: 'm' }, { predecessorID: 'a', successorID: 'u' },
    { predecessorID: 'hidden', successorID: 'b' },
  ], (task) => rowValues(task, {}), index);
  assert.equal(found.length, 2);
  assert.deepEqual([found[0].fromDay, found[0].toDay, found[0].fromRow, found[0].toRow], [d('2026-09-10'), d('2026-09-12'), 0, 1]);
  assert.deepEqual([found[1].toDay, found[1].toMilestone], [d('2026-09-15') + 0.5, true]);
});

test('overlapping entries go on separate lanes, sorted by start', () => {
  const item = (id, start, end) => ({ entry: { id, start: `2026-09-09T${start}`, end: `2026-09-09T${end}` } });
  const { placed, count } = lanes([item('c', '11:00', '12:00'), item('a', '09:00', '10:30'), item('b', '10:00', '11:00')]);
  assert.equal(count, 2);
  assert.deepEqual(placed.map((p) => [p.item.entry.id, p.lane]), [['a', 0], ['b', 1], ['c', 0]]);
  assert.equal(lanes([]).count, 1);
});
