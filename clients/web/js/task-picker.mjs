// The task picker's matching (no DOM): the tasks whose id or title contains what was typed, case
// and accents ignored (search.mjs `fold`), at most `limit` of them, ranked: ids starting with it
// first (by id), then titles starting with it (by title), then any other title or id containing it
// (in plan order). The index behind it is made once per copy revision, on the first query, and
// kept until the copy changes: opening a form costs nothing proportional to the plan, and a prefix
// is found by binary search in O(log n + matches); only the containing tier scans, and it stops as
// soon as the list is full. combobox.mjs shows the matches.

import { fold } from './search.mjs';
import { partitionIndex } from './sorted.mjs';

export const PICKER_LIMIT = 50;

/** Folded title and id per task object (a confirmed version replaces only the objects it changed). */
const folded = new WeakMap();

function foldedOf(task) {
  let entry = folded.get(task);
  if (entry === undefined) {
    entry = { id: fold(task.id), title: fold(task.title) };
    folded.set(task, entry);
  }
  return entry;
}

const byKey = (key) => (a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.position - b.position);

/** The index of `tasks` (in plan order): their folded texts, once sorted by id and once by title. */
export class PickerIndex {
  constructor(tasks) {
    this.entries = tasks.map((task, position) => ({ task, position, ...foldedOf(task) }));
    this.byID = this.entries.slice().sort(byKey('id'));
    this.byTitle = this.entries.slice().sort(byKey('title'));
  }

  /**
   * At most `limit` matches of `query` among the tasks `accept(task)` keeps: [{ task, rank }] with
   * rank 0 (id prefix), 1 (title prefix) or 2 (contains), and `more` when the list was cut short.
   * A blank query: the first accepted tasks in plan order (rank 2).
   */
  query(query, accept = () => true, limit = PICKER_LIMIT) {
    const needle = fold(query).trim();
    const matches = [];
    const seen = new Set();
    const take = (entry, rank) => {
      if (seen.has(entry.task.id) || !accept(entry.task)) return true;
      if (matches.length === limit) return false;
      seen.add(entry.task.id);
      matches.push({ task: entry.task, rank });
      return true;
    };
    if (needle !== '') {
      if (!prefixed(this.byID, 'id', needle, (entry) => take(entry, 0))) return { matches, more: true };
      if (!prefixed(this.byTitle, 'title', needle, (entry) => take(entry, 1))) return { matches, more: true };
    }
    for (const entry of this.entries) {
      if (needle !== '' && !entry.title.includes(needle) && !entry.id.includes(needle)) continue;
      if (!take(entry, 2)) return { matches, more: true };
    }
    return { matches, more: false };
  }
}

/** Calls `each` on the entries of `sorted` whose `key` starts with `needle`, in order, until it returns false; false then. */
function prefixed(sorted, key, needle, each) {
  for (let index = partitionIndex(sorted, (entry) => entry[key] < needle); index < sorted.length && sorted[index][key].startsWith(needle); index += 1) {
    if (!each(sorted[index])) return false;
  }
  return true;
}

const indexes = new WeakMap();

/** The index of `copy` (plan-copy.mjs) as it is now: made on first use, kept while its revision holds. */
export function pickerIndex(copy) {
  const kept = indexes.get(copy);
  if (kept && kept.revision === copy.revision) return kept.index;
  const index = new PickerIndex(copy.tasks);
  indexes.set(copy, { revision: copy.revision, index });
  return index;
}

/** The task `text` names exactly by id (folded), when `accept` keeps it; else null. */
export function exactTask(copy, text, accept = () => true) {
  const needle = fold(text).trim();
  if (needle === '') return null;
  const direct = copy.get(text.trim());
  if (direct) return accept(direct) ? direct : null;
  let found = null;
  prefixed(pickerIndex(copy).byID, 'id', needle, (entry) => {
    if (entry.id === needle && accept(entry.task)) found = entry.task;
    return entry.id === needle && !found;
  });
  return found;
}
