// The client copy applies `changes` as docs/protocol.md §5.5 and ClientPlanCopy.swift do: the §5.3
// sequence of the example plan, the errors that leave the copy unchanged, and descendants (the visible
// tree: plan-tree.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanCopy, CopyError } from '../../../clients/web/js/plan-copy.mjs';

const design = { id: 'design', title: 'Design', parentID: 'phase-1', kind: 'activity', schedule: { start: '2026-09-08', end: '2026-09-10' }, progress: 25 };
const spec = { id: 'spec', title: 'Spec', parentID: 'phase-1', kind: 'activity', progress: 50 };
const snapshot = () => ({
  type: 'snapshot', plan: 'demo', version: 12, title: 'Website relaunch',
  tasks: [
    { id: 'phase-1', title: 'Phase 1', kind: 'summary' }, design, spec,
    { id: 'build', title: 'Build', parentID: 'phase-1', kind: 'activity', schedule: { start: '2026-09-10', end: '2026-09-20' }, progress: 37.5 },
    { id: 'phase-2', title: 'Phase 2', kind: 'summary' }, { id: 'release', title: 'Release', kind: 'milestone', date: '2026-10-01' },
  ],
  dependencies: [{ predecessorID: 'design', successorID: 'build' }],
  resources: [{ id: 'room-1', label: 'Room 1' }],
  summaries: { 'phase-1': { start: '2026-09-08', end: '2026-09-20', lastDate: '2026-09-19', progress: 37.5 },
    'phase-2': { start: null, end: null, lastDate: null, progress: 0 } },
});
const ids = (copy) => copy.tasks.map((task) => task.id);

test('the sequence of docs/protocol.md §5.3 turns version 12 into 21', () => {
  const copy = new PlanCopy(snapshot());
  copy.apply(13, { upsert: [{ ...design, progress: 100 }], remove: [], summaries: { 'phase-1': { start: '2026-09-08', end: '2026-09-20', lastDate: '2026-09-19', progress: 62.5 } } });
  assert.equal(copy.get('design').progress, 100);
  assert.equal(copy.summaries['phase-1'].progress, 62.5);
  assert.deepEqual(ids(copy), ['phase-1', 'design', 'spec', 'build', 'phase-2', 'release']);
  copy.apply(14, { order: ['phase-1', 'spec', 'design', 'build', 'phase-2', 'release'] });
  assert.deepEqual(ids(copy), ['phase-1', 'spec', 'design', 'build', 'phase-2', 'release']);
  assert.equal(copy.get('design').id, 'design');
  copy.apply(15, { dependencies: [{ predecessorID: 'design', successorID: 'build' }, { predecessorID: 'build', successorID: 'release' }] });
  assert.equal(copy.dependencies.length, 2);
  copy.apply(16, { entries: ['e1'] });
  const qa = { id: 'qa', title: 'QA', parentID: 'phase-2', kind: 'activity', schedule: { start: '2026-09-21', end: '2026-09-26' }, progress: 0 };
  copy.apply(17, { upsert: [qa], summaries: { 'phase-2': { start: '2026-09-21', end: '2026-09-26', lastDate: '2026-09-25', progress: 0 } } });
  assert.equal(ids(copy).at(-1), 'qa');
  copy.apply(18, { remove: ['spec'], summaries: { 'phase-1': { start: '2026-09-08', end: '2026-09-20', lastDate: '2026-09-19', progress: 68.75 } } });
  assert.deepEqual(ids(copy), ['phase-1', 'design', 'build', 'phase-2', 'release', 'qa']);
  assert.equal(copy.get('spec'), undefined);
  assert.equal(copy.get('qa').title, 'QA');
  assert.equal(copy.version, 18);
  copy.apply(19, { upsert: [{ id: 'phase-2', title: 'Phase 2', kind: 'activity', progress: 0 }] });
  assert.equal(copy.summaries['phase-2'], undefined, 'a summary turned activity loses its values');
  copy.apply(20, { baselines: [{ name: 'Q3', version: 19, at: '2026-12-01T10:20:00.000Z' }] });
  assert.equal(copy.baselines[0].name, 'Q3');
});

