// The search box in the toolbar (`/` puts the cursor there): typing highlights the tasks whose
// title or id contains the text (case and accents ignored, search.mjs), says "3 of 12" and selects
// the first match from where the selection was; n / N (Enter / Shift+Enter in the box) go to the
// next / previous one, opening its collapsed groups; Filter shows only the matches and their
// ancestors; Escape clears it all. Typing is debounced, and a query is matched once over the
// whole tree (made once per version shown), never by rebuilding the view per keystroke.

import { $ } from './dom.mjs';
import { SearchIndex, fold, matchPositions, stepMatch, filterRows } from './search.mjs';
import { PlanTree } from './plan-tree.mjs';

/** How long typing must pause before the text is searched. */
const DEBOUNCE_MS = 150;

export class SearchBox {
  /** `view`: the plan view (plan-view.mjs); the box uses the page's #search, #search-count and #search-filter. */
  constructor(view) {
    this.view = view;
    this.field = $('#search');
    this.count = $('#search-count');
    this.filterButton = $('#search-filter');
    this.index = new SearchIndex();
    /** The folded query ('' while none), and whether only its matches are shown. */
    this.query = '';
    this.filtering = false;
    this.currentID = null;
    this.tree = null;
    this.found = null;
    this.timer = null;
    this.listening = new AbortController();
    const options = { signal: this.listening.signal };
    this.field.addEventListener('input', () => this.typed(), options);
    this.field.addEventListener('focus', () => this.focused(), options);
    this.field.addEventListener('keydown', (event) => this.keydown(event), options);
    this.filterButton.addEventListener('click', () => this.toggleFilter(), options);
    this.focused();
    // What was typed while this module loaded.
    if (this.field.value !== '') this.typed();
  }

  get active() {
    return this.query !== '';
  }

  /** The cursor into the box, its text selected (`/`). */
  focus() {
    this.field.focus();
    this.field.select();
  }

  /** A new search starts from the selection as it is when the box is entered. */
  focused() {
    this.origin = this.view.selectedID;
    // Fold the titles while the user types the first letters (once per task, kept for the next queries).
    if (this.query === '') setTimeout(() => this.treeOf(this.view.copy, true), 0);
  }

  typed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), DEBOUNCE_MS);
  }

  keydown(event) {
    if (event.key === 'Enter') this.step(event.shiftKey ? -1 : 1);
    else if (event.key === 'Escape') this.clear();
    else return;
    event.preventDefault();
  }

  /** Searches the text in the box now (what a pause in typing does). */
  run() {
    clearTimeout(this.timer);
    this.timer = null;
    const query = fold(this.field.value).trim();
    if (query === this.query) return;
    this.query = query;
    const { view } = this;
    if (query !== '' && view.view !== 'tasks') view.setView('tasks');
    const found = this.result();
    const tree = found?.tree;
    const at = tree ? stepMatch(found.positions, this.positionOf(this.origin) ?? 0, 1, true) : -1;
    this.currentID = at < 0 ? null : tree.rows[found.positions[at]].task.id;
    if (this.currentID) this.reveal(this.currentID);
    else view.render();
  }

  /** n / N: the next (1) or previous (-1) match from the selected row, wrapping around. */
  step(direction) {
    if (this.timer) this.run();
    const found = this.result();
    if (!found || found.positions.length === 0) return;
    const from = this.positionOf(this.view.selectedID) ?? (direction > 0 ? -1 : found.tree.rows.length);
    const at = stepMatch(found.positions, from, direction);
    this.currentID = found.tree.rows[found.positions[at]].task.id;
    this.reveal(this.currentID);
  }

  /** Escape: no query, no filter, nothing highlighted; the cursor back in the list. */
  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.field.value = '';
    this.query = '';
    this.filtering = false;
    this.currentID = null;
    this.filterButton.setAttribute('aria-pressed', 'false');
    this.view.render();
    if (this.view.view === 'tasks') $('#tasks').focus({ preventScroll: true });
  }

  toggleFilter() {
    this.filtering = !this.filtering;
    this.filterButton.setAttribute('aria-pressed', String(this.filtering));
    const { view } = this;
    const shown = view.selectedID;
    view.render();
    if (shown !== null && view.derive().indexByID.has(shown)) view.select(shown);
  }

  /** The plan closed: the box is left empty, its listeners gone. */
  close() {
    clearTimeout(this.timer);
    this.listening.abort();
    this.field.value = '';
    this.count.textContent = '';
    this.field.classList.remove('none');
    this.filterButton.hidden = true;
    this.filterButton.setAttribute('aria-pressed', 'false');
  }

  /** The whole tree of `copy` in order (nothing collapsed), made once per version; `warm`: its titles folded too. */
  treeOf(copy, warm = false) {
    if (!copy) return null;
    if (this.tree?.copy !== copy || this.tree.revision !== copy.revision) {
      this.tree = { copy, revision: copy.revision, rows: new PlanTree(copy).rows, positions: null };
    }
    if (warm) for (const row of this.tree.rows) this.index.text(row.task);
    return this.tree;
  }

  /** The row of task `id` in the whole tree, or null. */
  positionOf(id) {
    const tree = this.tree;
    if (!tree || id === null || id === undefined) return null;
    if (!tree.positions) {
      tree.positions = new Map();
      tree.rows.forEach((row, position) => tree.positions.set(row.task.id, position));
    }
    return tree.positions.get(id) ?? null;
  }

  /** The matches in the copy shown: { tree, query, positions, ids }, found again only when the query or the copy changed. */
  result() {
    const tree = this.treeOf(this.view.copy);
    if (!tree) return null;
    if (this.found?.tree !== tree || this.found.query !== this.query) {
      const positions = matchPositions(tree.rows, this.query, this.index);
      this.found = { tree, query: this.query, positions, ids: new Set(positions.map((at) => tree.rows[at].task.id)), rows: null };
    }
    return this.found;
  }

  /** The rows the filter shows (the matches and their ancestors), for plan-view.mjs's derive. */
  filteredRows() {
    const found = this.result();
    found.rows ??= filterRows(found.tree.rows, found.positions);
    return found.rows;
  }

  /** How a row shows: 0 no match, 1 a match, 2 the current one. */
  state(id) {
    const found = this.result();
    if (!found?.ids.has(id)) return 0;
    return id === this.currentID ? 2 : 1;
  }

  /** Selects task `id`, opening the groups that hide it, and scrolls it into view. */
  reveal(id) {
    const { view } = this;
    if (!view.derive().indexByID.has(id)) {
      for (let parent = view.copy.get(id)?.parentID; parent; parent = view.copy.get(parent)?.parentID) view.collapsed.delete(parent);
      view.collapsedRevision = (view.collapsedRevision ?? 0) + 1;
    }
    view.select(id);
  }

  /** "3 of 12" (or "no match") beside the box; the Filter button while there is a query. */
  showCount() {
    const t = this.view.t;
    const found = this.active ? this.result() : null;
    const total = found?.positions.length ?? 0;
    let text = '';
    if (found && total === 0) text = t.searchNone;
    else if (found) {
      const at = found.ids.has(this.currentID) ? stepMatch(found.positions, this.positionOf(this.currentID), 1, true) : -1;
      text = t.searchCount(at < 0 ? '–' : at + 1, total);
    }
    if (this.count.textContent !== text) this.count.textContent = text;
    this.field.classList.toggle('none', !!found && total === 0);
    this.filterButton.hidden = !this.active;
  }
}
