// The history panel: the versions the client knows, newest first (who, when, what in words), the
// ones undone struck through and marked with the version that undid them ("↶ v41"); each can be
// shown as it was (a read-only fetch) and the user's own undone with one key.

import { h } from './dom.mjs';
import { describeEntry } from './history-wording.mjs';
import { formatDateTime } from './strings.mjs';
import { today as dayOf } from './dates.mjs';

/** An RFC 3339 time in the browser's zone as the page writes dates: 2026-12-01 10:15 / 01.12.2026 10:15. */
function localTime(language, at) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : formatDateTime(language, dayOf(date) * 1440 + date.getHours() * 60 + date.getMinutes());
}

export class HistoryView {
  /** callbacks: show(version), undo(version), more(). */
  constructor(root, callbacks) {
    this.root = root;
    this.callbacks = callbacks;
    this.selected = null;
  }

  /** state: { history, user, readOnly (a viewer: no Undo this), language, t, title(id), resource(id) (its label) }. */
  render(state) {
    this.state = state;
    const { history, t, language } = state;
    const versions = history.versions();
    if (this.selected === null || !history.entries.has(this.selected)) this.selected = versions[0] ?? null;
    const rows = versions.map((version) => {
      const entry = history.entries.get(version);
      const when = entry.at ? localTime(language, entry.at) : '';
      const kept = history.isKept(version);
      const own = !state.readOnly && entry.user === state.user && !entry.isBaseline && history.undoable(version) !== null;
      const undoneBy = history.undoing(version);
      const mark = undoneBy === null ? null : h('span', { class: 'undone-by', title: t.history.undoneBy(undoneBy), text: `↶ v${undoneBy}` });
      return h('tr', { 'aria-selected': String(version === this.selected), dataset: { version: String(version) },
        class: undoneBy !== null ? 'undone' : kept ? null : 'not-kept', onclick: () => this.select(version) },
      h('td', { text: `v${version} ` }, mark), h('td', { text: when }), h('td', { text: entry.user }),
      h('td', { text: describeEntry(language, entry, state.title,
        { undid: (undone) => history.entries.get(undone)?.undoes ?? null, resource: state.resource }) + (kept ? '' : ` ${t.notKept}`) }),
      h('td', {}, kept ? h('button', { type: 'button', text: t.viewAt, onclick: () => this.callbacks.show(version) }) : null,
        own ? h('button', { type: 'button', text: t.undoThis, onclick: () => this.callbacks.undo(version) }) : null));
    });
    const table = h('table', {}, h('thead', {}, h('tr', {}, ...['version', 'when', 'user', 'change', ''].map((key) => h('th', { text: t[key] ?? '' })))),
      h('tbody', {}, ...rows));
    const more = history.more
      ? h('button', { type: 'button', text: t.historyMore, onclick: () => this.callbacks.more() }) : null;
    this.root.replaceChildren(h('h2', { text: t.historyHeading }), versions.length ? table : h('p', { class: 'note', text: t.historyEmpty }), more ?? '');
  }

  select(version) {
    this.selected = version;
    this.render(this.state);
  }

  /** Keys: ↑ ↓ select, Enter shows, z undoes the selected own version. */
  key(event) {
    const versions = this.state?.history.versions() ?? [];
    const index = versions.indexOf(this.selected);
    if (event.key === 'ArrowDown' || event.key === 'j') this.select(versions[Math.min(index + 1, versions.length - 1)] ?? null);
    else if (event.key === 'ArrowUp' || event.key === 'k') this.select(versions[Math.max(index - 1, 0)] ?? null);
    else if (event.key === 'Enter' && this.selected !== null) this.callbacks.show(this.selected);
    else if (event.key === 'z' && this.selected !== null) this.callbacks.undo(this.selected);
    else return false;
    return true;
  }
}
