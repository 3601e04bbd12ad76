// The tree a plan view draws from (plan-tree.mjs): the rows of semantics.md `rows(collapsed:)`
// and the arrows between them. Followed in place through confirmed changes (tree-changes.mjs), it
// must always equal the tree built anew from the copy and the reference below (semantics.md
// written out plainly): the rows, their indexes, the arrows (marks.mjs arrowBetween), also as
// found by rows. A randomized equivalence test drives random valid changes (edits, moves to
// another summary, adds, removes, reorders, links, unlinks, kinds changed) and collapses through
// it, seed by seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { PlanTree, loadArrows } from '../../../clients/web/js/plan-tree.mjs';
import { followChange, setFolded, followView, foldView } from '../../../clients/web/js/tree-changes.mjs';
import { rowValues } from '../../../clients/web/js/marks.mjs';
import { arrowBetween, LONG_SPAN, BUCKETS } from '../../../clients/web/js/arrows.mjs';

await loadArrows();
// Long arrows are found by buckets of rows: small ones here, so that the plans below span many.
BUCKETS.rows = 16;

/** semantics.md `rows(collapsed:)`: roots in input order, each followed by its children in input order, recursively. */
function referenceRows(copy, collapsed = new Set()) {
  const ids = new Set(copy.tasks.map((task) => task.id));
  const childrenOf = (id) => copy.tasks.filter((task) => (ids.has(task.parentID) ? task.parentID : null) === id);
  const rows = [];
  const visit = (task, depth) => {
    const children = childrenOf(task.id);
    const folded = collapsed.has(task.id) && children.length > 0;
    rows.push({ task, depth, hasChildren: children.length > 0, collapsed: folded });
    if (!folded) for (const child of children) visit(child, depth + 1);
  };
  for (const root of childrenOf(null)) visit(root, 0);
  return rows;
}

/** The arrows between `rows`, in dependency order, where both tasks are rows. */
function referenceArrows(rows, dependencies, valuesOf) {
  const at = new Map(rows.map((row, index) => [row.task.id, { task: row.task, index }]));
  return dependencies.map((dependency) => arrowBetween(dependency, at.get(dependency.predecessorID), at.get(dependency.successorID), valuesOf))
    .filter((arrow) => arrow !== null);
}

test('rows: depth first in input order, children after their parent, collapsed descendants left out', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks: [
    { id: 'phase-1', title: 'Phase 1', kind: 'summary' }, { id: 'design', title: 'Design', parentID: 'phase-1', kind: 'activity' },
    { id: 'spec', title: 'Spec', parentID: 'phase-1', kind: 'activity' }, { id: 'phase-2', title: 'Phase 2', kind: 'summary' },
    { id: 'release', title: 'Release', kind: 'milestone', date: '2026-10-01' }, { id: 'late', title: 'Late', parentID: 'phase-2', kind: 'activity' },
  ] });
  const rows = new PlanTree(copy).rows;
  assert.deepEqual(rows.map((row) => row.task.id), ['phase-1', 'design', 'spec', 'phase-2', 'late', 'release']);
  assert.deepEqual(rows.map((row) => row.depth), [0, 1, 1, 0, 1, 0]);
  assert.deepEqual(rows.map((row) => row.hasChildren), [true, false, false, true, false, false]);
  assert.deepEqual(rows.map((row) => row.index), [0, 1, 2, 3, 4, 5]);
  const collapsed = new PlanTree(copy, new Set(['phase-1', 'release'])).rows;
  assert.deepEqual(collapsed.map((row) => row.task.id), ['phase-1', 'phase-2', 'late', 'release']);
  assert.equal(collapsed[0].collapsed, true);
  assert.equal(collapsed[3].collapsed, false, 'a task without children is never collapsed');
});

test('a child before its parent in input order still follows it in the tree; a missing parent makes a root', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks: [{ id: 'c', title: 'C', parentID: 'g', kind: 'activity' },
    { id: 'g', title: 'G', kind: 'summary' }, { id: 'o', title: 'O', parentID: 'gone', kind: 'activity' }] });
  const tree = new PlanTree(copy);
  assert.deepEqual(tree.rows.map((row) => row.task.id), ['g', 'c', 'o']);
  assert.equal(tree.orphans, 1);
});

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (count) => Math.floor(next() * count), pick: (list) => list[Math.floor(next() * list.length)], chance: (p) => next() < p };
}

