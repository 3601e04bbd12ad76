// The arrows of the dependencies (scheduling.md §3.2): between shown scheduled rows, joining the
// ends their type names (finish-to-start from the predecessor's end to the successor's start,
// start-to-start, …; the Swift core's TimeAxis+Arrows), their SVG paths, and which are critical.
// An ArrowIndex keeps a tree's arrows (plan-tree.mjs) and finds them by rows; arrow-layer.mjs
// draws them. Fetched right after the first render (plan-tree.mjs loadArrows): the first render
// draws the rows, and the arrows follow as soon as this is here.

import { workingDaysBetween } from './calendar.mjs';

/** Arrows at least this many rows long are kept apart (ArrowIndex `long`). */
export const LONG_SPAN = 64;
/** The long ones are found by buckets of `rows` rows (smaller in tests). */
export const BUCKETS = { rows: 1024 };

const ANCHORS = new Map();

/** The ends a dependency type joins: { from, to }, each 'start' or 'end' (finish-to-start: end → start). */
export function anchors(type = 'finish-to-start') {
  let found = ANCHORS.get(type);
  if (!found) {
    const [from, , to] = type.split('-');
    found = { from: from === 'start' ? 'start' : 'end', to: to === 'finish' ? 'end' : 'start' };
    ANCHORS.set(type, found);
  }
  return found;
}

/**
 * A dependency's arrow between rows `from` and `to` (each { task, index }, or undefined while its
 * task is not shown), positions in days from the axis start (`fromDay`, `toDay`: the anchors the
 * type names; a milestone's diamond is its day's middle), `fromAnchor`/`toAnchor` the anchors'
 * dates; null when an endpoint is hidden or unscheduled. `fromRow`, `toRow`, `top` and `bottom`
 * read the rows' `index`, so a tree (plan-tree.mjs) moves its rows without making arrows again.
 */
export function arrowBetween(dependency, from, to, valuesOf) {
  if (!from || !to) return null;
  const { from: fromSide, to: toSide } = anchors(dependency.type);
  const start = endpoint(from.task, valuesOf(from.task), fromSide);
  const end = endpoint(to.task, valuesOf(to.task), toSide);
  if (!start || !end) return null;
  return new Arrow(dependency, from, to, start, end, fromSide, toSide);
}

class Arrow {
  constructor(dependency, from, to, start, end, fromSide, toSide) {
    this.dependency = dependency;
    this.from = from;
    this.to = to;
    this.fromSide = fromSide;
    this.toSide = toSide;
    this.fromDay = start.day;
    this.toDay = end.day;
    this.fromAnchor = start.anchor;
    this.toAnchor = end.anchor;
    this.fromMilestone = start.milestone;
    this.toMilestone = end.milestone;
  }

  get fromRow() {
    return this.from.index;
  }

  get toRow() {
    return this.to.index;
  }

  get top() {
    return Math.min(this.from.index, this.to.index);
  }

  get bottom() {
    return Math.max(this.from.index, this.to.index);
  }
}

function endpoint(task, values, side) {
  if (task.kind === 'milestone') return values.start === null ? null : { day: values.start + 0.5, anchor: values.start, milestone: true };
  const day = side === 'end' ? values.end : values.start;
  return day === null ? null : { day, anchor: day, milestone: false };
}

/**
 * An arrow's SVG path from (x1, y1) to (x2, y2): it leaves an end to the right and a start to the
 * left, and comes into a start from the left and into an end from the right, turning on the
 * row's edge when the two would cross. `head` is the arrowhead's path; the label goes at `labelX`
 * (anchored `labelAnchor`) just before the head.
 */
