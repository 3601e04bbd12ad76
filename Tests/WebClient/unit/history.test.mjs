// Undo and redo targets (docs/protocol.md §5.9): the newest own version not yet undone; redo undoes
// that undo; a new change clears the redo stack; other users' versions and baselines are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientHistory } from '../../../clients/web/js/history.mjs';

const confirmed = (version, user, undoes = null, changes = {}) => ({ version, mutation: { id: `p${version}`, user, ...(undoes ? { undoes } : {}) }, changes });

test('undo targets the newest own version; redo the undo of it; a new change clears redo', () => {
  const history = new ClientHistory();
  history.receiveConfirmed(confirmed(1, 'alice'));
  history.receiveConfirmed(confirmed(2, 'bob'));
  history.receiveConfirmed(confirmed(3, 'alice'));
  assert.equal(history.undoTarget('alice'), 3);
  assert.equal(history.undoTarget('bob'), 2);
  assert.equal(history.redoTarget('alice'), null);
  history.receiveConfirmed(confirmed(4, 'alice', 3));
  assert.equal(history.undoTarget('alice'), 1);
  assert.equal(history.redoTarget('alice'), 4);
  history.receiveConfirmed(confirmed(5, 'alice', 4));
  assert.equal(history.undoTarget('alice'), 5, 'the redo is itself undoable');
  assert.equal(history.redoTarget('alice'), null);
  history.receiveConfirmed(confirmed(6, 'alice', 5));
  assert.equal(history.redoTarget('alice'), 6);
  history.receiveConfirmed(confirmed(7, 'alice'));
  assert.equal(history.redoTarget('alice'), null, 'a new change clears the redo stack');
  assert.equal(history.undoTarget('alice'), 7);
});

test('baselines are skipped; pages fill in ops, list versions below the log start as not kept, say whether more exist', () => {
  const history = new ClientHistory();
  history.receiveConfirmed(confirmed(9, 'alice'));
  history.receiveConfirmed(confirmed(10, 'alice', null, { baselines: [] }));
  assert.equal(history.undoTarget('alice'), 9);
  history.receivePage({ entries: [
    { version: 9, at: 'T9', mutation: { user: 'alice' }, op: { type: 'add', task: { id: 'x', title: 'X' } }, changes: {} },
    { version: 8, at: 'T8', mutation: { user: 'bob' }, op: { type: 'link', dependency: {} }, changes: {} },
    { version: 2, at: 'T2', mutation: { user: 'bob' }, op: null, changes: {} }], logStart: 3, more: false });
  assert.equal(history.entries.get(9).op.type, 'add');
  assert.equal(history.entries.has(2), true, 'a version below the log start is still listed (the audit trail)');
  assert.equal(history.isKept(2), false, 'but it cannot be shown or undone');
  assert.equal(history.more, false);
  assert.deepEqual(history.versions(), [10, 9, 8, 2]);
  history.receivePage({ entries: [], logStart: 8, more: false });
  assert.equal(history.isKept(8), true, 'the version at the log start can still be fetched and undone');
  assert.equal(history.isKept(7), false);
  history.receiveConfirmed(confirmed(11, 'bob', 7));
  assert.equal(history.undoTarget('bob'), 11, 'an undo of a version below the start is a change like any other');
  history.receiveConfirmed(confirmed(9, 'alice'));
  assert.equal(history.entries.get(9).detailsRead, true, 'a page’s details are kept');
});

test('a version is undone by its newest undo that is not undone itself (the mark ↶ vN)', () => {
  const history = new ClientHistory();
  for (const [version, undoes] of [[1, null], [2, 1], [3, 2], [4, 3]]) history.receiveConfirmed(confirmed(version, 'alice', undoes));
  assert.deepEqual([1, 2, 3, 4].map((v) => history.undoing(v)), [2, null, 4, null]);
  history.receiveConfirmed(confirmed(5, 'alice', 4));
  assert.deepEqual([1, 2, 3, 4, 5].map((v) => history.undoing(v)), [null, 3, null, 5, null]);
});

test('who changed it since: the newest later version touching its tasks or entries, from changes and ops', () => {
  const history = new ClientHistory();
  const task = (id) => ({ id, title: id, kind: 'activity' });
  history.receiveConfirmed(confirmed(37, 'alice', null, { upsert: [task('spec')] }));
  history.receiveConfirmed(confirmed(38, 'bob', null, { upsert: [task('build')] }));
  history.receiveConfirmed(confirmed(39, 'bob', null, { upsert: [task('spec'), task('design')] }));
  history.receiveConfirmed(confirmed(40, 'carol', null, { entries: ['e1'] }));
  const spec = history.entries.get(37).touched;
  assert.deepEqual([...spec], ['spec']);
  assert.equal(history.lastChange(37, spec).version, 39);
  assert.equal(history.lastChange(37, spec).user, 'bob');
  assert.equal(history.lastChange(39, spec), null, 'nothing after the newest');
  assert.equal(history.lastChange(0, new Set(['e1'])).user, 'carol');
  assert.deepEqual(history.versionsWithoutDetails(), [37, 38, 39, 40]);
  history.receivePage({ entries: [{ version: 41, at: '', mutation: { user: 'dan' }, changes: {},
    op: { type: 'link', dependency: { predecessorID: 'spec', successorID: 'release' } } }], logStart: 0, more: true });
  assert.equal(history.lastChange(37, spec).user, 'dan', 'an op names the tasks its changes may not');
  assert.deepEqual(history.versionsWithoutDetails(), [37, 38, 39, 40]);
});

