// The resources view's forms (the terminal's TaskForm+Entries): add, move (length kept), change
// start and end, rename, reassign and remove a timeline entry, each a proposal. Pure, like
// task-forms.mjs: a form description in, { op } or { error } out.

import { parseLocal, parseTypedLocal, formatLocal } from './dates.mjs';
import { texts } from './strings.mjs';
import { actionTitle } from './wording.mjs';

const text = (name, label, value) => ({ name, type: 'text', label, value });

/**
 * The form for an entry action. `target` is { entry, assignment } (null for addEntry); `resources`
 * the plan's resources; `start` a minute number for a new entry's default start.
 */
export function openEntryForm(action, target, resources, language, start, resourceID = null) {
  const t = texts(language);
  const form = (fields, note = null) => ({
    action, original: target, fields, note,
    heading: actionTitle(language, action) + (target ? `: ${target.entry.title}` : ''),
  });
  const options = resources.map((resource) => ({ id: resource.id, label: resource.label }));
  switch (action) {
    case 'addEntry':
      return form([
        text('title', t.title, ''), text('start', t.start, formatLocal(start)), text('end', t.end, formatLocal(start + 60)),
        { name: 'resources', type: 'checkboxes', label: t.resources, options, value: resourceID ? [resourceID] : [] },
      ]);
    case 'moveEntry': return form([text('start', t.start, target.entry.start)]);
    case 'resizeEntry': return form([text('start', t.start, target.entry.start), text('end', t.end, target.entry.end)]);
    case 'retitleEntry': return form([text('title', t.title, target.entry.title)]);
    case 'reassignEntry':
      return form([{ name: 'resource', type: 'select', label: t.resource, options, value: target.assignment.resourceID }]);
    case 'removeEntry': return form([], t.confirmRemoveEntry(target.entry.title));
    default: return form([], t.actionUnavailable);
  }
}

function interval(t, startText, endText, language) {
  const start = parseTypedLocal((startText ?? '').trim(), language);
  const end = parseTypedLocal((endText ?? '').trim(), language);
  if (start === null || end === null) return { error: t.notATime };
  if (end <= start) return { error: t.endNotAfterStart };
  return { start: formatLocal(start), end: formatLocal(end) };
}

function apply(target, entryChanges, assignmentChanges = {}) {
  return {
    op: {
      type: 'timeline.apply', original: { entry: target.entry, assignment: target.assignment },
      proposed: { entry: { ...target.entry, ...entryChanges }, assignment: { ...target.assignment, ...assignmentChanges } },
    },
  };
}

/** The op of a filled-in entry form. `newID(kind)` gives fresh ids for a new entry and its assignments. */
export function entryOperation(form, values, language, newID) {
  const t = texts(language);
  const target = form.original;
  switch (form.action) {
    case 'addEntry': {
      const title = (values.title ?? '').trim();
      if (!title) return { error: t.titleEmpty };
      const times = interval(t, values.start, values.end, language);
      if (times.error) return times;
      const chosen = values.resources ?? [];
      if (chosen.length === 0) return { error: t.noResourceChosen };
      const entry = { id: newID('e'), title, ...times };
      const assignments = chosen.map((resourceID) => ({ id: newID('a'), entryID: entry.id, resourceID }));
      return { op: { type: 'timeline.add', entry, assignments } };
    }
    case 'moveEntry': {
      const start = parseTypedLocal((values.start ?? '').trim(), language);
      if (start === null) return { error: t.notATime };
      const length = parseLocal(target.entry.end) - parseLocal(target.entry.start);
      return apply(target, { start: formatLocal(start), end: formatLocal(start + length) });
    }
    case 'resizeEntry': {
      const times = interval(t, values.start, values.end, language);
      return times.error ? times : apply(target, times);
    }
    case 'retitleEntry': {
      const title = (values.title ?? '').trim();
      return title ? apply(target, { title }) : { error: t.titleEmpty };
    }
    case 'reassignEntry':
      return values.resource ? apply(target, {}, { resourceID: values.resource }) : { error: t.chooseOne };
    case 'removeEntry': return { op: { type: 'timeline.remove', entry: target.entry } };
    default: return { error: t.actionUnavailable };
  }
}

/** The op for dragging an entry by `minutes` and onto `resourceID` (null: it would change nothing). */
export function dragOperation(target, minutes, resourceID) {
  const start = parseLocal(target.entry.start) + minutes;
  const end = parseLocal(target.entry.end) + minutes;
  if (minutes === 0 && resourceID === target.assignment.resourceID) return null;
  return apply(target, { start: formatLocal(start), end: formatLocal(end) }, { resourceID }).op;
}

/** The op for dragging an entry's start or end by `minutes` (null: no change, or not after the start). */
export function resizeOperation(target, edge, minutes) {
  const start = parseLocal(target.entry.start) + (edge === 'start' ? minutes : 0);
  const end = parseLocal(target.entry.end) + (edge === 'end' ? minutes : 0);
  if (minutes === 0 || end <= start) return null;
  return apply(target, { start: formatLocal(start), end: formatLocal(end) }).op;
}