test('settings: the defaults without any, the snapshot’s, then each changes.settings (scheduling.md §11)', () => {
  assert.deepEqual(new PlanCopy(snapshot()).settings, { scheduling: 'manual', calendar: { workingDays: [1, 2, 3, 4, 5, 6, 7], holidays: [] } });
  const automatic = { scheduling: 'automatic', calendar: { workingDays: [1, 2, 3, 4, 5], holidays: ['2026-12-25'] } };
  const copy = new PlanCopy({ ...snapshot(), settings: automatic });
  assert.deepEqual(copy.settings, automatic);
  copy.apply(13, { upsert: [], remove: [], summaries: {} });
  assert.equal(copy.settings, automatic, 'kept when a version does not change them');
  const manual = { ...automatic, scheduling: 'manual' };
  copy.apply(14, { upsert: [], remove: [], summaries: {}, settings: manual });
  assert.deepEqual(copy.settings, manual);
  // A push (§4.4): the own and the pushed tasks are upserted with their final values.
  copy.apply(15, { upsert: [{ ...design, schedule: { start: '2026-09-09', end: '2026-09-11' } }, { ...snapshot().tasks[3], schedule: { start: '2026-09-11', end: '2026-09-22' } }], pushed: ['build'] });
  assert.equal(copy.get('build').schedule.start, '2026-09-11');
});

test('a gap, a duplicate and changes that do not fit throw and leave the copy unchanged', () => {
  const copy = new PlanCopy(snapshot());
  const before = JSON.stringify(copy.tasks);
  const kind = (fn) => { try { fn(); } catch (error) { assert.ok(error instanceof CopyError); return error.kind; } return null; };
  assert.equal(kind(() => copy.apply(14, {})), 'gap');
  assert.equal(kind(() => copy.apply(12, {})), 'duplicate');
  assert.equal(kind(() => copy.apply(13, { remove: ['nope'] })), 'inconsistent');
  assert.equal(kind(() => copy.apply(13, { remove: ['spec', 'spec'] })), 'inconsistent');
  assert.equal(kind(() => copy.apply(13, { remove: ['spec'], upsert: [spec] })), 'inconsistent');
  assert.equal(kind(() => copy.apply(13, { order: ['phase-1'] })), 'inconsistent');
  assert.equal(kind(() => copy.apply(13, { order: ['phase-1', 'phase-1', 'spec', 'build', 'phase-2', 'release'] })), 'inconsistent');
  assert.equal(kind(() => copy.apply(13, { order: ['x', 'design', 'spec', 'build', 'phase-2', 'release'] })), 'inconsistent');
  assert.equal(JSON.stringify(copy.tasks), before);
  assert.equal(copy.version, 12);
});

test('an add with an order that names the new task, a removal with the order of the rest', () => {
  const copy = new PlanCopy(snapshot());
  copy.apply(13, { upsert: [{ id: 'n', title: 'N', kind: 'milestone', date: '2026-09-01' }], order: ['n', 'phase-1', 'design', 'spec', 'build', 'phase-2', 'release'] });
  assert.deepEqual(ids(copy), ['n', 'phase-1', 'design', 'spec', 'build', 'phase-2', 'release']);
  copy.apply(14, { remove: ['n', 'release'], order: ['phase-2', 'phase-1', 'design', 'spec', 'build'] });
  assert.deepEqual(ids(copy), ['phase-2', 'phase-1', 'design', 'spec', 'build']);
  assert.equal(copy.get('build').id, 'build');
});

test('descendants: every task under a summary, at any depth', () => {
  const copy = new PlanCopy(snapshot());
  copy.apply(13, { upsert: [{ id: 'late', title: 'Late child', parentID: 'phase-2', kind: 'activity', progress: 0 }] });
  assert.deepEqual([...copy.descendants('phase-1')].sort(), ['build', 'design', 'spec']);
  assert.deepEqual([...copy.descendants('phase-2')], ['late']);
});
