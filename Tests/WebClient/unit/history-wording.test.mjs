// The history in words: every case of the terminal's HistoryWordingTests.swift with the same
// strings in English and German (the Sample plan of its GoldenSupport.swift), and a few more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';
import { describeOp, describeEntry } from '../../../clients/web/js/history-wording.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const tasks = [
  { id: 'design', title: 'Design', kind: 'summary' },
  { id: 'spec', title: 'Spec', parentID: 'design', kind: 'activity', schedule: { start: '2026-09-08', end: '2026-09-11' }, progress: 20 },
  { id: 'review', title: 'Review', parentID: 'design', kind: 'activity', progress: 0 },
  { id: 'impl', title: 'Implementation', kind: 'summary' },
  { id: 'build', title: 'Build', parentID: 'impl', kind: 'activity', schedule: { start: '2026-09-11', end: '2026-09-21' }, progress: 50 },
  { id: 'release', title: 'Release', kind: 'milestone', date: '2026-10-01' },
];
const sample = Object.fromEntries(tasks.map((task) => [task.id, task]));
const title = (id) => sample[id]?.title;
const { spec, release } = sample;
const replace = (previous, changes) => ({ type: 'replace', previous, proposed: { ...previous, ...changes } });
const both = (op, english, german) => {
  assert.equal(describeOp('en', op, title), english);
  assert.equal(describeOp('de', op, title), german);
};

test('task ops, as HistoryWordingTests.taskOps', () => {
  both(replace(spec, { schedule: { start: '2026-09-28', end: '2026-10-03' } }),
    'moved “Spec” to 2026-09-28 – 2026-10-02', 'verschob „Spec“ auf 28.09.2026 – 02.10.2026');
  both(replace(spec, { schedule: { start: '2026-09-08', end: '2026-09-13' } }),
    'changed the duration of “Spec” to 5 days (2026-09-08 – 2026-09-12)',
    'änderte die Dauer von „Spec“ auf 5 Tage (08.09.2026 – 12.09.2026)');
  both(replace(spec, { progress: 62.5 }), 'set the progress of “Spec” to 62.5 %', 'setzte den Fortschritt von „Spec“ auf 62,5 %');
  both(replace(spec, { title: 'Draft' }), 'renamed “Spec” to “Draft”', 'benannte „Spec“ in „Draft“ um');
  both(replace(release, { date: '2026-10-05' }), 'moved “Release” to 2026-10-05', 'verschob „Release“ auf 05.10.2026');
  both(replace(spec, { parentID: 'impl' }), 'moved “Spec” into “Implementation”', 'verschob „Spec“ in „Implementation“');
  both({ type: 'add', task: spec }, 'added “Spec” into “Design”', 'fügte „Spec“ in „Design“ hinzu');
  both({ type: 'remove', previous: release }, 'removed “Release”', 'entfernte „Release“');
  both({ type: 'reorder', previous: spec, relativeTo: sample.review, position: 'after' },
    'moved “Spec” after “Review”', 'verschob „Spec“ hinter „Review“');
  both({ type: 'link', dependency: { predecessorID: 'spec', successorID: 'release' } },
    'linked “Spec” → “Release”', 'verknüpfte „Spec“ → „Release“');
  both({ type: 'unlink', dependency: { predecessorID: 'build', successorID: 'gone' } },
    'removed the dependency “Build” → “gone”', 'löste die Abhängigkeit „Build“ → „gone“');
  both({ type: 'baseline.set', name: 'Q3', version: 12 }, 'set the baseline “Q3” (v12)', 'setzte die Basislinie „Q3“ (v12)');
  both({ type: 'baseline.remove', name: 'Q3' }, 'removed the baseline “Q3”', 'entfernte die Basislinie „Q3“');
});

test('timeline ops, an undo, and a version whose op the log does not have, as HistoryWordingTests.timelineAndUndo', () => {
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-08T09:00', end: '2026-09-08T12:00' };
  const assignment = { id: 'a1', entryID: 'e1', resourceID: 'room-1' };
  const moved = { entry: { ...entry, start: '2026-09-09T09:00', end: '2026-09-09T12:00' }, assignment: { ...assignment, resourceID: 'room-2' } };
  assert.equal(describeOp('en', { type: 'timeline.apply', original: { entry, assignment }, proposed: moved }),
    'moved “Workshop” to 2026-09-09T09:00 – 2026-09-09T12:00; reassigned “Workshop” to room-2');
  assert.equal(describeOp('de', { type: 'timeline.add', entry, assignments: [assignment] }), 'buchte „Workshop“ auf room-1');
  assert.equal(describeOp('en', { type: 'timeline.remove', entry }), 'removed the entry “Workshop”');
  const undo = { version: 9, user: 'ann', undoes: 7, op: { type: 'remove', previous: release, undoes: 7 }, detailsRead: true };
  assert.equal(describeEntry('en', undo, title), 'undid v7: removed “Release”');
  assert.equal(describeEntry('de', undo, title), 'machte v7 rückgängig: entfernte „Release“');
  const bare = { ...undo, op: null, undoes: null };
  assert.equal(describeEntry('en', bare), '(no details kept)');
  assert.equal(describeEntry('de', bare), '(keine Einzelheiten gespeichert)');
});

