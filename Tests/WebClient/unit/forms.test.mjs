// Forms to ops: what each form proposes from its draft (moving keeps the duration, changing the
// duration keeps the start, progress keeps the dates), what it refuses in words, and the drags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { openTaskForm, taskOperation, reorderOperation, linkOperation, parseLag } from '../../../clients/web/js/task-forms.mjs';
import { openEntryForm, entryOperation, dragOperation, resizeOperation } from '../../../clients/web/js/entry-forms.mjs';
import { availableActions } from '../../../clients/web/js/wording.mjs';
import { parseCivil, parseLocal } from '../../../clients/web/js/dates.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const spec = { id: 'spec', title: 'Spec', parentID: 'g', kind: 'activity', schedule: { start: '2026-09-08', end: '2026-09-11' }, progress: 20 };
const copy = new PlanCopy({ plan: 'p', version: 3, tasks: [
  { id: 'g', title: 'Group', kind: 'summary' }, spec, { id: 'open', title: 'Open', parentID: 'g', kind: 'activity', progress: 0 },
  { id: 'm', title: 'Done', kind: 'milestone', date: '2026-10-01' }, { id: 'h', title: 'Other group', kind: 'summary' },
  { id: 'sub', title: 'Sub', parentID: 'g', kind: 'summary' }], dependencies: [{ predecessorID: 'spec', successorID: 'm' }] });
const today = parseCivil('2026-09-01');
const values = (form) => Object.fromEntries(form.fields.map((field) => [field.name, field.value]));
const run = (action, task, changes, language = 'en') => {
  const form = openTaskForm(action, task, copy, language, today);
  return taskOperation(form, { ...values(form), ...changes }, copy, language, 'new-id');
};

test('dates keep the duration, duration keeps the start, progress keeps the dates', () => {
  assert.deepEqual(run('dates', spec, { start: '2026-09-20' }).op.proposed.schedule, { start: '2026-09-20', end: '2026-09-23' });
  assert.deepEqual(run('duration', spec, { days: '5' }).op.proposed.schedule, { start: '2026-09-08', end: '2026-09-13' });
  const progress = run('progress', spec, { progress: '62,5' }).op;
  assert.equal(progress.type, 'replace');
  assert.deepEqual(progress.previous, spec);
  assert.deepEqual(progress.proposed, { ...spec, progress: 62.5 });
  assert.deepEqual(run('dates', copy.get('open'), { start: '2026-09-02', days: '2' }).op.proposed.schedule, { start: '2026-09-02', end: '2026-09-04' });
  assert.equal(run('dates', copy.get('m'), { date: '2026-10-05' }).op.proposed.date, '2026-10-05');
});

test('a draft that is no date, no whole number of days or outside 0…100 is refused in words, nothing proposed', () => {
  assert.deepEqual(run('dates', spec, { start: '2026-02-30' }), { error: 'Not a date (YYYY-MM-DD).' });
  assert.deepEqual(run('duration', spec, { days: '1.5' }), { error: 'Days must be a whole number of at least 1.' });
  assert.deepEqual(run('duration', spec, { days: '0' }), { error: 'Days must be a whole number of at least 1.' });
  assert.deepEqual(run('progress', spec, { progress: '101' }), { error: 'Progress must be a number from 0 to 100.' });
  assert.deepEqual(run('progress', spec, { progress: '' }), { error: 'Progress must be a number from 0 to 100.' });
  assert.deepEqual(run('details', spec, { title: '   ' }), { error: 'The title is empty.' });
  assert.deepEqual(run('progress', spec, { progress: 'x' }, 'de'), { error: 'Der Fortschritt muss zwischen 0 und 100 liegen.' });
});

