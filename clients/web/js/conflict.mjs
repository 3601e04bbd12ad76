// A proposal rejected as stale (docs/protocol.md §5.7) resolved in one step: what changed since the
// version it was formed at, in words (the values the op names as the user saw them against the
// values held now), by whom and in which versions (the history's entries since then that touched
// them), and the form's draft put on the current values ("Apply mine to the current version").
// Pure: the plan copy, the history (history.mjs) and the timeline's entries are passed in. Loaded
// with the first stale rejection.

import { texts } from './strings.mjs';
import { describeOp } from './history-wording.mjs';
import { dependencyWords } from './wording.mjs';
import { DEPENDENCIES, SETTINGS } from './history.mjs';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const pairOf = (seen) => (d) => d.predecessorID === seen.predecessorID && d.successorID === seen.successorID;

/** The entry and assignment `seen` names as the timeline (entries and assignments by id) holds them, or null. */
function currentEntry(seen, timeline) {
  const entry = timeline?.entries.get(seen.entry.id);
  if (!entry) return null;
  if (!seen.assignment) return { entry };
  const assignment = timeline.assignments.get(seen.assignment.id);
  return assignment?.entryID === entry.id ? { entry, assignment } : null;
}

/** What `op` names as the user saw it: [{ seen, now (null: gone), touch (a history id), words(now) }]. */
function named(language, op, copy, timeline) {
  const words = texts(language).history;
  const title = (id) => copy.get(id)?.title;
  const quoted = (text) => words.quote(text);
  switch (op.type) {
    case 'replace': case 'remove': case 'reorder':
      return [op.previous, op.relativeTo].filter(Boolean).map((seen) => ({
        seen, now: copy.get(seen.id) ?? null, touch: seen.id,
        words: (now) => (now ? describeOp(language, { type: 'replace', previous: seen, proposed: now }, title) : words.removed(quoted(seen.title))),
      }));
    case 'unlink': case 'relink': {
      const seen = op.dependency ?? op.previous;
      const arrow = (d) => `${quoted(title(d.predecessorID) ?? d.predecessorID)} → ${quoted(title(d.successorID) ?? d.successorID)}`;
      return [{ seen, now: copy.dependencies.find(pairOf(seen)) ?? null, touch: DEPENDENCIES,
        words: (now) => (now ? words.relinked(dependencyWords(language, now, (id) => title(id) ?? id)) : words.unlinked(arrow(seen))) }];
    }
    case 'settings.replace':
      return [{ seen: op.previous, now: copy.settings, touch: SETTINGS,
        words: (now) => describeOp(language, { type: 'settings.replace', previous: op.previous, proposed: now }) }];
    case 'timeline.apply': case 'timeline.remove': {
      const seen = op.original ?? { entry: op.entry };
      return [{ seen, now: currentEntry(seen, timeline), touch: seen.entry.id,
        words: (now) => (now ? describeOp(language, { type: 'timeline.apply', original: { assignment: {}, ...seen }, proposed: { assignment: {}, ...now } })
          : words.removedEntry(quoted(seen.entry.title))) }];
    }
    default: return [];
  }
}

/**
 * A stale proposal's `op`, formed at `baseVersion`, against what is held now: { text ("Changed since by
 * alice (v14): set the progress of “Spec” to 80 %."), applicable (every value it names still exists) },
 * or null for an op that names no values (an undo says its own words).
 */
export function staleConflict(language, op, baseVersion, copy, history, timeline = null) {
  const items = named(language, op, copy, timeline);
  if (items.length === 0) return null;
  const t = texts(language);
  const changed = items.filter((item) => !same(item.seen, item.now));
  const what = changed.map((item) => item.words(item.now)).join('; ');
  const who = history.changesSince(baseVersion, new Set(items.map((item) => item.touch))).slice(-3)
    .map((entry) => t.byVersion(entry.user, entry.version)).join(', ');
  return { text: what || who ? t.staleSince(who, what || '…') : '', applicable: items.every((item) => item.now !== null) };
}

/**
 * "Apply mine": puts the current value of what `form` edits in place of the one it was opened on (the
 * form then builds its op from the same values on top of it); false when that value is gone.
 */
export function rebase(form, copy, timeline = null) {
  const original = form.action === 'settings' ? copy.settings
    : form.original?.entry ? currentEntry(form.original, timeline) : copy.get(form.original?.id ?? '');
  if (!original) return false;
  form.original = original;
  form.rebased = true;
  form.seenAt = copy.version;
  return true;
}