const day = (offset) => new Date(Date.UTC(2026, 0, 1 + offset)).toISOString().slice(0, 10);

function leaf(rng, id, parentID) {
  const task = { id, title: `Task ${id}`, kind: 'activity', progress: rng.below(101) };
  if (parentID) task.parentID = parentID;
  if (rng.chance(0.15)) return { ...task, kind: 'milestone', date: day(rng.below(200)), progress: undefined };
  if (rng.chance(0.9)) {
    const start = rng.below(200);
    task.schedule = { start: day(start), end: day(start + 1 + rng.below(20)) };
  }
  return task;
}

/** A plan of about `count` tasks: summaries nested up to three deep, leaves under them, `links` dependencies near and far. */
function plan(rng, count, links = count) {
  const tasks = [];
  let serial = 0;
  const summaries = [];
  while (tasks.length < count) {
    const parent = summaries.length > 0 && rng.chance(0.8) ? rng.pick(summaries) : null;
    const id = `t${(serial += 1)}`;
    if (rng.chance(0.15) && (!parent || parent.depth < 3)) {
      tasks.push({ id, title: `Group ${id}`, kind: 'summary', ...(parent ? { parentID: parent.id } : {}) });
      summaries.push({ id, depth: (parent?.depth ?? 0) + 1 });
    } else {
      tasks.push(leaf(rng, id, parent?.id));
    }
  }
  // Children may stand before their parents (semantics.md): shuffle a little.
  for (let index = 0; index < tasks.length / 10; index += 1) {
    const [a, b] = [rng.below(tasks.length), rng.below(tasks.length)];
    [tasks[a], tasks[b]] = [tasks[b], tasks[a]];
  }
  const copy = { plan: 'p', version: 1, tasks, dependencies: [], summaries: {} };
  for (let index = 0; index < links; index += 1) link(rng, copy, copy.dependencies);
  return { snapshot: copy, serial };
}

/** Adds a dependency between two non-summary tasks (none twice), near in the input order or anywhere. */
function link(rng, copy, dependencies) {
  const linkable = copy.tasks.filter((task) => task.kind !== 'summary');
  if (linkable.length < 2) return;
  const from = rng.below(linkable.length);
  const to = rng.chance(0.7) ? Math.min(from + 1 + rng.below(8), linkable.length - 1) : rng.below(linkable.length);
  const [a, b] = [linkable[from].id, linkable[to].id];
  if (a === b || dependencies.some((d) => d.predecessorID === a && d.successorID === b)) return;
  const types = [undefined, 'start-to-start', 'finish-to-finish', 'start-to-finish'];
  const type = rng.pick(types);
  dependencies.push({ predecessorID: a, successorID: b, ...(type ? { type } : {}) });
}

const childrenOf = (copy, id) => copy.tasks.filter((task) => (task.parentID ?? null) === id);
const subtree = (copy, id) => copy.descendants(id).add(id);

