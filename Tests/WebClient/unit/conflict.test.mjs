// A stale proposal in one step (conflict.mjs): what changed since it was formed, by whom and in
// which version, in both languages; whether the draft can go on the current value; the draft put
// there ("Apply mine") for a task, an unlink, the settings and an entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { ClientHistory } from '../../../clients/web/js/history.mjs';
import { staleConflict, rebase } from '../../../clients/web/js/conflict.mjs';
import { openTaskForm, taskOperation } from '../../../clients/web/js/task-forms.mjs';
import { parseCivil } from '../../../clients/web/js/dates.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const spec = { id: 'spec', title: 'Spec', kind: 'activity', schedule: { start: '2026-09-08', end: '2026-09-11' }, progress: 20 };
const build = { id: 'build', title: 'Build', kind: 'activity', progress: 0 };
const link = { predecessorID: 'spec', successorID: 'build', type: 'finish-to-start', lag: 0 };

/** The plan at version 3, then alice's (v4, progress 80) and bob's (v5, another task) versions. */
function later() {
  const copy = new PlanCopy({ plan: 'p', version: 3, tasks: [spec, build], dependencies: [link] });
  const history = new ClientHistory();
  const confirm = (version, user, changes) => {
    const message = { version, mutation: { id: `m${version}`, user }, changes: { upsert: [], remove: [], summaries: {}, ...changes } };
    copy.apply(version, message.changes);
    history.receiveConfirmed(message);
  };
  confirm(4, 'alice', { upsert: [{ ...spec, progress: 80 }] });
  confirm(5, 'bob', { upsert: [{ ...build, title: 'Build it' }] });
  return { copy, history, confirm };
}

test('a stale replace says what changed since, by whom and in which version; only the versions that touched it', () => {
  const { copy, history } = later();
  const op = { type: 'replace', previous: spec, proposed: { ...spec, title: 'Spec v2' } };
  assert.deepEqual(staleConflict('en', op, 3, copy, history),
    { text: 'Changed since by alice (v4): set the progress of “Spec” to 80 %.', applicable: true });
  assert.equal(staleConflict('de', op, 3, copy, history).text, 'Seitdem geändert von alice (v4): setzte den Fortschritt von „Spec“ auf 80 %.');
  assert.equal(staleConflict('en', { type: 'undo', version: 2 }, 3, copy, history), null, 'an undo says its own words');
});

test('a removed task or dependency cannot take the draft; a changed dependency is named with its type and lag', () => {
  const { copy, history, confirm } = later();
  confirm(6, 'carol', { remove: ['spec'], dependencies: [] });
  const removed = staleConflict('en', { type: 'remove', previous: spec }, 3, copy, history);
  assert.deepEqual(removed, { text: 'Changed since by alice (v4), carol (v6): removed “Spec”.', applicable: false });
  const unlink = staleConflict('en', { type: 'unlink', dependency: link }, 5, copy, history);
  assert.equal(unlink.applicable, false);
  assert.equal(unlink.text, 'Changed since by carol (v6): removed the dependency “spec” → “Build it”.');
  const relinked = later();
  relinked.confirm(6, 'dave', { dependencies: [{ ...link, type: 'start-to-start', lag: 2 }] });
  assert.equal(staleConflict('en', { type: 'unlink', dependency: link }, 3, relinked.copy, relinked.history).text,
    'Changed since by dave (v6): changed the dependency Spec → Build it (Start → Start, +2 working days).');
});

test('Apply mine: the draft on the current task keeps what others changed; an unlink takes the pair as it is now', () => {
  const { copy } = later();
  const form = openTaskForm('details', spec, copy, 'en', parseCivil('2026-09-01'));
  assert.equal(rebase(form, copy), true);
  assert.equal(form.seenAt, 5, 'a later conflict is told from the version rebased to');
  assert.deepEqual(taskOperation(form, { title: 'Spec v2' }, copy, 'en', 'x').op,
    { type: 'replace', previous: { ...spec, progress: 80 }, proposed: { ...spec, progress: 80, title: 'Spec v2' } });
  const relinked = later();
  const now = { ...link, lag: 3 };
  relinked.confirm(6, 'dave', { dependencies: [now] });
  const unlink = openTaskForm('unlink', spec, relinked.copy, 'en', 0);
  const chosen = { dependency: JSON.stringify(link) };
  assert.deepEqual(taskOperation(unlink, chosen, relinked.copy, 'en', 'x').op.dependency, link, 'before: the value as seen');
  rebase(unlink, relinked.copy);
  assert.deepEqual(taskOperation(unlink, chosen, relinked.copy, 'en', 'x').op.dependency, now);
  const gone = later();
  gone.confirm(6, 'carol', { remove: ['spec'], dependencies: [] });
  assert.equal(rebase(openTaskForm('progress', spec, copy, 'en', 0), gone.copy), false);
});

test('settings and entries: what changed, and the draft on the current value', () => {
  const { copy, history, confirm } = later();
  const seen = copy.settings;
  confirm(6, 'alice', { settings: { scheduling: 'automatic', calendar: seen.calendar } });
  const settings = staleConflict('en', { type: 'settings.replace', previous: seen, proposed: seen }, 3, copy, history);
  assert.deepEqual(settings, { text: 'Changed since by alice (v6): set scheduling to automatic.', applicable: true });
  const form = { action: 'settings', original: seen };
  assert.equal(rebase(form, copy), true);
  assert.equal(form.original.scheduling, 'automatic');
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-09T09:00', end: '2026-09-09T12:00' };
  const assignment = { id: 'a1', entryID: 'e1', resourceID: 'room-1' };
  const moved = { ...entry, start: '2026-09-09T10:00', end: '2026-09-09T13:00' };
  const timeline = { entries: new Map([['e1', moved]]), assignments: new Map([['a1', assignment]]) };
  confirm(7, 'bob', { entries: ['e1'] });
  const op = { type: 'timeline.apply', original: { entry, assignment }, proposed: { entry: { ...entry, title: 'W' }, assignment } };
  assert.deepEqual(staleConflict('en', op, 3, copy, history, timeline),
    { text: 'Changed since by bob (v7): moved “Workshop” to 2026-09-09T10:00 – 2026-09-09T13:00.', applicable: true });
  const entryForm = { action: 'retitleEntry', original: { entry, assignment } };
  assert.equal(rebase(entryForm, copy, timeline), true);
  assert.deepEqual(entryForm.original, { entry: moved, assignment });
  assert.equal(staleConflict('en', op, 3, copy, history, { entries: new Map(), assignments: new Map() }).applicable, false);
});
