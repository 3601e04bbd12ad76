// Searching the task list by title and id (no DOM): texts folded for matching (case and accents
// ignored), the matches of a query over the whole tree in one pass, the next or previous match
// from a row, and the rows a filter keeps (the matches and their ancestors, so that the tree stays
// readable). search-box.mjs is the controller in the page.

import { partitionIndex } from './sorted.mjs';

const PLAIN = /^[\x20-\x7e]*$/;

/**
 * A text folded for matching: lower case, accents and other combining marks dropped (NFKD), `ß`
 * as `ss`. Plain ASCII (most titles and ids) only changes case, which is much cheaper.
 */
export function fold(text) {
  const string = String(text ?? '');
  if (PLAIN.test(string)) return string.toLowerCase();
  return string.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

/**
 * The folded text each task is searched in (its title and its id), made once per task object: a
 * confirmed version replaces only the objects of the tasks it changed, so a plan of 100,000 tasks
 * is folded once, not per query or per version.
 */
export class SearchIndex {
  constructor() {
    this.folded = new WeakMap();
  }

  text(task) {
    let text = this.folded.get(task);
    if (text === undefined) {
      // A line break cannot be typed into the search field: no match spans the two.
      text = `${fold(task.title)}\n${fold(task.id)}`;
      this.folded.set(task, text);
    }
    return text;
  }
}

/** The positions in `rows` (rows of plan-copy.mjs) whose task's title or id contains `query` (folded); none for a blank one. */
export function matchPositions(rows, query, index = new SearchIndex()) {
  const needle = fold(query).trim();
  const positions = [];
  if (needle === '') return positions;
  for (let position = 0; position < rows.length; position += 1) {
    if (index.text(rows[position].task).includes(needle)) positions.push(position);
  }
  return positions;
}

/**
 * The index in `positions` (ascending) of the match after row `from` (`direction` 1) or before it
 * (-1), wrapping around at either end; a match at `from` itself counts when `inclusive` (a new
 * query starting at the selection). -1 when there is no match.
 */
export function stepMatch(positions, from, direction, inclusive = false) {
  if (positions.length === 0) return -1;
  if (direction > 0) {
    const after = firstIndex(positions, (position) => (inclusive ? position >= from : position > from));
    return after < positions.length ? after : 0;
  }
  const before = firstIndex(positions, (position) => (inclusive ? position > from : position >= from)) - 1;
  return before >= 0 ? before : positions.length - 1;
}

/** The first index of the ascending `positions` for which `past` holds (it holds from there on); the length when none. */
function firstIndex(positions, past) {
  return partitionIndex(positions, (position) => !past(position));
}

/**
 * The rows to show while filtering: of `rows` (the whole tree in order, nothing collapsed) the
 * matches at `positions` and every ancestor of one, in tree order and at their depths; a row has
 * children when a kept row is under it, and nothing is collapsed.
 */
export function filterRows(rows, positions) {
  const keep = new Uint8Array(rows.length);
  const ancestors = [];
  let next = 0;
  for (let position = 0; position < rows.length && next < positions.length; position += 1) {
    const depth = rows[position].depth;
    ancestors.length = depth;
    if (position === positions[next]) {
      next += 1;
      keep[position] = 1;
      // Up the chain until one is kept already (its own ancestors are then kept too).
      for (let level = depth - 1; level >= 0 && !keep[ancestors[level]]; level -= 1) keep[ancestors[level]] = 1;
    }
    ancestors.push(position);
  }
  const kept = [];
  for (let position = 0; position < rows.length; position += 1) if (keep[position]) kept.push(rows[position]);
  return kept.map((row, index) => ({
    task: row.task, depth: row.depth, hasChildren: (kept[index + 1]?.depth ?? -1) > row.depth, collapsed: false,
  }));
}