/** One random valid change of `copy` (protocol.md §5.3 shapes), or null when the chosen kind does not apply. */
function change(rng, copy, state) {
  const tasks = copy.tasks;
  const summaries = tasks.filter((task) => task.kind === 'summary');
  const kind = rng.below(9);
  const task = rng.pick(tasks);
  const someSummary = () => ({ [rng.pick(summaries)?.id ?? 'none']: { start: day(rng.below(9)), end: day(30), lastDate: day(29), progress: rng.below(100) } });
  if (kind <= 1 && task.kind !== 'summary') {
    const edited = leaf(rng, task.id, task.parentID);
    return { upsert: [{ ...edited, title: `${task.title}'` }], summaries: summaries.length > 0 ? someSummary() : {} };
  }
  if (kind === 2) {
    // A new parent: any summary outside the task's own subtree, or the root.
    const inside = subtree(copy, task.id);
    const targets = summaries.filter((summary) => !inside.has(summary.id));
    const parent = rng.chance(0.2) ? null : rng.pick(targets);
    if (parent === undefined || (parent?.id ?? null) === (task.parentID ?? null)) return null;
    const moved = { ...task };
    delete moved.parentID;
    if (parent) moved.parentID = parent.id;
    return { upsert: [moved] };
  }
  if (kind === 3) {
    const parent = rng.chance(0.2) ? null : rng.pick(summaries);
    state.serial += 1;
    const id = `n${state.serial}`;
    const added = rng.chance(0.2) ? { id, title: `Group ${id}`, kind: 'summary', ...(parent ? { parentID: parent.id } : {}) }
      : leaf(rng, id, parent?.id);
    return { upsert: [added], summaries: added.kind === 'summary' ? { [id]: { start: null, end: null, lastDate: null, progress: 0 } } : {} };
  }
  if (kind === 4) {
    if (childrenOf(copy, task.id).length > 0) return null;
    const touching = (d) => d.predecessorID === task.id || d.successorID === task.id;
    const dependencies = copy.dependencies.some(touching) ? { dependencies: copy.dependencies.filter((d) => !touching(d)) } : {};
    return { remove: [task.id], ...dependencies };
  }
  if (kind === 5) {
    // Reorder among siblings: their slots stay, the task goes before or after another sibling.
    const siblings = childrenOf(copy, task.parentID ?? null);
    const other = rng.pick(siblings.filter((sibling) => sibling !== task));
    if (!other) return null;
    const slots = siblings.map((sibling) => copy.positions.get(sibling.id));
    const ordered = siblings.filter((sibling) => sibling !== task);
    ordered.splice(ordered.indexOf(other) + (rng.chance(0.5) ? 1 : 0), 0, task);
    const order = tasks.map((each) => each.id);
    slots.forEach((slot, index) => (order[slot] = ordered[index].id));
    return order.every((id, index) => id === tasks[index].id) ? null : { order };
  }
  if (kind === 6) {
    const dependencies = copy.dependencies.slice();
    link(rng, copy, dependencies);
    return dependencies.length > copy.dependencies.length ? { dependencies } : null;
  }
  if (kind === 7 && copy.dependencies.length > 0) {
    const dependencies = copy.dependencies.slice();
    dependencies.splice(rng.below(dependencies.length), 1);
    return { dependencies };
  }
  if (kind === 8 && task.kind === 'summary' && childrenOf(copy, task.id).length === 0) {
    return { upsert: [leaf(rng, task.id, task.parentID)] };
  }
  return null;
}

const plain = (arrow) => [arrow.dependency.predecessorID, arrow.dependency.successorID, arrow.fromRow, arrow.toRow, arrow.fromDay,
  arrow.toDay, arrow.fromSide, arrow.toSide, arrow.fromMilestone, arrow.toMilestone].join(' ');

/** The tree followed in place equals the tree made anew, and the reference rows and arrows. */
function assertSame(tree, copy, collapsed, valuesOf, rng, context) {
  const fresh = new PlanTree(copy, collapsed, valuesOf);
  const reference = referenceRows(copy, collapsed);
  const shape = (row) => `${row.task.id} ${row.depth} ${row.hasChildren} ${row.collapsed}`;
  assert.deepEqual(tree.rows.map(shape), reference.map(shape), `${context}: rows`);
  assert.deepEqual(fresh.rows.map(shape), reference.map(shape), `${context}: rows built anew`);
  tree.rows.forEach((row, index) => {
    assert.equal(row.task, reference[index].task, `${context}: the task value of row ${index}`);
    assert.equal(row.index, index, `${context}: index of row ${index}`);
  });
  for (const task of copy.tasks) {
    assert.equal(tree.indexByID.get(task.id), fresh.indexByID.get(task.id), `${context}: index of ${task.id}`);
  }
  const expected = referenceArrows(reference, copy.dependencies, valuesOf).map(plain);
  assert.deepEqual(tree.arrows.map(plain), expected, `${context}: arrows`);
  assert.deepEqual(fresh.arrows.map(plain), expected, `${context}: arrows built anew`);
  // Found by rows: every arrow touching or crossing a window, whatever its size.
  for (let probe = 0; probe < 4; probe += 1) {
    const top = rng.below(tree.rows.length + 1);
    const bottom = top + 1 + rng.below(probe < 2 ? LONG_SPAN : 3 * LONG_SPAN);
    const inside = tree.arrows.filter((arrow) => arrow.top < bottom && arrow.bottom >= top).map(plain).sort();
    assert.deepEqual(tree.arrowsIn(top, bottom).map(plain).sort(), inside, `${context}: arrows in rows [${top}, ${bottom})`);
  }
}