test('group, order, link and unlink forms offer what the rules allow and propose the matching op', () => {
  const group = openTaskForm('group', copy.get('sub'), copy, 'en', today);
  assert.deepEqual(group.fields[0].options.map((o) => o.id), ['', 'g', 'h'], 'not itself, not its descendants');
  const moved = run('group', spec, { parent: 'h' }).op;
  assert.equal(moved.proposed.parentID, 'h');
  assert.equal('parentID' in run('group', spec, { parent: '' }).op.proposed, false, 'top level: no parentID');
  const order = openTaskForm('order', spec, copy, 'en', today);
  assert.deepEqual(order.fields[1].options.map((o) => o.id), ['open', 'sub']);
  assert.deepEqual(run('order', spec, { sibling: 'sub', position: 'before' }).op,
    { type: 'reorder', previous: spec, relativeTo: copy.get('sub'), position: 'before' });
  assert.equal(openTaskForm('order', copy.get('m'), new PlanCopy({ plan: 'p', version: 0, tasks: [copy.get('m')] }), 'en', today).note,
    'No siblings: the order cannot change.');
  assert.deepEqual(run('link', spec, { role: 'successor', other: 'open' }).op,
    { type: 'link', dependency: { predecessorID: 'open', successorID: 'spec', type: 'finish-to-start', lag: 0 } });
  const unlink = openTaskForm('unlink', spec, copy, 'en', today);
  assert.equal(unlink.fields[0].options[0].label, 'Spec → Done (Finish → Start, no lag)');
  assert.deepEqual(run('unlink', spec, {}).op, { type: 'unlink', dependency: { predecessorID: 'spec', successorID: 'm' } });
  // A typed dependency is unlinked as held, type and lag included (else the server finds it stale).
  const typed = { predecessorID: 'spec', successorID: 'm', type: 'start-to-start', lag: 2 };
  const typedCopy = new PlanCopy({ plan: 'p', version: 3, tasks: copy.tasks, dependencies: [typed] });
  const typedForm = openTaskForm('unlink', spec, typedCopy, 'en', today);
  assert.deepEqual(taskOperation(typedForm, values(typedForm), typedCopy, 'en', 'x').op, { type: 'unlink', dependency: typed });
  assert.equal(typedForm.fields[0].options[0].label, 'Spec → Done (Start → Start, +2 working days)');
  assert.equal(openTaskForm('unlink', spec, new PlanCopy({ plan: 'p', version: 3, tasks: copy.tasks,
    dependencies: [{ ...typed, type: 'start-to-finish', lag: -1 }] }), 'de', today).fields[0].options[0].label,
  'Spec → Done (Anfang → Ende, −1 Arbeitstag)');
  assert.deepEqual(run('remove', spec, {}).op, { type: 'remove', previous: spec });
});

test('the link form picks the other task by typing: any but itself and the summaries, an exact id names one', () => {
  const other = openTaskForm('link', spec, copy, 'en', today).fields[1];
  assert.equal(other.type, 'combobox');
  assert.equal(other.value, '', 'nothing chosen until picked');
  assert.deepEqual(other.search('').matches.map((match) => match.task.id), ['open', 'm']);
  assert.deepEqual(other.search('O').matches.map((match) => match.task.id), ['open', 'm'], 'a title containing it after the prefixes');
  assert.deepEqual(other.search('sp').matches, [], 'not itself');
  assert.deepEqual(other.search('group').matches, [], 'no summary');
  assert.equal(other.exact('OPEN').id, 'open');
  assert.equal(other.exact('g'), null);
  assert.deepEqual(run('link', spec, { other: '' }), { error: 'Choose one.' });
  assert.equal(openTaskForm('link', spec, new PlanCopy({ plan: 'p', version: 1, tasks: [copy.get('g'), spec] }), 'en', today).note,
    'This action is not available for this task.');
});

