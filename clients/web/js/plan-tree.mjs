// The visible tree of a plan copy (semantics.md `rows(collapsed:)`: roots in input order, each
// followed by its children in input order; descendants of collapsed summaries left out; a task
// whose parent is missing is a root) as nodes that a confirmed change updates in place
// (tree-changes.mjs, loaded after the first render); a shown node is the row at its `index`.
// Beside it, the arrows between shown rows (arrows.mjs, fetched after the first render). No DOM.

/** arrow-layer.mjs (with arrows.mjs ArrowIndex) once it is here (null before: no arrows are drawn yet). */
export let arrowsModule = null;

/** Fetches the arrows' modules (once). */
export async function loadArrows() {
  arrowsModule ??= await import('./arrow-layer.mjs');
}

/** A task in the tree; while shown, also its row: { task, depth, hasChildren, collapsed, index }. */
export class TreeNode {
  constructor(task, folded) {
    this.task = task;
    this.parent = null;
    this.children = null;
    this.depth = 0;
    this.folded = folded;
    /** The row's position in `rows`; -1 while hidden under a collapsed summary. */
    this.index = -1;
  }

  get hasChildren() {
    return this.children !== null && this.children.length > 0;
  }

  get collapsed() {
    return this.folded && this.hasChildren;
  }
}

export class PlanTree {
  /**
   * The tree of `copy` (plan-copy.mjs) with the summaries in `collapsed` (a Set of ids, kept)
   * folded; valuesOf(task): marks.mjs rowValues. With `rows` (a search's filter), those rows as
   * they are, and no change is followed in place (`fixed`).
   */
  constructor(copy, collapsed = new Set(), valuesOf = null, rows = null) {
    this.copy = copy;
    this.revision = copy.revision;
    this.collapsed = collapsed;
    this.valuesOf = valuesOf;
    /** Grows with every change followed in place: views key what they draw on it. */
    this.changes = 0;
    this.nodes = new Map();
    this.roots = [];
    /** Tasks naming a parent that is not there (not in valid data): such a tree is only built anew. */
    this.orphans = 0;
    this.fixed = !!rows;
    if (rows) this.rows = rows.map((row, index) => this.nodes.set(row.task.id, { ...row, index }).get(row.task.id));
    else this.build(copy.tasks);
    this.indexByID = { get: (id) => this.rowOf(id)?.index, has: (id) => !!this.rowOf(id) };
  }

  build(tasks) {
    for (const task of tasks) this.nodes.set(task.id, new TreeNode(task, this.collapsed.has(task.id)));
    for (const node of this.nodes.values()) {
      const parentID = node.task.parentID ?? null;
      const parent = parentID === null ? undefined : this.nodes.get(parentID);
      if (parent) {
        node.parent = parent;
        (parent.children ??= []).push(node);
      } else {
        if (parentID !== null) this.orphans += 1;
        this.roots.push(node);
      }
    }
    this.rows = layOut(this.roots, 0);
    relabel(this.rows, 0);
  }

  /** The shown row of task `id`, or undefined. */
  rowOf(id) {
    const node = this.nodes.get(id);
    return node && node.index >= 0 ? node : undefined;
  }

  /** The arrows (arrows.mjs ArrowIndex), made on first use once arrows.mjs is here; else null. */
  get arrowIndex() {
    if (!this.madeArrows && arrowsModule) this.madeArrows = new arrowsModule.ArrowIndex(this.copy.dependencies, (id) => this.rowOf(id), this.valuesOf);
    return this.madeArrows ?? null;
  }

  /** The arrows touching or crossing rows [top, bottom) (none before arrows.mjs is here). */
  arrowsIn(top, bottom) {
    return this.arrowIndex?.between(top, bottom, this.rows) ?? [];
  }

  /** Every arrow, in dependency order (print; tests). */
  get arrows() {
    return this.arrowIndex?.all() ?? [];
  }
}

/** The rows of `nodes` (siblings at `depth`) and their shown descendants, depth first, their depths set. */
export function layOut(nodes, depth, rows = []) {
  const stack = [];
  for (let index = nodes.length - 1; index >= 0; index -= 1) stack.push(nodes[index], depth);
  while (stack.length > 0) {
    const level = stack.pop();
    const node = stack.pop();
    node.depth = level;
    rows.push(node);
    const children = node.folded ? null : node.children;
    if (children) for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index], level + 1);
  }
  return rows;
}

/** Sets each row's `index` from `from` on. */
export function relabel(rows, from) {
  for (let index = from; index < rows.length; index += 1) rows[index].index = index;
}