// Seeds 7 and 8: few dependencies, so that rows move under long arrows without their tasks changing.
for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  test(`random changes followed in place give the tree built anew (seed ${seed})`, () => {
    const rng = random(seed);
    const { snapshot, serial } = plan(rng, 150 + 60 * (seed % 7), seed > 6 ? 40 : undefined);
    const copy = new PlanCopy(snapshot);
    const collapsed = new Set();
    const valuesOf = (task) => rowValues(task, copy.summaries);
    const tree = new PlanTree(copy, collapsed, valuesOf);
    const state = { serial };
    let followed = 0;
    for (let step = 0; step < 300; step += 1) {
      if (rng.chance(0.15)) {
        const summary = rng.pick(copy.tasks.filter((task) => task.kind === 'summary'));
        if (summary) {
          const folded = !collapsed.has(summary.id);
          if (folded) collapsed.add(summary.id);
          else collapsed.delete(summary.id);
          setFolded(tree, summary.id, folded);
          assertSame(tree, copy, collapsed, valuesOf, rng, `seed ${seed} step ${step} (collapse ${summary.id})`);
        }
        continue;
      }
      const changes = change(rng, copy, state);
      if (!changes) continue;
      copy.apply(copy.version + 1, changes);
      assert.equal(followChange(tree, copy), true, `seed ${seed} step ${step}: followed`);
      followed += 1;
      assertSame(tree, copy, collapsed, valuesOf, rng, `seed ${seed} step ${step} (${Object.keys(changes).join(', ')})`);
    }
    assert.ok(followed > 100, `only ${followed} changes followed`);
  });
}

test('a tree follows only the next revision of its own copy, and never a search\'s rows', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks: [{ id: 'g', title: 'G', kind: 'summary' }, { id: 'a', title: 'A', kind: 'activity', parentID: 'g' }] });
  const valuesOf = (task) => rowValues(task, copy.summaries);
  const tree = new PlanTree(copy, new Set(), valuesOf);
  copy.apply(2, { upsert: [{ id: 'b', title: 'B', kind: 'activity', parentID: 'g' }] });
  copy.apply(3, { upsert: [{ id: 'c', title: 'C', kind: 'activity' }] });
  assert.equal(followChange(tree, copy), false, 'a version was missed');
  const filtered = new PlanTree(copy, new Set(), valuesOf, referenceRows(copy).slice(0, 2));
  copy.apply(4, { remove: ['c'] });
  assert.equal(followChange(filtered, copy), false);
  assert.deepEqual(filtered.rows.map((row) => [row.task.id, row.index]), [['g', 0], ['a', 1]]);
});

test('data the tree cannot follow is refused: a parent that is not there, a removed parent whose children stay', () => {
  const snapshot = () => ({ plan: 'p', version: 1, tasks: [{ id: 'g', title: 'G', kind: 'summary' }, { id: 'a', title: 'A', kind: 'activity', parentID: 'g' }] });
  const copy = new PlanCopy(snapshot());
  const valuesOf = (task) => rowValues(task, copy.summaries);
  let tree = new PlanTree(copy, new Set(), valuesOf);
  copy.apply(2, { upsert: [{ id: 'b', title: 'B', kind: 'activity', parentID: 'missing' }] });
  assert.equal(followChange(tree, copy), false);
  const other = new PlanCopy(snapshot());
  tree = new PlanTree(other, new Set(), (task) => rowValues(task, other.summaries));
  other.apply(2, { remove: ['g'] });
  assert.equal(followChange(tree, other), false);
});

