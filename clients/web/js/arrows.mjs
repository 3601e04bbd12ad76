// The arrows of the dependencies (scheduling.md §3.2): between shown scheduled rows, joining the
// ends their type names (finish-to-start from the predecessor's end to the successor's start,
// start-to-start, …; the Swift core's TimeAxis+Arrows), their SVG paths, and which are critical.
// An ArrowIndex keeps a tree's arrows (plan-tree.mjs) and finds them by rows. plan-tree.mjs
// fetches this module as soon as it runs and does not wait for it: the first render needs none
// of it (bars may show a moment before their arrows, on a slow link).

import { s } from './dom.mjs';
import { workingDaysBetween } from './calendar.mjs';

/** Arrows at least this many rows long are kept apart (ArrowIndex `long`). */
export const LONG_SPAN = 64;

/** The ends a dependency type joins: { from, to }, each 'start' or 'end' (finish-to-start: end → start). */
export function anchors(type = 'finish-to-start') {
  const [from, , to] = type.split('-');
  return { from: from === 'start' ? 'start' : 'end', to: to === 'finish' ? 'end' : 'start' };
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

/** An arrow (arrowBetween) drawn from (x1, y1) to (x2, y2), with its `label` ("SS +2") before its head. */
export function arrowNodes(x1, y1, x2, y2, arrow, label = '', critical = false) {
  const path = arrowPath(x1, y1, x2, y2, arrow);
  const tint = critical ? ' critical' : '';
  const nodes = [s('path', { class: `arrow${tint}`, d: path.d }), s('path', { class: `arrow-head${tint}`, d: path.head })];
  if (label) nodes.push(s('text', { class: 'arrow-label', x: path.labelX, y: y2 - 5, 'text-anchor': path.labelAnchor, text: label }));
  return nodes;
}

/**
 * The arrows of the dependencies, one per dependency while both its tasks are shown and scheduled
 * (`placed`), found by rows: those touching rows come from the dependencies of their tasks
 * (`touching`), those only passing by from `long` (every arrow of LONG_SPAN rows or more, perhaps
 * more). Rows move under the arrows without making them again (arrowBetween).
 */
export class ArrowIndex {
  /** rowOf(id): the task's row ({ task, index }) while shown, else undefined. */
  constructor(dependencies, rowOf, valuesOf) {
    this.rowOf = rowOf;
    this.valuesOf = valuesOf;
    this.setDependencies(dependencies);
  }

  /** A new dependency list (a `confirmed` carries the whole list): every arrow placed again. */
  setDependencies(dependencies) {
    this.dependencies = dependencies;
    this.placed = new Map();
    this.long = new Set();
    this.touching = new Map();
    for (const dependency of dependencies) {
      for (const id of [dependency.predecessorID, dependency.successorID]) {
        const list = this.touching.get(id);
        if (list) list.push(dependency);
        else this.touching.set(id, [dependency]);
      }
      this.place(dependency);
    }
  }

  place(dependency) {
    const arrow = arrowBetween(dependency, this.rowOf(dependency.predecessorID), this.rowOf(dependency.successorID), this.valuesOf);
    if (arrow) this.placed.set(dependency, arrow);
    else this.placed.delete(dependency);
    if (arrow && arrow.bottom - arrow.top >= LONG_SPAN) this.long.add(dependency);
    else this.long.delete(dependency);
  }

  /** The arrows touching or crossing rows [top, bottom) of `rows`. */
  between(top, bottom, rows) {
    const found = new Set();
    const crossing = (arrow) => arrow && arrow.top < bottom && arrow.bottom >= top && found.add(arrow);
    // A shorter arrow crossing the rows starts fewer than LONG_SPAN rows above their end.
    for (let index = Math.max(Math.min(top, bottom - LONG_SPAN), 0); index < Math.min(bottom, rows.length); index += 1) {
      for (const dependency of this.touching.get(rows[index].task.id) ?? []) crossing(this.placed.get(dependency));
    }
    for (const dependency of this.long) crossing(this.placed.get(dependency));
    return [...found];
  }

  /** Every arrow, in dependency order. */
  all() {
    return this.dependencies.map((dependency) => this.placed.get(dependency)).filter((arrow) => arrow);
  }
}
