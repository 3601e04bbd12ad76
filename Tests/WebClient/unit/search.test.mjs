// Searching by title (search.mjs): folding for case and accents, the matches over the whole tree,
// the next and previous match wrapping around, the rows a filter keeps (matches and ancestors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fold, SearchIndex, matchPositions, stepMatch, filterRows } from '../../../clients/web/js/search.mjs';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { PlanTree } from '../../../clients/web/js/plan-tree.mjs';

const task = (id, title, parentID = null, kind = 'activity') => ({ id, title, kind, ...(parentID ? { parentID } : {}) });
const copy = new PlanCopy({
  plan: 'p', version: 1, tasks: [
    task('design', 'Design', null, 'summary'), task('research', 'User research', 'design'), task('spec', 'Spécification', 'design'),
    task('impl', 'Implementation', null, 'summary'), task('backend', 'Backend', 'impl', 'summary'),
    task('store', 'Storage layer', 'backend'), task('server', 'Plan server', 'backend'), task('client', 'Terminal client', 'impl'),
    task('release', 'Release', null, 'summary'), task('beta', 'Beta', 'release'), task('s-17', 'Straßenfest Überprüfung'),
  ],
});
const rows = new PlanTree(copy).rows;
const titles = (positions) => positions.map((position) => rows[position].task.title);

test('folding ignores case and accents, ß is ss; plain ASCII only changes case', () => {
  assert.equal(fold('Überprüfung'), 'uberprufung');
  assert.equal(fold('ÉCOLE Café'), 'ecole cafe');
  assert.equal(fold('Straße'), 'strasse');
  assert.equal(fold('ﬁle №5'), 'file no5');
  assert.equal(fold('Plan-Server_2'), 'plan-server_2');
  assert.equal(fold(undefined), '');
});

test('a query matches titles and ids as substrings, without regard to case or accents, in tree order', () => {
  assert.deepEqual(titles(matchPositions(rows, 'SPEC')), ['Spécification']);
  assert.deepEqual(titles(matchPositions(rows, 'spéc')), ['Spécification'], 'an accent in the query is ignored too');
  assert.deepEqual(titles(matchPositions(rows, 'impl')), ['Implementation'], 'the id impl');
  assert.deepEqual(titles(matchPositions(rows, 'server')), ['Plan server'], 'title and id match once');
  assert.deepEqual(titles(matchPositions(rows, 'strasse')), ['Straßenfest Überprüfung']);
  assert.deepEqual(titles(matchPositions(rows, 'uberpr')), ['Straßenfest Überprüfung']);
  assert.deepEqual(titles(matchPositions(rows, 's-17')), ['Straßenfest Überprüfung']);
  assert.deepEqual(titles(matchPositions(rows, 'e')).length, 11);
  assert.deepEqual(titles(matchPositions(rows, '  n s ')), ['Plan server'], 'spaces around are dropped, inner ones count');
  assert.deepEqual(matchPositions(rows, '   '), []);
  assert.deepEqual(matchPositions(rows, 'nothing like it'), []);
});

test('each task is folded once, whatever the queries; a task object replaced is folded again', () => {
  const index = new SearchIndex();
  matchPositions(rows, 'a', index);
  const text = index.text(rows[2].task);
  assert.equal(text, 'specification\nspec');
  matchPositions(rows, 'b', index);
  assert.equal(index.text(rows[2].task), text);
  assert.equal(index.text({ ...rows[2].task, title: 'Spec v2' }), 'spec v2\nspec');
});

test('next and previous match from a row wrap around; a new query may start at the row itself', () => {
  const positions = [2, 5, 9];
  assert.equal(stepMatch(positions, 5, 1), 2);
  assert.equal(stepMatch(positions, 9, 1), 0, 'after the last: the first');
  assert.equal(stepMatch(positions, 0, 1), 0);
  assert.equal(stepMatch(positions, 6, 1), 2);
  assert.equal(stepMatch(positions, 5, 1, true), 1, 'inclusive: the row itself');
  assert.equal(stepMatch(positions, -1, 1), 0);
  assert.equal(stepMatch(positions, 5, -1), 0);
  assert.equal(stepMatch(positions, 2, -1), 2, 'before the first: the last');
  assert.equal(stepMatch(positions, 6, -1), 1);
  assert.equal(stepMatch(positions, 5, -1, true), 1);
  assert.equal(stepMatch(positions, 100, -1), 2);
  assert.equal(stepMatch([], 3, 1), -1);
  assert.equal(stepMatch([4], 4, 1), 0, 'one match: itself again');
  assert.equal(stepMatch([4], 4, -1), 0);
});

test('the filter keeps the matches and their ancestors at their depths, nothing collapsed', () => {
  const kept = (query) => filterRows(rows, matchPositions(rows, query))
    .map((row) => [row.task.id, row.depth, row.hasChildren, row.collapsed]);
  assert.deepEqual(kept('storage'), [['impl', 0, true, false], ['backend', 1, true, false], ['store', 2, false, false]]);
  assert.deepEqual(kept('back'), [['impl', 0, true, false], ['backend', 1, false, false]], 'a matching group: its children are not kept');
  assert.deepEqual(kept('r'), [
    ['design', 0, true, false], ['research', 1, false, false], ['impl', 0, true, false], ['backend', 1, true, false],
    ['store', 2, false, false], ['server', 2, false, false], ['client', 1, false, false], ['release', 0, false, false],
    ['s-17', 0, false, false],
  ]);
  assert.deepEqual(kept('beta'), [['release', 0, true, false], ['beta', 1, false, false]]);
  assert.deepEqual(filterRows(rows, []), []);
});

test('a plan of 100,000 tasks is searched over its whole tree in one pass per query', () => {
  const tasks = [];
  for (let group = 0; group < 1000; group += 1) {
    tasks.push(task(`g${group}`, `Group ${group}`, null, 'summary'));
    for (let child = 0; child < 99; child += 1) tasks.push(task(`t${group}-${child}`, `Tâche ${group}.${child}`, `g${group}`));
  }
  const big = new PlanTree(new PlanCopy({ plan: 'big', version: 1, tasks })).rows;
  const index = new SearchIndex();
  const started = performance.now();
  const broad = matchPositions(big, '7.1', index);
  const positions = matchPositions(big, 'tache 7.1', index);
  const again = matchPositions(big, 'TÂCHE 7.12', index);
  const elapsed = performance.now() - started;
  assert.equal(big.length, 100000);
  assert.equal(broad.length, 100 * 11, 'the groups ending in 7, children 1 and 10–19');
  assert.equal(positions.length, 11);
  assert.deepEqual(again.map((position) => big[position].task.id), ['t7-12']);
  assert.deepEqual(filterRows(big, again).map((row) => row.task.id), ['g7', 't7-12']);
  // Generous (a shared machine): the folding of 100,000 titles and two queries take well under a second.
  assert.ok(elapsed < 3000, `${elapsed} ms`);
});