test('the rest of the terminal wording: restore, unscheduling, kinds, the top level, several changes, unread ops', () => {
  both({ type: 'add', task: release, before: null, dependencies: [] }, 'restored “Release”', 'stellte „Release“ wieder her');
  both(replace(spec, { schedule: undefined }), 'unscheduled “Spec”', 'nahm „Spec“ aus dem Plan');
  both(replace(spec, { schedule: { start: '2026-09-08', end: '2026-09-09' } }),
    'changed the duration of “Spec” to 1 day (2026-09-08 – 2026-09-08)',
    'änderte die Dauer von „Spec“ auf 1 Tag (08.09.2026 – 08.09.2026)');
  both({ type: 'replace', previous: spec, proposed: { id: 'spec', title: 'Spec', parentID: 'design', kind: 'milestone', date: '2026-09-08' } },
    'made “Spec” a milestone', 'machte „Spec“ zu einem Meilenstein');
  both(replace(spec, { parentID: undefined }), 'moved “Spec” to the top level', 'verschob „Spec“ auf die oberste Ebene');
  both(replace(spec, { title: 'Draft', parentID: 'impl' }),
    'renamed “Spec” to “Draft”; moved “Draft” into “Implementation”', 'benannte „Spec“ in „Draft“ um; verschob „Draft“ in „Implementation“');
  assert.equal(describeOp('en', replace(spec, { title: 'Draft', progress: 40 })), 'renamed “Spec” to “Draft”; set the progress of “Draft” to 40 %');
  both(replace(spec, {}), 'edited “Spec”', 'bearbeitete „Spec“');
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-08T09:00', end: '2026-09-08T12:00' };
  const assignment = { id: 'a1', entryID: 'e1', resourceID: 'room-1' };
  both({ type: 'timeline.apply', original: { entry, assignment }, proposed: { entry: { ...entry, title: 'Talk' }, assignment: { ...assignment, resourceID: 'room-2' } } },
    'renamed “Workshop” to “Talk”; reassigned “Talk” to room-2', 'benannte „Workshop“ in „Talk“ um; ordnete „Talk“ room-2 zu');
  both({ type: 'baseline.set', name: 'Now' }, 'set the baseline “Now”', 'setzte die Basislinie „Now“');
  assert.equal(describeEntry('en', { version: 3, op: null, undoes: null, detailsRead: false }), '…', 'not read yet');
});

test('scheduling ops, as the terminal says them: relink, settings, an undo that put pushed tasks back', () => {
  const dependency = { predecessorID: 'spec', successorID: 'build', type: 'start-to-start', lag: 2 };
  both({ type: 'relink', previous: { ...dependency, lag: 0 }, proposed: dependency },
    'changed the dependency “Spec” → “Build”', 'änderte die Abhängigkeit „Spec“ → „Build“');
  const weekdays = { workingDays: [1, 2, 3, 4, 5], holidays: [] };
  both({ type: 'settings.replace', previous: { scheduling: 'manual', calendar: weekdays }, proposed: { scheduling: 'automatic', calendar: weekdays } },
    'set scheduling to automatic', 'stellte die Planung auf automatisch');
  both({ type: 'settings.replace', previous: { scheduling: 'automatic', calendar: weekdays }, proposed: { scheduling: 'automatic', calendar: { ...weekdays, holidays: ['2026-12-25'] } } },
    'changed the working days and holidays', 'änderte Arbeitstage und Feiertage');
  const moved = { ...sample.build, schedule: { start: '2026-09-14', end: '2026-09-24' } };
  both({ ...replace(spec, { schedule: { start: '2026-09-08', end: '2026-09-10' } }), restores: [{ previous: moved, proposed: sample.build }] },
    'changed the duration of “Spec” to 2 days (2026-09-08 – 2026-09-09) and put back 1 pushed task',
    'änderte die Dauer von „Spec“ auf 2 Tage (08.09.2026 – 09.09.2026) und stellte 1 verschobene Aufgabe wieder her');
});

test('undoing an undo is a redo: "redid v5", after the version it brought back (issue #30)', () => {
  const redo = { version: 9, user: 'ann', undoes: 7, op: { type: 'remove', previous: release, undoes: 7 }, detailsRead: true };
  const undid = (version) => ({ 7: 5 })[version] ?? null;
  assert.equal(describeEntry('en', redo, title, { undid }), 'redid v5: removed “Release”');
  assert.equal(describeEntry('de', redo, title, { undid }), 'stellte v5 wieder her: entfernte „Release“');
  assert.equal(describeEntry('en', redo, title, { undid: () => null }), 'undid v7: removed “Release”', 'v7 was no undo');
});

test('timeline ops name resources by their label; by id only when the label is unknown (issue #30)', () => {
  const entry = { id: 'e1', title: 'Workshop', start: '2026-09-08T09:00', end: '2026-09-08T12:00' };
  const assignment = { id: 'a1', entryID: 'e1', resourceID: 'r-img' };
  const resource = (id) => ({ 'r-img': 'Imaging', 'r-lab': 'Lab' })[id];
  assert.equal(describeOp('en', { type: 'timeline.add', entry, assignments: [assignment, { ...assignment, resourceID: 'r-x' }] }, title, resource),
    'booked “Workshop” on Imaging, r-x');
  const moved = { entry, assignment: { ...assignment, resourceID: 'r-lab' } };
  assert.equal(describeOp('de', { type: 'timeline.apply', original: { entry, assignment }, proposed: moved }, title, resource),
    'ordnete „Workshop“ Lab zu');
  const add = { version: 4, user: 'ann', undoes: null, op: { type: 'timeline.add', entry, assignments: [assignment] }, detailsRead: true };
  assert.equal(describeEntry('en', add, title, { resource }), 'booked “Workshop” on Imaging');
});