export function arrowPath(x1, y1, x2, y2, { fromSide = 'end', toSide = 'start', fromMilestone = false, toMilestone = false } = {}) {
  const out = fromSide === 'end' ? 1 : -1;
  const into = toSide === 'start' ? 1 : -1;
  const start = x1 + (fromMilestone ? 7 * out : 0);
  const end = x2 - (toMilestone ? 7 * into : 0);
  const exit = start + 8 * out;
  let d;
  if (out !== into) {
    const turn = out > 0 ? Math.max(exit, end + 8) : Math.min(exit, end - 8);
    d = `M${start} ${y1}H${turn}V${y2}H${end - into}`;
  } else if ((end - exit) * into >= 8) {
    d = `M${start} ${y1}H${exit}V${y2}H${end - into}`;
  } else {
    const row = y1 + (y2 > y1 ? 14 : -14);
    d = `M${start} ${y1}H${exit}V${row}H${end - 10 * into}V${y2}H${end - into}`;
  }
  return { d, head: `M${end} ${y2}l${-6 * into} -4v8z`, labelX: end - 10 * into, labelAnchor: into > 0 ? 'end' : 'start' };
}

/**
 * Whether an arrow is on the critical path: both its tasks critical in `figures` (a schedule
 * answer's tasks) and the dependency binding, its anchors no more working days apart than its lag.
 */
export function criticalArrow(arrow, figures, calendar) {
  const { predecessorID, successorID, lag = 0 } = arrow.dependency;
  if (!figures?.[predecessorID]?.critical || !figures[successorID]?.critical) return false;
  return workingDaysBetween(calendar, arrow.fromAnchor, arrow.toAnchor) <= lag;
}

/** Whether two dependencies have the same values (their tasks, type and lag). */
function sameDependency(a, b) {
  return a.predecessorID === b.predecessorID && a.successorID === b.successorID
    && (a.type ?? 'finish-to-start') === (b.type ?? 'finish-to-start') && (a.lag ?? 0) === (b.lag ?? 0);
}

/**
 * The arrows of the dependencies, found by rows: those touching rows come from the dependencies
 * of their tasks (`touching`), those only passing by from `long` (every dependency whose shown
 * tasks are LONG_SPAN rows apart or more, perhaps more). An arrow is made when first asked for and
 * kept (`placed`, null for none) until its tasks change; rows move under it without making it
 * again (arrowBetween), so a plan's arrows cost only their rows' distances until drawn.
 */
export class ArrowIndex {
  /** rowOf(id): the task's row ({ task, index }) while shown, else undefined. */
  constructor(dependencies, rowOf, valuesOf) {
    this.rowOf = rowOf;
    this.valuesOf = valuesOf;
    this.setDependencies(dependencies);
  }

  /** Every arrow anew. */
  setDependencies(dependencies) {
    this.dependencies = dependencies;
    this.placed = new Map();
    this.long = new Set();
    this.touching = new Map();
    for (const dependency of dependencies) this.add(dependency);
  }

  add(dependency) {
    this.touch(dependency.predecessorID, dependency);
    this.touch(dependency.successorID, dependency);
    this.file(dependency);
  }

  touch(id, dependency) {
    const list = this.touching.get(id);
    if (list) list.push(dependency);
    else this.touching.set(id, [dependency]);
  }

  /** A task of `dependency` changed (its dates, or it was shown or hidden): its arrow is made again when asked for. */
  place(dependency) {
    this.placed.delete(dependency);
    this.file(dependency);
  }

  /**
   * Files `dependency` under `long` when its shown tasks are LONG_SPAN rows apart or more. The
   * buckets are filed again only when it becomes long or stops being so: a long one's rows change
   * only when rows move, which `rowsMoved` says.
   */
  file(dependency) {
    const from = this.rowOf(dependency.predecessorID);
    const to = this.rowOf(dependency.successorID);
    const long = Boolean(from && to && Math.abs(from.index - to.index) >= LONG_SPAN);
    if (long === this.long.has(dependency)) return;
    this.buckets = null;
    if (long) this.long.add(dependency);
    else this.long.delete(dependency);
  }

  /** The tasks `ids` changed (their dates, or shown or hidden): their arrows are made again when asked for. */
  placeTouching(ids) {
    for (const id of ids) for (const dependency of this.touching.get(id) ?? []) this.place(dependency);
  }