test('a stale undo says who changed it since; other rejections say their reason (the terminal notUndone)', async () => {
  const { LANGUAGES, loadLanguage } = await import('../../../clients/web/js/strings.mjs');
  const { notUndone } = await import('../../../clients/web/js/wording.mjs');
  await Promise.all(LANGUAGES.map(loadLanguage));
  const history = new ClientHistory();
  const spec = { id: 'spec', title: 'Spec', kind: 'activity' };
  history.receiveConfirmed(confirmed(37, 'alice', null, { upsert: [spec] }));
  history.receiveConfirmed(confirmed(38, 'carol', null, { upsert: [{ ...spec, id: 'build' }] }));
  history.receiveConfirmed(confirmed(39, 'bob', null, { upsert: [spec] }));
  const stale = { type: 'rejected', code: 'staleTask' };
  assert.equal(notUndone('en', 37, stale, history), 'v37 not undone: changed since by bob (v39).');
  assert.equal(notUndone('de', 37, stale, history), 'v37 nicht rückgängig gemacht: seitdem von bob geändert (v39).');
  assert.equal(notUndone('en', 38, stale, history), 'v38 not undone: The task was changed or removed in the meantime.',
    'nobody changed Build since: the reason');
  assert.equal(notUndone('en', 37, { type: 'rejected', code: 'notUndoable' }, history), 'v37 not undone: That cannot be undone.');
  assert.equal(notUndone('de', 37, { type: 'rejected', code: 'historyUnavailable' }, history),
    'v37 nicht rückgängig gemacht: Diese Version ist nicht mehr im Verlauf.');
  const conflict = { type: 'rejected', code: 'scheduleConflict', conflict: { task: 'build', earliest: '2026-09-14' } };
  assert.equal(notUndone('en', 37, conflict, history, (id) => ({ build: 'Build' })[id]),
    'v37 not undone: “Build” cannot start before 2026-09-14: a dependency does not allow an earlier date.',
    'a pushed task put back before a dependency allows');
});

test('an upgraded log (versions listed below its start): its start has no undo; an undo above a trimmed start pairs with the change below it', () => {
  const page = (logStart, versions) => ({ logStart, more: false, entries: versions.map(([version, user, undoes]) => (
    { version, at: `T${version}`, mutation: { user, ...(undoes ? { undoes } : {}) }, op: null, changes: {} })) });
  const upgraded = new ClientHistory();
  upgraded.receivePage(page(4, [[5, 'bob'], [4, 'bob'], [3, 'bob']]));
  assert.equal(upgraded.listsBelowStart, true);
  assert.equal(upgraded.undoTarget('bob'), 5);
  upgraded.receivePage(page(4, [[6, 'bob', 5]]));
  assert.equal(upgraded.undoTarget('bob'), null, 'v4 starts a log written before history was kept; v3 is below it');
  assert.equal(upgraded.undoable(4), null);
  assert.equal(upgraded.isKept(4), true, 'but it can be shown');
  const trimmed = new ClientHistory();
  for (const [version, undoes] of [[3, null], [7, 3], [8, 7]]) trimmed.receiveConfirmed(confirmed(version, 'ann', undoes));
  trimmed.receivePage(page(5, []));
  assert.equal(trimmed.undoTarget('ann'), 8, 'the redo v8 of the undo v7 of v3 is on the undo stack');
  assert.equal(trimmed.undoable(5), 5, 'a trimmed log’s start can be undone');
});

test('the status line of an undo key: an undo of an undo is a redo, "Redid v5", in both languages (issue #30)', async () => {
  const { LANGUAGES, loadLanguage } = await import('../../../clients/web/js/strings.mjs');
  const { undoStatus } = await import('../../../clients/web/js/wording.mjs');
  await Promise.all(LANGUAGES.map(loadLanguage));
  const history = new ClientHistory();
  history.receiveConfirmed(confirmed(5, 'ann'));
  history.receiveConfirmed(confirmed(7, 'ann', 5));
  assert.equal(history.redoTarget('ann'), 7);
  assert.equal(undoStatus('en', 5, history), 'Undoing v5…');
  assert.equal(undoStatus('en', 5, history, 7), 'Undid v5 (now v7).');
  assert.equal(undoStatus('en', 7, history), 'Redoing v5…');
  assert.equal(undoStatus('en', 7, history, 9), 'Redid v5 (now v9).');
  assert.equal(undoStatus('de', 7, history), 'v5 wird wiederhergestellt …');
  assert.equal(undoStatus('de', 7, history, 9), 'v5 wiederhergestellt (jetzt v9).');
});
