// A version of the history in words, as the terminal's HistoryWording.swift says it: "moved
// “Storage layer” to 2026-09-28 – 2026-10-02", "undid v37: removed “Release”" (German „…“ quotes,
// dd.mm.yyyy dates, "machte v7 rückgängig: …"). The phrases are in the language modules
// (`history`); here is which phrase an op takes. Pure: the titles of tasks an op names only by id
// (a dependency's ends, a parent) come from `title(id)`, the labels of resources from `resource(id)`
// (undefined: the id is shown).

import { texts, formatDate } from './strings.mjs';
import { parseCivil } from './dates.mjs';

/**
 * What a history entry ({ op, undoes, detailsRead }, history.mjs) did, in words. `undid(version)`
 * is the version that `version` undid when it was an undo itself (else null): undoing that undo is
 * a redo, said "redid v5" after the version brought back. `resource(id)`: a resource's label.
 */
export function describeEntry(language, entry, title = () => undefined, { undid = () => null, resource = () => undefined } = {}) {
  const words = texts(language).history;
  if (!entry.op) return entry.detailsRead ? words.noDetails : '…';
  const text = describeOp(language, entry.op, title, resource);
  if (entry.undoes === null || entry.undoes === undefined) return text;
  const redone = undid(entry.undoes) ?? null;
  return `${redone === null ? words.undid(entry.undoes) : words.redid(redone)}: ${text}`;
}

/** What an op (docs/protocol.md §5, as the history gives it) does, in words; an undo's restores too. */
export function describeOp(language, op, title = () => undefined, resource = () => undefined) {
  const text = describeOne(language, op, title, resource);
  return op.restores?.length ? text + texts(language).history.putBack(op.restores.length) : text;
}

function describeOne(language, op, title, resource) {
  const words = texts(language).history;
  const quoted = (text) => words.quote(text);
  const named = (id) => quoted(title(id) ?? id);
  const into = (parentID, moving = false) => (parentID === undefined || parentID === null
    ? (moving ? words.toTopLevel : '') : words.into(named(parentID)));
  const arrow = ({ predecessorID, successorID }) => `${named(predecessorID)} → ${named(successorID)}`;
  switch (op.type) {
    case 'replace': return replaced(language, op.previous, op.proposed, quoted, into);
    case 'add':
      // An undone removal comes back as an `add` with `before` and `dependencies` (§4.7).
      if ('before' in op || 'dependencies' in op) return words.restored(quoted(op.task.title));
      return words.added(quoted(op.task.title), into(op.task.parentID));
    case 'remove': return words.removed(quoted(op.previous.title));
    case 'reorder':
      return (op.position === 'before' ? words.movedBefore : words.movedAfter)(quoted(op.previous.title), quoted(op.relativeTo.title));
    case 'link': return words.linked(arrow(op.dependency));
    case 'unlink': return words.unlinked(arrow(op.dependency));
    case 'relink': return words.relinked(arrow(op.proposed));
    case 'settings.replace':
      return (op.previous?.scheduling ?? 'manual') === (op.proposed?.scheduling ?? 'manual') ? words.calendar
        : words.setScheduling(words.modes[op.proposed?.scheduling ?? 'manual']);
    case 'timeline.apply': return applied(words, op.original, op.proposed, quoted, resource);
    case 'timeline.add':
      return words.booked(quoted(op.entry.title), op.assignments.map((assignment) => resource(assignment.resourceID) ?? assignment.resourceID).join(', '));
    case 'timeline.remove': return words.removedEntry(quoted(op.entry.title));
    case 'baseline.set':
      return words.setBaseline(quoted(op.name), op.version === undefined || op.version === null ? '' : ` (v${op.version})`);
    case 'baseline.remove': return words.removedBaseline(quoted(op.name));
    case 'undo': return words.undid(op.version);
    default: return op.type;
  }
}

/** A task replaced: each change it made, naming the task (after a rename, by its new title). */
function replaced(language, previous, proposed, quoted, into) {
  const t = texts(language);
  const words = t.history;
  const name = quoted(previous.title);
  const parts = [];
  if (previous.title !== proposed.title) parts.push(words.renamed(name, quoted(proposed.title)));
  const subject = () => (parts.length === 0 ? name : quoted(proposed.title));
  const day = (text) => formatDate(language, parseCivil(text));
  if (previous.kind === 'milestone' && proposed.kind === 'milestone') {
    if (previous.date !== proposed.date) parts.push(words.movedTo(subject(), day(proposed.date)));
  } else if (previous.kind === 'activity' && proposed.kind === 'activity') {
    const [old, next] = [previous.schedule, proposed.schedule];
    if (old?.start !== next?.start || old?.end !== next?.end) parts.push(scheduled(language, subject(), old, next));
    if ((previous.progress ?? 0) !== (proposed.progress ?? 0)) {
      parts.push(words.progress(subject(), percent(proposed.progress ?? 0, words.decimal)));
    }
  } else if (previous.kind !== proposed.kind) {
    parts.push(words.made(subject(), proposed.kind));
  }
  if ((previous.parentID ?? null) !== (proposed.parentID ?? null)) parts.push(words.movedInto(subject(), into(proposed.parentID, true)));
  return parts.length === 0 ? words.edited(name) : parts.join('; ');
}

/** A schedule changed: unscheduled, a new duration from the same start, or moved (end exclusive). */
function scheduled(language, subject, old, next) {
  const words = texts(language).history;
  if (!next) return words.unscheduled(subject);
  const [start, end] = [parseCivil(next.start), parseCivil(next.end)];
  const range = `${formatDate(language, start)} – ${formatDate(language, end - 1)}`;
  return old?.start === next.start ? words.duration(subject, end - start, range) : words.movedTo(subject, range);
}

/** An entry changed: renamed, moved in time (its date-times as written), reassigned. */
function applied(words, original, proposed, quoted, resource) {
  const name = quoted(original.entry.title);
  const parts = [];
  if (original.entry.title !== proposed.entry.title) parts.push(words.renamed(name, quoted(proposed.entry.title)));
  const subject = () => (parts.length === 0 ? name : quoted(proposed.entry.title));
  if (original.entry.start !== proposed.entry.start || original.entry.end !== proposed.entry.end) {
    parts.push(words.movedTo(subject(), `${proposed.entry.start} – ${proposed.entry.end}`));
  }
  if (original.assignment.resourceID !== proposed.assignment.resourceID) {
    parts.push(words.reassigned(subject(), resource(proposed.assignment.resourceID) ?? proposed.assignment.resourceID));
  }
  return parts.length === 0 ? words.edited(name) : parts.join('; ');
}

/** Progress to one decimal, without one when whole: "62.5 %", "40 %" (German "62,5 %"). */
function percent(value, decimal) {
  return `${String(Math.round(value * 10) / 10).replace('.', decimal)} %`;
}