  /** The task `id`'s row moved: its arrows may have become long, or stopped being so. */
  fileTouching(id) {
    for (const dependency of this.touching.get(id) ?? []) this.file(dependency);
  }

  /** Rows were put in, taken out or reordered: the long arrows are filed in their buckets again when next asked for. */
  rowsMoved() {
    this.buckets = null;
  }

  /** The arrow of `dependency`, or null (a task hidden or unscheduled). */
  arrowOf(dependency) {
    let arrow = this.placed.get(dependency);
    if (arrow === undefined) {
      arrow = arrowBetween(dependency, this.rowOf(dependency.predecessorID), this.rowOf(dependency.successorID), this.valuesOf);
      this.placed.set(dependency, arrow);
    }
    return arrow;
  }

  /**
   * A new dependency list (a `confirmed` carries the whole list after a link or an unlink): the
   * dependencies before and after the part that differs keep their arrows (one pass comparing
   * values); those in it are taken out and put in.
   */
  update(dependencies) {
    const old = this.dependencies;
    let start = 0;
    while (start < old.length && start < dependencies.length && sameDependency(old[start], dependencies[start])) start += 1;
    let oldEnd = old.length;
    let end = dependencies.length;
    while (oldEnd > start && end > start && sameDependency(old[oldEnd - 1], dependencies[end - 1])) {
      oldEnd -= 1;
      end -= 1;
    }
    this.buckets = null;
    for (let index = start; index < oldEnd; index += 1) {
      const dependency = old[index];
      this.placed.delete(dependency);
      this.long.delete(dependency);
      for (const id of [dependency.predecessorID, dependency.successorID]) {
        const list = this.touching.get(id);
        list.splice(list.indexOf(dependency), 1);
      }
    }
    const added = dependencies.slice(start, end);
    for (const dependency of added) this.add(dependency);
    // The values kept are equal: the arrows keep their (old) dependency objects.
    this.dependencies = old.slice(0, start).concat(added, old.slice(oldEnd));
  }

  /** The arrows touching or crossing rows [top, bottom) of `rows`. */
  between(top, bottom, rows) {
    const found = new Set();
    const crossing = (dependency) => {
      const arrow = this.arrowOf(dependency);
      if (arrow && arrow.top < bottom && arrow.bottom >= top) found.add(arrow);
    };
    // A shorter arrow crossing the rows starts fewer than LONG_SPAN rows above their end.
    for (let index = Math.max(Math.min(top, bottom - LONG_SPAN), 0); index < Math.min(bottom, rows.length); index += 1) {
      for (const dependency of this.touching.get(rows[index].task.id) ?? []) crossing(dependency);
    }
    for (const dependency of this.longIn(top, bottom)) crossing(dependency);
    return [...found];
  }

  /**
   * The long dependencies whose rows reach over buckets of [top, bottom): each in every bucket
   * between its rows, filed again when rows move or an arrow becomes long or stops being so
   * (`buckets` null: in proportion to the long ones' spans).
   */
  longIn(top, bottom) {
    if (!this.buckets) {
      this.buckets = new Map();
      for (const dependency of this.long) {
        const from = this.rowOf(dependency.predecessorID)?.index ?? -1;
        const to = this.rowOf(dependency.successorID)?.index ?? -1;
        if (from < 0 || to < 0) continue;
        for (let bucket = Math.floor(Math.min(from, to) / BUCKETS.rows); bucket <= Math.max(from, to) / BUCKETS.rows; bucket += 1) {
          const list = this.buckets.get(bucket);
          if (list) list.push(dependency);
          else this.buckets.set(bucket, [dependency]);
        }
      }
    }
    const found = new Set();
    for (let bucket = Math.floor(top / BUCKETS.rows); bucket * BUCKETS.rows < bottom; bucket += 1) {
      for (const dependency of this.buckets.get(bucket) ?? []) found.add(dependency);
    }
    return found;
  }

  /** Every arrow, in dependency order. */
  all() {
    return this.dependencies.map((dependency) => this.arrowOf(dependency)).filter((arrow) => arrow);
  }
}
