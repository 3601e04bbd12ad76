// The task picker's matching: ids starting with the text first, then titles starting with it, then
// anything containing it; case and accents ignored; at most the limit, `more` when cut; the
// accepted tasks only; the index kept while the copy's revision holds and made anew after a change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { PickerIndex, pickerIndex, exactTask, PICKER_LIMIT } from '../../../clients/web/js/task-picker.mjs';

const tasks = [
  { id: 'build', title: 'Build the rig', kind: 'activity' },
  { id: 'b2', title: 'Rebuild', kind: 'activity' },
  { id: 'ops', title: 'Büro umbauen', kind: 'activity' },
  { id: 'bu', title: 'Phase', kind: 'summary' },
  { id: 'x1', title: 'Build report', kind: 'milestone' },
  { id: 'STRASSE', title: 'Straße', kind: 'activity' },
];
const ids = (result) => result.matches.map((match) => match.task.id);
const ranks = (result) => result.matches.map((match) => match.rank);

test('id prefix first (by id), then title prefix (by title), then containing (plan order)', () => {
  const index = new PickerIndex(tasks);
  const result = index.query('bu');
  assert.deepEqual(ids(result), ['bu', 'build', 'x1', 'ops', 'b2']);
  assert.deepEqual(ranks(result), [0, 0, 1, 1, 2]);
  assert.equal(result.more, false);
  assert.deepEqual(ids(index.query('rig')), ['build'], 'a title containing it');
  assert.deepEqual(ids(index.query('  nothing ')), []);
});

test('case and accents are ignored on both sides, ß reads as ss', () => {
  const index = new PickerIndex(tasks);
  assert.deepEqual(ids(index.query('BÜRO')), ['ops']);
  assert.deepEqual(ids(index.query('buro')), ['ops']);
  assert.deepEqual(ids(index.query('strasse')), ['STRASSE'], 'the id and the title match: listed once');
  assert.deepEqual(ranks(index.query('strasse')), [0]);
  assert.deepEqual(ids(index.query('Straße')), ['STRASSE']);
});

test('only accepted tasks, and a blank text lists the first accepted in plan order', () => {
  const index = new PickerIndex(tasks);
  const accept = (task) => task.kind !== 'summary' && task.id !== 'build';
  assert.deepEqual(ids(index.query('bu', accept)), ['x1', 'ops', 'b2']);
  assert.deepEqual(ids(index.query('', accept, 3)), ['b2', 'ops', 'x1']);
  assert.equal(index.query('', accept, 3).more, true);
  assert.equal(index.query('', accept, 4).more, false, 'exactly the limit: nothing more');
});

test('at most the limit, `more` when there were more; a full prefix tier ends the search', () => {
  const many = Array.from({ length: 120 }, (_, n) => ({ id: `t${String(n).padStart(3, '0')}`, title: `Task ${n}`, kind: 'activity' }));
  const index = new PickerIndex(many);
  const result = index.query('t');
  assert.equal(result.matches.length, PICKER_LIMIT);
  assert.equal(result.more, true);
  assert.deepEqual(ids(result).slice(0, 3), ['t000', 't001', 't002']);
  assert.ok(ranks(result).every((rank) => rank === 0));
  assert.deepEqual(ids(index.query('t11')), ['t110', 't111', 't112', 't113', 't114', 't115', 't116', 't117', 't118', 't119']);
  assert.deepEqual(ids(index.query('task 11', () => true, 5)), ['t011', 't110', 't111', 't112', 't113']);
});

test('the index of a copy is kept while its revision holds and made anew after a change', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks });
  const first = pickerIndex(copy);
  assert.equal(pickerIndex(copy), first);
  copy.apply(2, { upsert: [{ id: 'bunker', title: 'Bunker', kind: 'activity' }] });
  const second = pickerIndex(copy);
  assert.notEqual(second, first);
  assert.deepEqual(ids(second.query('bun')), ['bunker']);
  copy.apply(3, { remove: ['bunker'] });
  assert.deepEqual(ids(pickerIndex(copy).query('bun')), []);
});

test('an exact id names its task, when accepted', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks });
  assert.equal(exactTask(copy, ' build ').id, 'build');
  assert.equal(exactTask(copy, 'strasse').id, 'STRASSE', 'folded');
  assert.equal(exactTask(copy, 'bui'), null, 'a prefix is no name');
  assert.equal(exactTask(copy, 'bu', (task) => task.kind !== 'summary'), null);
  assert.equal(exactTask(copy, ''), null);
});
