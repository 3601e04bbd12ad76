// Seed 003's viewport rules for the resources view's watch, as the terminal's ResourceQueryPlanner
// decides them: which query the view needs (the visible resources and three rows before and after,
// collapsed ones left out; the visible columns and two beyond each edge, never more than 400 days),
// when it is sent (re-queries coalesced for 80 ms, an equal query never re-sent, a failed load
// retried only on request), whether a page may be applied (validated whole against its query), and
// how a page replaces what its query covers. Pure: it asks to be woken and holds no clock.

import { column } from './axis.mjs';
import { parseLocal, formatLocal, MINUTES_PER_DAY } from './dates.mjs';

export const COALESCING_MS = 80;
export const BUFFER_ROWS = 3;
export const BUFFER_COLUMNS = 2;
export const MAXIMUM_DAYS = 400;

/** The query for what is visible, or null when no resource is left to ask for. */
export function queryFor(resourceIDs, collapsed, visibleRows, viewport) {
  const lower = Math.max(visibleRows[0] - BUFFER_ROWS, 0);
  const upper = Math.min(visibleRows[1] + BUFFER_ROWS, resourceIDs.length);
  if (lower >= upper) return null;
  const ids = resourceIDs.slice(lower, upper).filter((id) => !collapsed.has(id));
  const { axis } = viewport;
  const first = viewport.firstColumn;
  const end = Math.min(viewport.firstColumn + viewport.visibleColumns, axis.columnCount);
  if (ids.length === 0 || axis.columnCount === 0 || first >= end) return null;
  for (let buffer = BUFFER_COLUMNS; buffer >= 0; buffer -= 1) {
    const start = column(axis, Math.max(first - buffer, 0)).first;
    const stop = column(axis, Math.min(end - 1 + buffer, axis.columnCount - 1)).last + 1;
    if (stop - start <= MAXIMUM_DAYS) return makeQuery(start, stop, ids);
  }
  const start = column(axis, first).first;
  return makeQuery(start, start + MAXIMUM_DAYS, ids);
}

function makeQuery(startDay, endDay, ids) {
  return { start: formatLocal(startDay * MINUTES_PER_DAY), end: formatLocal(endDay * MINUTES_PER_DAY), resourceIDs: ids };
}

export function sameQuery(a, b) {
  return !!a && !!b && a.start === b.start && a.end === b.end && a.resourceIDs.length === b.resourceIDs.length
    && a.resourceIDs.every((id, index) => id === b.resourceIDs[index]);
}

/** Whether an entry overlaps the query's [start, end). */
export function overlaps(query, entry) {
  return parseLocal(entry.start) < parseLocal(query.end) && parseLocal(entry.end) > parseLocal(query.start);
}

/**
 * Checks a page against its query (seed 003, the Swift TimelinePage.validate): no duplicate ids,
 * every entry overlaps the interval, every assignment names a returned entry and a requested
 * resource. Returns null when valid, else the first problem in words.
 */
export function pageProblem(query, page) {
  const entryIDs = new Set();
  for (const entry of page.entries ?? []) {
    if (entryIDs.has(entry.id)) return `duplicate entry id "${entry.id}"`;
    entryIDs.add(entry.id);
    if (parseLocal(entry.start) === null || parseLocal(entry.end) === null) return `entry "${entry.id}" has no valid interval`;
    if (!overlaps(query, entry)) return `entry "${entry.id}" lies outside the query`;
  }
  const requested = new Set(query.resourceIDs);
  const assignmentIDs = new Set();
  for (const assignment of page.assignments ?? []) {
    if (assignmentIDs.has(assignment.id)) return `duplicate assignment id "${assignment.id}"`;
    assignmentIDs.add(assignment.id);
    if (!entryIDs.has(assignment.entryID)) return `assignment "${assignment.id}" names an entry the page does not hold`;
    if (!requested.has(assignment.resourceID)) return `assignment "${assignment.id}" names an unrequested resource`;
  }
  return null;
}

/** Decides the watch: `want`, `wake`, `retry`, `receive`, `refused` return steps for the adapter. */
export class ResourceQueryPlanner {
  constructor(idPrefix) {
    this.idPrefix = idPrefix;
    this.watchID = null;
    this.watched = null;
    this.wanted = null;
    this.state = { kind: 'idle' };
    this.timerToken = null;
    this.tokens = 0;
    this.counter = 0;
  }

  /** The view needs `query` (null: nothing). Steps: {watch, id} | {unwatch: id} | {wake: ms, token}. */
  want(query) {
    if (!query) {
      this.wanted = null;
      this.timerToken = null;
      this.state = { kind: 'idle' };
      if (this.watchID === null) return [];
      const id = this.watchID;
      this.watchID = null;
      this.watched = null;
      return [{ unwatch: id }];
    }
    if (sameQuery(query, this.watched)) {
      this.wanted = null;
      this.timerToken = null;
      return [];
    }
    if (sameQuery(query, this.wanted)) return [];
    this.wanted = query;
    this.tokens += 1;
    this.timerToken = this.tokens;
    return [{ wake: COALESCING_MS, token: this.tokens }];
  }

  wake(token) {
    if (token !== this.timerToken || !this.wanted) return [];
    const query = this.wanted;
    this.timerToken = null;
    this.wanted = null;
    return this.send(query);
  }

  /** Retry (or reload): the wanted or watched query is sent now, even if equal. */
  retry() {
    const query = this.wanted ?? this.watched;
    if (!query) return [];
    this.timerToken = null;
    this.wanted = null;
    return this.send(query);
  }

  /** After a reconnect the server holds no watch: the watched query is sent again (no unwatch). */
  resend() {
    if (!this.watched) return [];
    this.watchID = null;
    return this.send(this.watched);
  }

  send(query) {
    const steps = [];
    if (this.watchID !== null) steps.push({ unwatch: this.watchID });
    this.counter += 1;
    this.watchID = `w-${this.idPrefix}-${this.counter}`;
    this.watched = query;
    this.state = { kind: 'loading' };
    steps.push({ watch: query, id: this.watchID });
    return steps;
  }

  /** A page arrived: its query when it answers the current watch and is valid, else null. */
  receive(watch, page) {
    if (!watch || watch !== this.watchID || !this.watched) return null;
    const problem = pageProblem(this.watched, page);
    if (problem) {
      this.state = { kind: 'failed', reason: problem };
      return null;
    }
    this.state = { kind: 'idle' };
    return this.watched;
  }

  /** The server refused the query while it loaded (badQuery, tooLarge). */
  refused(reason) {
    if (this.state.kind === 'loading') this.state = { kind: 'failed', reason };
  }
}

/**
 * The view's entries and assignments (Maps by id): a page replaces what its query covers (the
 * assignments to its resources whose entries overlap its interval), other loaded parts stay, and
 * entries no assignment names are pruned.
 */
export function applyPage(data, query, page) {
  const requested = new Set(query.resourceIDs);
  for (const [id, assignment] of data.assignments) {
    if (!requested.has(assignment.resourceID)) continue;
    const entry = data.entries.get(assignment.entryID);
    if (entry && !overlaps(query, entry)) continue;
    data.assignments.delete(id);
  }
  for (const entry of page.entries ?? []) data.entries.set(entry.id, entry);
  for (const assignment of page.assignments ?? []) data.assignments.set(assignment.id, assignment);
  const used = new Set([...data.assignments.values()].map((assignment) => assignment.entryID));
  for (const id of [...data.entries.keys()]) if (!used.has(id)) data.entries.delete(id);
  return data;
}