test('the link form: a type and a lag in working days, refused in words unless a whole number in −1000…1000', () => {
  const link = openTaskForm('link', spec, copy, 'en', today);
  assert.deepEqual(link.fields.map((field) => field.name), ['role', 'other', 'type', 'lag']);
  assert.deepEqual(link.fields[2].options.map((o) => o.label), ['Finish → Start', 'Start → Start', 'Finish → Finish', 'Start → Finish']);
  assert.deepEqual(run('link', spec, { other: 'open', type: 'start-to-start', lag: '+2' }).op,
    { type: 'link', dependency: { predecessorID: 'spec', successorID: 'open', type: 'start-to-start', lag: 2 } });
  assert.equal(run('link', spec, { other: 'open', lag: '−3' }).op.dependency.lag, -3, 'a typographic minus reads');
  for (const lag of ['1.5', '1001', '', 'two', '2e2', '--1']) {
    assert.deepEqual(run('link', spec, { other: 'open', lag }), { error: 'The lag is a whole number of working days from −1000 to 1000.' }, lag);
  }
  assert.equal(run('link', spec, { other: 'open', lag: 'x' }, 'de').error, 'Der Abstand ist eine ganze Zahl von Arbeitstagen zwischen −1000 und 1000.');
  assert.deepEqual([parseLag('-1000'), parseLag(' 1000 '), parseLag('-0'), parseLag('+0')], [-1000, 1000, 0, 0]);
  // A pair already linked changes its type and lag in one version: relink, judged by value.
  assert.deepEqual(run('link', spec, { other: 'm', type: 'finish-to-finish', lag: '1' }).op, { type: 'relink',
    previous: { predecessorID: 'spec', successorID: 'm' }, proposed: { predecessorID: 'spec', successorID: 'm', type: 'finish-to-finish', lag: 1 } });
});

test('adding: an activity (scheduled or not), a milestone, a summary, in a group', () => {
  const add = (changes) => run('addTask', null, { title: 'New', ...changes }).op?.task ?? run('addTask', null, { title: 'New', ...changes });
  assert.deepEqual(add({ start: '2026-09-03', days: '2' }), { id: 'new-id', title: 'New', kind: 'activity', progress: 0, schedule: { start: '2026-09-03', end: '2026-09-05' } });
  assert.deepEqual(add({ start: '' }), { id: 'new-id', title: 'New', kind: 'activity', progress: 0 });
  assert.deepEqual(add({ kind: 'milestone', start: '2026-09-09', parent: 'g' }), { id: 'new-id', title: 'New', kind: 'milestone', parentID: 'g', date: '2026-09-09' });
  assert.deepEqual(add({ kind: 'summary' }), { id: 'new-id', title: 'New', kind: 'summary' });
  const child = openTaskForm('addChild', copy.get('g'), copy, 'en', today);
  assert.equal(child.fields.find((f) => f.name === 'parent').value, 'g');
  assert.equal(run('addTask', null, { title: '' }).error, 'The title is empty.');
});

test('the actions each kind allows (seed 000), and the drags', () => {
  assert.deepEqual(availableActions(copy.get('g')), ['details', 'group', 'order', 'addTask', 'addChild', 'remove']);
  assert.ok(!availableActions(copy.get('open')).includes('duration'));
  assert.ok(availableActions(spec).includes('duration'));
  assert.ok(!availableActions(copy.get('m')).includes('progress'));
  assert.equal(reorderOperation(spec, copy.get('h'), 'before'), null, 'no cross-parent reorder');
  assert.equal(reorderOperation(spec, spec, 'before'), null);
  assert.equal(reorderOperation(spec, copy.get('open'), 'after').position, 'after');
  assert.equal(linkOperation(spec, copy.get('g')), null, 'summaries are no endpoints');
  assert.deepEqual(linkOperation(spec, copy.get('open')), { type: 'link', dependency: { predecessorID: 'spec', successorID: 'open' } });
});

