// The client's copy of one plan, kept exactly as docs/protocol.md §5.5 says and as the Swift
// PlanProtocol.ClientPlanCopy does: started from a `snapshot`, moved on by each `confirmed`'s
// `changes` in version order, with no rules of its own. A change that does not fit (a gap, an
// unknown removed id, an order that is no permutation) throws and leaves the copy unchanged.

import { DEFAULT_SETTINGS } from './calendar.mjs';

export class CopyError extends Error {
  /** kind: 'gap' (received > expected: resubscribe with since), 'duplicate' or 'inconsistent'. */
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

export class PlanCopy {
  /** A copy of a `snapshot` message (not a historical one). */
  constructor(snapshot) {
    this.plan = snapshot.plan;
    this.version = snapshot.version;
    this.title = snapshot.title ?? '';
    this.tasks = snapshot.tasks.slice();
    this.dependencies = snapshot.dependencies ?? [];
    this.resources = snapshot.resources ?? [];
    this.summaries = { ...(snapshot.summaries ?? {}) };
    this.baselines = snapshot.baselines ?? [];
    /** The scheduling settings (scheduling.md §1): mode and calendar. */
    this.settings = snapshot.settings ?? DEFAULT_SETTINGS;
    this.positions = new Map();
    this.tasks.forEach((task, index) => this.positions.set(task.id, index));
    /** Grows with every change: views cache what they derive from it. */
    this.revision = 0;
  }

  get(id) {
    const position = this.positions.get(id);
    return position === undefined ? undefined : this.tasks[position];
  }

  /**
   * Applies the changes that produce `version` (exactly one more than the copy's): remove, upsert
   * (in place, or appended when new), order, dependencies, then summaries (values of tasks gone or
   * no longer summaries dropped, every given value set), baselines and settings.
   */
  apply(version, changes) {
    if (version !== this.version + 1) {
      const kind = version <= this.version ? 'duplicate' : 'gap';
      throw new CopyError(kind, `expected version ${this.version + 1}, received ${version}`);
    }
    const remove = changes.remove ?? [];
    const upsert = changes.upsert ?? [];
    this.check(remove, upsert, changes.order);
    if (remove.length > 0) {
      const removed = new Set(remove);
      const first = Math.min(...remove.map((id) => this.positions.get(id)));
      this.tasks = this.tasks.filter((task) => !removed.has(task.id));
      for (const id of removed) this.positions.delete(id);
      for (let index = first; index < this.tasks.length; index += 1) this.positions.set(this.tasks[index].id, index);
    }
    for (const task of upsert) {
      const position = this.positions.get(task.id);
      if (position === undefined) {
        this.positions.set(task.id, this.tasks.length);
        this.tasks.push(task);
      } else {
        this.tasks[position] = task;
      }
    }
    const moved = changes.order ? this.reorder(changes.order) : [];
    if (changes.dependencies) this.dependencies = changes.dependencies;
    for (const id of remove) delete this.summaries[id];
    for (const task of upsert) if (task.kind !== 'summary') delete this.summaries[task.id];
    Object.assign(this.summaries, changes.summaries ?? {});
    if (changes.baselines) this.baselines = changes.baselines;
    if (changes.settings) this.settings = changes.settings;
    this.version = version;
    this.revision += 1;
    /** What this revision changed, for those who follow it in place (tree-changes.mjs): moved, the ids a reorder moved. */
    this.lastChange = { changes, moved };
  }

  check(remove, upsert, order) {
    const removed = new Set();
    for (const id of remove) {
      if (!this.positions.has(id)) throw new CopyError('inconsistent', `removed task "${id}" is not in the copy`);
      if (removed.has(id)) throw new CopyError('inconsistent', `task "${id}" is removed twice`);
      removed.add(id);
    }
    const added = new Set();
    for (const task of upsert) {
      if (removed.has(task.id)) throw new CopyError('inconsistent', `task "${task.id}" is both removed and upserted`);
      if (!this.positions.has(task.id)) added.add(task.id);
    }
    if (!order) return;
    const count = this.tasks.length - removed.size + added.size;
    if (order.length !== count) {
      throw new CopyError('inconsistent', `the order lists ${order.length} tasks, the copy has ${count}`);
    }
    const seen = new Set();
    for (const id of order) {
      if (!((this.positions.has(id) && !removed.has(id)) || added.has(id))) {
        throw new CopyError('inconsistent', `the order names task "${id}", which is not in the copy`);
      }
      if (seen.has(id)) throw new CopyError('inconsistent', `the order names task "${id}" twice`);
      seen.add(id);
    }
  }

  reorder(order) {
    const moved = [];
    order.forEach((id, position) => {
      if (this.tasks[position].id !== id) moved.push([position, this.tasks[this.positions.get(id)]]);
    });
    for (const [position, task] of moved) {
      this.tasks[position] = task;
      this.positions.set(task.id, position);
    }
    return moved.map(([, task]) => task.id);
  }

  /** The ids of `id`'s descendants (any depth). */
  descendants(id) {
    const result = new Set();
    let grew = true;
    while (grew) {
      grew = false;
      for (const task of this.tasks) {
        if (!result.has(task.id) && (task.parentID === id || result.has(task.parentID))) {
          result.add(task.id);
          grew = true;
        }
      }
    }
    return result;
  }
}
