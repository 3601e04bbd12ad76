// Following a confirmed version in a PlanTree (plan-tree.mjs) in proportion to the change, not to
// the plan (protocol.md §5.5, semantics.md "Changes"): an edited task is the same row with its new
// value; an added task's rows are put in after its parent's, a removed or moved task's taken out
// (and put in at its new place); a reorder lays out again only the rows under the siblings'
// parent; collapsing or expanding takes out or puts in the rows under the summary. Only the
// arrows of the tasks touched are placed again; a new dependency list (a `confirmed` carries the
// whole list) is compared with the old in one pass, and only the dependencies in the part that
// differs are placed (arrows.mjs update). Putting rows in or taking them out renumbers the rows
// after them (one pass of integer writes). What it cannot follow — data that does not fit, or a
// tree built from a search's rows — makes `followChange` answer false: the caller builds the tree
// anew (as after a snapshot).

import { TreeNode, layOut, relabel } from './plan-tree.mjs';
import { LONG_SPAN } from './arrows.mjs';
import { partitionIndex } from './sorted.mjs';

/**
 * Follows the copy's newest change (plan-copy.mjs `lastChange`), which must be the one after the
 * tree's revision. False when the tree cannot follow it; the tree is then to be built anew.
 */
export function followChange(tree, copy) {
  const last = copy.lastChange;
  if (tree.fixed || tree.orphans > 0 || tree.copy !== copy || !last || copy.revision !== tree.revision + 1) return false;
  const { changes, moved } = last;
  const touched = new Set();
  if (!removeTasks(tree, changes.remove ?? [], touched) || !upsertTasks(tree, copy, changes.upsert ?? [], touched)) return false;
  if (moved.length > 0 && !reorderSiblings(tree, copy, moved)) return false;
  if (changes.dependencies) tree.madeArrows?.update(copy.dependencies);
  refresh(tree, touched);
  tree.revision = copy.revision;
  tree.changes += 1;
  return true;
}

/**
 * A plan view's live tree (plan-view.mjs derive: { key: [copy, revision, collapsed revision,
 * filter], tree }) follows the copy's newest change in place; when it cannot (a search's filter,
 * data that does not fit, a version missed), the view's next `derive` builds it anew.
 */
export function followView(view) {
  const derived = view.derived;
  const copy = view.client.copy;
  if (derived?.tree.copy !== copy || derived.key[1] !== copy.revision - 1) return;
  if (followChange(derived.tree, copy)) derived.key[1] = copy.revision;
}

/** A plan view's tree collapses or expands `id` in place (the view's collapsed set says so already). */
export function foldView(view, id, folded) {
  const derived = view.derived;
  const before = view.collapsedRevision;
  view.collapsedRevision = (before ?? 0) + 1;
  if (!derived || derived.key[2] !== before || derived.tree.fixed) return;
  setFolded(derived.tree, id, folded);
  derived.key[2] = view.collapsedRevision;
}

/** Collapses (`folded`) or expands summary `id`: the rows under it taken out or put in. */
export function setFolded(tree, id, folded) {
  const node = tree.nodes.get(id);
  if (!node || node.folded === folded) return;
  node.folded = folded;
  tree.changes += 1;
  if (node.index < 0 || !node.hasChildren) return;
  const touched = new Set();
  if (folded) takeOut(tree, node.index + 1, blockEnd(tree, node), touched);
  else putIn(tree, node.index + 1, layOut(node.children, node.depth + 1), touched);
  refresh(tree, touched);
}

/** The arrows of the tasks touched placed again (when the tree's arrows were made yet). */
function refresh(tree, touched) {
  tree.madeArrows?.placeTouching(touched);
}

/**
 * Rows [from, end) were put in (shown, or moved there): the arrows over `from` grew, so those
 * touching the rows put in, or the rows within LONG_SPAN above them, may be long now.
 */
function grown(tree, from, end) {
  const { madeArrows: arrows, rows } = tree;
  if (!arrows) return;
  for (let index = Math.max(from - LONG_SPAN, 0); index < Math.min(end, rows.length); index += 1) {
    arrows.fileTouching(rows[index].task.id);
  }
}

function removeTasks(tree, ids, touched) {
  const removed = new Set(ids);
  for (const id of ids) {
    const node = tree.nodes.get(id);
    // A task whose children stay cannot go (invalidHierarchy): such data is not followed.
    if (!node || node.children?.some((child) => !removed.has(child.task.id))) return false;
  }
  for (const id of ids) {
    const node = tree.nodes.get(id);
    hide(tree, node, touched);
    detach(tree, node);
    tree.nodes.delete(id);
    touched.add(id);
  }
  return true;
}

