// What the chart draws for a row and between rows (the Swift core's AxisBarsTests cases where they
// overlap), and the resources view's lanes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { rowValues, mark } from '../../../clients/web/js/marks.mjs';
import { arrowBetween, anchors, arrowPath, criticalArrow } from '../../../clients/web/js/arrows.mjs';
import { makeCalendar } from '../../../clients/web/js/calendar.mjs';
import { arrowLabel } from '../../../clients/web/js/wording.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));
import { lanes } from '../../../clients/web/js/lanes.mjs';

const axis = makeAxis(d('2026-09-08'), 20, 2);
/** The arrows of `dependencies` between `rows` (index: id → row), none where an endpoint is not a row. */
const arrows = (rows, dependencies, valuesOf, index) => dependencies.map((dependency) => {
  const at = (id) => (index.has(id) ? { task: rows[index.get(id)].task, index: index.get(id) } : undefined);
  return arrowBetween(dependency, at(dependency.predecessorID), at(dependency.successorID), valuesOf);
}).filter((arrow) => arrow !== null);
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

test('each type joins its anchors: FS end → start, SS start → start, FF end → end, SF start → end', () => {
  assert.deepEqual(['finish-to-start', 'start-to-start', 'finish-to-finish', 'start-to-finish', undefined].map((type) => anchors(type)),
    [{ from: 'end', to: 'start' }, { from: 'start', to: 'start' }, { from: 'end', to: 'end' }, { from: 'start', to: 'end' }, { from: 'end', to: 'start' }]);
  const rows = [{ task: activity('2026-09-08', '2026-09-10') }, { task: { id: 'b', kind: 'activity', schedule: { start: '2026-09-12', end: '2026-09-14' } } },
    { task: { id: 'm', kind: 'milestone', date: '2026-09-15' } }];
  const index = new Map(rows.map((row, i) => [row.task.id, i]));
  const found = arrows(rows, [{ predecessorID: 'a', successorID: 'b', type: 'start-to-finish', lag: 1 }, { predecessorID: 'b', successorID: 'm', type: 'finish-to-finish' }],
    (task) => rowValues(task, {}), index);
  assert.deepEqual([found[0].fromDay, found[0].toDay, found[0].fromSide, found[0].toSide], [d('2026-09-08'), d('2026-09-14'), 'start', 'end']);
  assert.deepEqual([found[1].fromAnchor, found[1].toAnchor, found[1].toDay], [d('2026-09-14'), d('2026-09-15'), d('2026-09-15') + 0.5]);
});

test('arrow paths leave an end rightwards and a start leftwards, enter a start from the left and an end from the right', () => {
  // Finish → start as before: straight when there is room, else turning on the row's edge.
  assert.deepEqual(arrowPath(0, 10, 40, 38), { d: 'M0 10H8V38H39', head: 'M40 38l-6 -4v8z', labelX: 30, labelAnchor: 'end' });
  assert.equal(arrowPath(0, 10, 10, 38).d, 'M0 10H8V24H0V38H9');
  assert.equal(arrowPath(0, 10, 40, 38, { fromMilestone: true, toMilestone: true }).d, 'M7 10H15V38H32');
  assert.equal(arrowPath(50, 10, 40, 38, { fromSide: 'start' }).d, 'M50 10H32V38H39', 'start → start turns left of both');
  const finish = arrowPath(20, 10, 60, 38, { toSide: 'end' });
  assert.deepEqual([finish.d, finish.head, finish.labelAnchor], ['M20 10H68V38H61', 'M60 38l6 -4v8z', 'start'], 'finish → finish comes back from the right');
  assert.equal(arrowPath(60, 10, 20, 38, { fromSide: 'start', toSide: 'end' }).d, 'M60 10H52V38H21');
  assert.equal(arrowPath(20, 10, 30, 38, { fromSide: 'start', toSide: 'end' }).d, 'M20 10H12V24H40V38H31');
});

test('arrow labels name a type other than finish-to-start and a lag; a critical arrow binds two critical tasks', () => {
  assert.equal(arrowLabel('en', { type: 'finish-to-start', lag: 0 }), '');
  assert.equal(arrowLabel('en', {}), '');
  assert.equal(arrowLabel('en', { type: 'start-to-start', lag: 2 }), 'SS +2');
  assert.equal(arrowLabel('en', { type: 'finish-to-start', lag: -1 }), 'FS −1');
  assert.equal(arrowLabel('de', { type: 'finish-to-finish', lag: 0 }), 'EE');
  const weekdays = makeCalendar({ workingDays: [1, 2, 3, 4, 5] });
  // P ends (exclusive) on Saturday 09-12, S starts on Monday 09-14: no working day between them.
  const arrow = { dependency: { predecessorID: 'p', successorID: 's', lag: 0 }, fromAnchor: d('2026-09-12'), toAnchor: d('2026-09-14') };
  const critical = { p: { critical: true }, s: { critical: true } };
  assert.equal(criticalArrow(arrow, critical, weekdays), true);
  assert.equal(criticalArrow(arrow, critical, makeCalendar({})), false, 'every day working: a gap of two days');
  assert.equal(criticalArrow(arrow, { ...critical, p: { critical: false } }, weekdays), false);
  assert.equal(criticalArrow(arrow, null, weekdays), false);
});

test('overlapping entries go on separate lanes, sorted by start', () => {
  const item = (id, start, end) => ({ entry: { id, start: `2026-09-09T${start}`, end: `2026-09-09T${end}` } });
  const { placed, count } = lanes([item('c', '11:00', '12:00'), item('a', '09:00', '10:30'), item('b', '10:00', '11:00')]);
  assert.equal(count, 2);
  assert.deepEqual(placed.map((p) => [p.item.entry.id, p.lane]), [['a', 0], ['b', 1], ['c', 0]]);
  assert.equal(lanes([]).count, 1);
});