test('a long arrow is still found between its rows after rows above it were taken out (its tasks unchanged)', () => {
  const leaf = (id, parentID) => ({ id, title: id, kind: 'activity', schedule: { start: '2026-01-05', end: '2026-01-07' }, ...(parentID ? { parentID } : {}) });
  const tasks = [{ id: 's', title: 'S', kind: 'summary' }];
  for (let index = 0; index < 100; index += 1) tasks.push(leaf(`c${index}`, 's'));
  tasks.push(leaf('a'));
  for (let index = 0; index < 100; index += 1) tasks.push(leaf(`f${index}`));
  tasks.push(leaf('b'));
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks, dependencies: [{ predecessorID: 'a', successorID: 'b' }] });
  const collapsed = new Set();
  const tree = new PlanTree(copy, collapsed, (task) => rowValues(task, copy.summaries));
  assert.deepEqual(tree.arrowsIn(150, 160).map((arrow) => [arrow.fromRow, arrow.toRow]), [[101, 202]], 'crossing rows 150–160');
  collapsed.add('s');
  setFolded(tree, 's', true);
  assert.deepEqual(tree.arrowsIn(60, 70).map((arrow) => [arrow.fromRow, arrow.toRow]), [[1, 102]], 'crossing rows 60–70 after the collapse');
  assert.deepEqual(tree.arrowsIn(150, 160), [], 'below both rows now');
});

test('a change that moves no row keeps the long arrows\' buckets; one that moves rows files them again', () => {
  const leaf = (id, start = '2026-01-05') => ({ id, title: id, kind: 'activity', schedule: { start, end: '2026-01-20' } });
  const tasks = [leaf('a')];
  for (let index = 0; index < 100; index += 1) tasks.push(leaf(`f${index}`));
  tasks.push(leaf('b'));
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks, dependencies: [{ predecessorID: 'a', successorID: 'b' }] });
  const tree = new PlanTree(copy, new Set(), (task) => rowValues(task, copy.summaries));
  assert.equal(tree.arrowsIn(50, 51).length, 1, 'the long arrow crosses row 50');
  const buckets = tree.madeArrows.buckets;
  assert.ok(buckets, 'filed once asked for');
  copy.apply(2, { upsert: [leaf('f3', '2026-01-06'), leaf('a', '2026-01-06')] });
  assert.equal(followChange(tree, copy), true);
  assert.equal(tree.madeArrows.buckets, buckets, 'dates changed, rows did not: the buckets stay');
  assert.deepEqual(tree.arrowsIn(50, 51).map((arrow) => [arrow.fromRow, arrow.toRow]), [[0, 101]]);
  copy.apply(3, { remove: ['f0'] });
  assert.equal(followChange(tree, copy), true);
  assert.equal(tree.madeArrows.buckets, null, 'a row went: filed again when next asked for');
  assert.deepEqual(tree.arrowsIn(50, 51).map((arrow) => [arrow.fromRow, arrow.toRow]), [[0, 100]]);
});

test('a plan view\'s tree follows each next version and disclosure in place, and is left to be built anew otherwise', () => {
  const copy = new PlanCopy({ plan: 'p', version: 1, tasks: [{ id: 'g', title: 'G', kind: 'summary' }, { id: 'a', title: 'A', kind: 'activity', parentID: 'g' }] });
  const tree = new PlanTree(copy, new Set(), (task) => rowValues(task, copy.summaries));
  const view = { client: { copy }, collapsed: new Set(), derived: { key: [copy, copy.revision, undefined, null], tree } };
  copy.apply(2, { upsert: [{ id: 'b', title: 'B', kind: 'activity', parentID: 'g' }] });
  followView(view);
  assert.equal(view.derived.key[1], copy.revision);
  assert.deepEqual(tree.rows.map((row) => row.task.id), ['g', 'a', 'b']);
  view.collapsed.add('g');
  foldView(view, 'g', true);
  assert.deepEqual([view.collapsedRevision, view.derived.key[2]], [1, 1]);
  assert.deepEqual(tree.rows.map((row) => row.task.id), ['g']);
  const held = copy.revision;
  copy.apply(3, { upsert: [{ id: 'c', title: 'C', kind: 'activity' }] });
  copy.apply(4, { upsert: [{ id: 'd', title: 'D', kind: 'activity' }] });
  followView(view);
  assert.equal(view.derived.key[1], held, 'a version missed: the key stays old, so derive builds the tree anew');
  view.collapsedRevision = 5; // a search opened groups by itself
  foldView(view, 'g', false);
  assert.deepEqual([view.collapsedRevision, view.derived.key[2]], [6, 1], 'not followed: built anew');
});