test('entry forms: add with its assignments, move keeping the length, resize, rename, reassign, remove', () => {
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-09T09:00', end: '2026-09-09T12:30' };
  const target = { entry, assignment: { id: 'a1', entryID: 'e1', resourceID: 'r1' } };
  const resources = [{ id: 'r1', label: 'Room 1' }, { id: 'r2', label: 'Room 2' }];
  let n = 0;
  const ids = (kind) => `${kind}-${(n += 1)}`;
  const go = (action, changes, on = target) => {
    const form = openEntryForm(action, on, resources, 'en', parseLocal('2026-09-10T09:00'), 'r2');
    return entryOperation(form, { ...values(form), ...changes }, 'en', ids);
  };
  const added = go('addEntry', { title: 'Retro', resources: ['r1', 'r2'] }, null).op;
  assert.deepEqual(added.entry, { id: 'e-1', title: 'Retro', start: '2026-09-10T09:00', end: '2026-09-10T10:00' });
  assert.deepEqual(added.assignments, [{ id: 'a-2', entryID: 'e-1', resourceID: 'r1' }, { id: 'a-3', entryID: 'e-1', resourceID: 'r2' }]);
  assert.equal(go('addEntry', { title: 'x', resources: [] }, null).error, 'Choose at least one resource.');
  assert.deepEqual(go('moveEntry', { start: '2026-09-09T10:00' }).op.proposed.entry, { ...entry, start: '2026-09-09T10:00', end: '2026-09-09T13:30' });
  assert.equal(go('resizeEntry', { end: '2026-09-09T08:00' }).error, 'The end must be after the start.');
  assert.equal(go('resizeEntry', { start: '2026-09-09T24:00' }).error, 'Not a time (YYYY-MM-DDTHH:MM).');
  assert.equal(go('retitleEntry', { title: 'Big workshop' }).op.proposed.entry.title, 'Big workshop');
  const reassigned = go('reassignEntry', { resource: 'r2' }).op;
  assert.deepEqual(reassigned.original, target);
  assert.deepEqual(reassigned.proposed.assignment, { id: 'a1', entryID: 'e1', resourceID: 'r2' });
  assert.deepEqual(go('removeEntry', {}).op, { type: 'timeline.remove', entry });
  assert.deepEqual(dragOperation(target, 90, 'r2').proposed, { entry: { ...entry, start: '2026-09-09T10:30', end: '2026-09-09T14:00' }, assignment: { ...target.assignment, resourceID: 'r2' } });
  assert.equal(dragOperation(target, 0, 'r1'), null, 'a drag that changes nothing proposes nothing');
});

test('dragging an entry’s start or end changes only that end, never to an empty interval', () => {
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-09T09:00', end: '2026-09-09T12:30' };
  const target = { entry, assignment: { id: 'a1', entryID: 'e1', resourceID: 'r1' } };
  const later = resizeOperation(target, 'end', 360);
  assert.equal(later.type, 'timeline.apply');
  assert.deepEqual(later.original, target);
  assert.deepEqual(later.proposed, { entry: { ...entry, end: '2026-09-09T18:30' }, assignment: target.assignment });
  assert.deepEqual(resizeOperation(target, 'start', -75).proposed.entry, { ...entry, start: '2026-09-09T07:45' });
  assert.deepEqual(resizeOperation(target, 'start', 150).proposed.entry, { ...entry, start: '2026-09-09T11:30' });
  assert.equal(resizeOperation(target, 'start', 210), null, 'the start onto the end');
  assert.equal(resizeOperation(target, 'end', -300), null, 'the end before the start');
  assert.equal(resizeOperation(target, 'end', 0), null);
});

test('German date fields take the German list\'s dd.mm.yyyy (and d.m.yyyy) as well as ISO; English only ISO', () => {
  assert.equal(run('dates', copy.get('m'), { date: '05.10.2026' }, 'de').op.proposed.date, '2026-10-05');
  assert.equal(run('dates', copy.get('m'), { date: '5.10.2026' }, 'de').op.proposed.date, '2026-10-05');
  assert.equal(run('dates', copy.get('m'), { date: '2026-10-05' }, 'de').op.proposed.date, '2026-10-05');
  assert.deepEqual(run('dates', spec, { start: '20.09.2026' }, 'de').op.proposed.schedule, { start: '2026-09-20', end: '2026-09-23' });
  assert.equal(run('addTask', null, { title: 'M', kind: 'milestone', start: '1.2.2027' }, 'de').op.task.date, '2027-02-01');
  assert.equal(run('dates', copy.get('m'), { date: '30.02.2026' }, 'de').error, 'Ungültiges Datum (TT.MM.JJJJ oder JJJJ-MM-TT).');
  assert.equal(run('dates', copy.get('m'), { date: '05.10.2026' }).error, 'Not a date (YYYY-MM-DD).');
  const resources = [{ id: 'r1', label: 'Room' }];
  const form = openEntryForm('addEntry', null, resources, 'de', parseLocal('2026-09-08T09:00'), 'r1');
  const added = entryOperation(form, { title: 'Talk', start: '08.09.2026 09:00', end: '8.9.2026 10:30', resources: ['r1'] }, 'de', (kind) => `${kind}-1`);
  assert.deepEqual([added.op.entry.start, added.op.entry.end], ['2026-09-08T09:00', '2026-09-08T10:30']);
});