/** Edited tasks in place (a new parent moves the subtree), then the added ones, each a last child. */
function upsertTasks(tree, copy, tasks, touched) {
  const added = [];
  const moving = [];
  for (const task of tasks) {
    const node = tree.nodes.get(task.id);
    touched.add(task.id);
    if (!node) {
      added.push(new TreeNode(task, tree.collapsed.has(task.id)));
      tree.nodes.set(task.id, added.at(-1));
    } else {
      if ((node.task.parentID ?? null) !== (task.parentID ?? null)) moving.push(node);
      node.task = task;
    }
  }
  if (added.length > 0 && moving.length > 0) return false; // no op does both
  for (const node of moving) if (!move(tree, copy, node, touched)) return false;
  for (const node of added) {
    const parent = parentOf(tree, node);
    if (parent === undefined) return false;
    node.parent = parent;
    // Appended to the input order: the last of its siblings.
    if (parent) (parent.children ??= []).push(node);
    else tree.roots.push(node);
  }
  const fresh = new Set(added);
  for (const node of added) if (!fresh.has(node.parent)) show(tree, node, touched);
  return true;
}

/** Moves a node (its `task` already naming the new parent) with its subtree to its slot among the new siblings. */
function move(tree, copy, node, touched) {
  const parent = parentOf(tree, node);
  if (parent === undefined) return false;
  for (let up = parent; up; up = up.parent) if (up === node) return false; // into its own subtree
  hide(tree, node, touched);
  detach(tree, node);
  node.parent = parent;
  const siblings = parent ? (parent.children ??= []) : tree.roots;
  const position = copy.positions.get(node.task.id);
  siblings.splice(partitionIndex(siblings, (sibling) => copy.positions.get(sibling.task.id) < position), 0, node);
  show(tree, node, touched);
  return true;
}

/** The siblings of the moved tasks sorted into the new input order, the rows under their parents laid out again. */
function reorderSiblings(tree, copy, moved) {
  const parents = new Set();
  for (const id of moved) {
    const node = tree.nodes.get(id);
    if (!node) return false;
    parents.add(node.parent);
  }
  const slot = (node) => copy.positions.get(node.task.id);
  for (const parent of parents) {
    const siblings = parent ? parent.children : tree.roots;
    siblings.sort((a, b) => slot(a) - slot(b));
    if (parent && (parent.index < 0 || parent.folded)) continue;
    const start = parent ? parent.index + 1 : 0;
    const end = parent ? blockEnd(tree, parent) : tree.rows.length;
    // The same rows in a new order: their arrows stay, only their lengths may change.
    const rows = layOut(siblings, parent ? parent.depth + 1 : 0);
    replaceRows(tree, start, end, rows);
    relabel(tree.rows, start);
    grown(tree, start, start + rows.length);
  }
  return true;
}

/** A node's parent node: null for a root, undefined when its parent is not in the tree. */
function parentOf(tree, node) {
  const parentID = node.task.parentID ?? null;
  return parentID === null ? null : tree.nodes.get(parentID);
}

function detach(tree, node) {
  const siblings = node.parent ? node.parent.children : tree.roots;
  const at = siblings.lastIndexOf(node);
  if (at >= 0) siblings.splice(at, 1);
  node.parent = null;
}

/** The end (exclusive) of the rows of a shown node and its shown descendants. */
function blockEnd(tree, node) {
  let end = node.index + 1;
  while (end < tree.rows.length && tree.rows[end].depth > node.depth) end += 1;
  return end;
}

/** Takes a shown node's rows (its own and its descendants') out. */
function hide(tree, node, touched) {
  if (node.index >= 0) takeOut(tree, node.index, blockEnd(tree, node), touched);
}

/** Puts a node's rows in after its previous sibling's (or its parent's), when its parent is shown and open. */
function show(tree, node, touched) {
  const parent = node.parent;
  if (parent && (parent.index < 0 || parent.folded)) return;
  const siblings = parent ? parent.children : tree.roots;
  const previous = siblings[siblings.indexOf(node) - 1];
  const at = previous ? blockEnd(tree, previous) : parent ? parent.index + 1 : 0;
  putIn(tree, at, layOut([node], parent ? parent.depth + 1 : 0), touched);
}

function takeOut(tree, start, end, touched) {
  const rows = replaceRows(tree, start, end, []);
  for (const row of rows) {
    row.index = -1;
    touched.add(row.task.id);
  }
  relabel(tree.rows, start);
}

function putIn(tree, at, rows, touched) {
  replaceRows(tree, at, at, rows);
  relabel(tree.rows, at);
  for (const row of rows) touched.add(row.task.id);
  grown(tree, at, at + rows.length);
}

/**
 * Replaces rows [start, end) of `tree` with `rows` (in one move, whatever their number); returns
 * those taken out. The rows after them move: the long arrows are filed again when next asked for.
 */
function replaceRows(tree, start, end, rows) {
  tree.madeArrows?.rowsMoved();
  const all = tree.rows;
  if (rows.length + end - start < 10000) return all.splice(start, end - start, ...rows);
  const tail = all.splice(start);
  const removed = tail.slice(0, end - start);
  for (const row of rows) all.push(row);
  for (let index = end - start; index < tail.length; index += 1) all.push(tail[index]);
  return removed;
}
