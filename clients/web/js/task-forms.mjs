// The task forms (the terminal's TaskForm+Open and TaskForm.operation): what each action asks for,
// with the draft taken from confirmed data, and the op a filled-in form proposes. Pure: a form is a
// description ({ action, heading, original, fields, note }) the DOM renders; `taskOperation` checks
// the values and returns { op } or { error } in words. Nothing here changes data.

import { parseCivil, parseTypedCivil, formatCivil } from './dates.mjs';
import { texts } from './strings.mjs';
import { actionTitle, DEPENDENCY_TYPES, dependencyWords } from './wording.mjs';
import { pickerIndex, exactTask } from './task-picker.mjs';

const text = (name, label, value) => ({ name, type: 'text', label, value });
/** A type-ahead pick of one task `accept` keeps (combobox.mjs shows it; the value is the task's id). */
const taskPick = (name, label, copy, accept) => ({
  name, type: 'combobox', label, value: '', text: '',
  search: (typed) => pickerIndex(copy).query(typed, accept), exact: (typed) => exactTask(copy, typed, accept),
  prepare: () => pickerIndex(copy),
});
const choice = (name, label, options, value) => ({ name, type: 'select', label, options, value: value ?? options[0]?.id ?? '' });

function kindLabel(t, kind) {
  return kind === 'activity' ? t.activity : kind === 'milestone' ? t.milestone : t.summary;
}

/** The form for `action` on `task` (null for addTask) in `copy`, `today` a day number. */
export function openTaskForm(action, task, copy, language, today) {
  const t = texts(language);
  const form = (fields, note = null) => ({
    action, original: task ?? null, fields, note,
    heading: actionTitle(language, action) + (task && action !== 'addTask' ? `: ${task.title}` : ''),
  });
  const summaries = () => copy.tasks.filter((candidate) => candidate.kind === 'summary'); // only the forms that list them
  const groups = [{ id: '', label: t.topLevel }];
  switch (action) {
    case 'details': return form([text('title', t.title, task.title)]);
    case 'dates':
      if (task.kind === 'milestone') return form([text('date', t.date, task.date)]);
      return task.schedule ? form([text('start', t.start, task.schedule.start)])
        : form([text('start', t.start, formatCivil(today)), text('days', t.days, '1')]);
    case 'duration': {
      const days = parseCivil(task.schedule.end) - parseCivil(task.schedule.start);
      return form([text('days', t.days, String(days))]);
    }
    case 'progress': return form([text('progress', t.progressPercent, String(task.progress ?? 0))]);
    case 'group': {
      const excluded = copy.descendants(task.id).add(task.id);
      const options = groups.concat(summaries().filter((s) => !excluded.has(s.id)).map((s) => ({ id: s.id, label: s.title })));
      return form([choice('parent', t.group, options, task.parentID ?? '')]);
    }
    case 'order': {
      const parent = task.parentID ?? null;
      const siblings = copy.tasks.filter((s) => (s.parentID ?? null) === parent && s.id !== task.id);
      return form([
        choice('position', t.position, [{ id: 'before', label: t.before }, { id: 'after', label: t.after }], 'after'),
        choice('sibling', t.sibling, siblings.map((s) => ({ id: s.id, label: s.title }))),
      ], siblings.length === 0 ? t.noSiblings : null);
    }
    case 'addTask':
    case 'addChild': {
      const kinds = ['activity', 'milestone', 'summary'].map((kind) => ({ id: kind, label: kindLabel(t, kind) }));
      return form([
        text('title', t.title, ''), choice('kind', t.kind, kinds, 'activity'),
        text('start', t.startEmptyUnscheduled, formatCivil(today)), text('days', t.days, '1'),
        choice('parent', t.group, groups.concat(summaries().map((s) => ({ id: s.id, label: s.title }))),
          action === 'addChild' ? task.id : ''),
      ]);
    }
    case 'remove': return form([], t.confirmRemoveTask(task.title));
    case 'link': {
      // Any task but itself and the summaries (linking a linked pair again relinks it); found by typing.
      const linkable = (other) => other.kind !== 'summary' && other.id !== task.id;
      return form([
        choice('role', t.thisTaskIs, [{ id: 'predecessor', label: t.predecessor }, { id: 'successor', label: t.successor }]),
        taskPick('other', t.of, copy, linkable),
        choice('type', t.type, DEPENDENCY_TYPES.map((type) => ({ id: type, label: t.dependencyTypes[type] }))),
        text('lag', t.lag, '0'),
      ], copy.tasks.some(linkable) ? null : t.actionUnavailable);
    }
    case 'unlink': {
      const touching = copy.dependencies.filter((d) => d.predecessorID === task.id || d.successorID === task.id);
      const name = (id) => copy.get(id)?.title ?? id;
      const options = touching.map((d) => ({ id: JSON.stringify(d), label: dependencyWords(language, d, name) }));
      return form([choice('dependency', t.dependency, options)], options.length === 0 ? t.noDependencies : null);
    }
    default: return form([], t.actionUnavailable);
  }
}

function days(t, value) {
  const number = Number(value);
  return /^\s*\d+\s*$/.test(value ?? '') && number >= 1 ? { value: number } : { error: t.notDays };
}

function schedule(t, startText, dayCount, language) {
  const start = parseTypedCivil((startText ?? '').trim(), language);
  if (start === null) return { error: t.notADate };
  return { value: { start: formatCivil(start), end: formatCivil(start + dayCount) } };
}

/** The op of a filled-in task form: { op } or { error }. `newID` names an added task. */
export function taskOperation(form, values, copy, language, newID) {
  const t = texts(language);
  const previous = form.original;
  const replace = (changes) => ({ op: { type: 'replace', previous, proposed: { ...previous, ...changes } } });
  switch (form.action) {
    case 'details': {
      const title = (values.title ?? '').trim();
      return title ? replace({ title }) : { error: t.titleEmpty };
    }
    case 'dates': {
      if (previous.kind === 'milestone') {
        const date = parseTypedCivil((values.date ?? '').trim(), language);
        return date === null ? { error: t.notADate } : replace({ date: formatCivil(date) });
      }
      const length = previous.schedule ? parseCivil(previous.schedule.end) - parseCivil(previous.schedule.start)
        : days(t, values.days);
      if (length.error) return length;
      const made = schedule(t, values.start, length.value ?? length, language);
      return made.error ? made : replace({ schedule: made.value });
    }
    case 'duration': {
      const count = days(t, values.days);
      if (count.error) return count;
      return replace({ schedule: schedule(t, previous.schedule.start, count.value).value });
    }
    case 'progress': {
      const progress = Number((values.progress ?? '').trim().replace(',', '.'));
      const valid = (values.progress ?? '').trim() !== '' && Number.isFinite(progress) && progress >= 0 && progress <= 100;
      return valid ? replace({ progress }) : { error: t.notProgress };
    }
    case 'group': {
      const proposed = { ...previous };
      if (values.parent) proposed.parentID = values.parent;
      else delete proposed.parentID;
      return { op: { type: 'replace', previous, proposed } };
    }
    case 'order': {
      const relativeTo = copy.get(values.sibling ?? '');
      if (!relativeTo) return { error: t.chooseOne };
      return { op: { type: 'reorder', previous, relativeTo, position: values.position === 'before' ? 'before' : 'after' } };
    }
    case 'addTask':
    case 'addChild': return addOperation(t, values, newID, language);
    case 'remove': return { op: { type: 'remove', previous } };
    case 'link': return linkFormOperation(t, values, copy, previous);
    case 'unlink': {
      // The option is the dependency as held, type and lag included: unlink names it by value (after
      // "Apply mine", conflict.mjs, the pair's dependency as it is now).
      const seen = values.dependency ? JSON.parse(values.dependency) : null;
      const dependency = seen && form.rebased ? copy.dependencies.find((d) => d.predecessorID === seen.predecessorID
        && d.successorID === seen.successorID) : seen;
      return dependency ? { op: { type: 'unlink', dependency } } : { error: t.chooseOne };
    }
    default: return { error: t.actionUnavailable };
  }
}

/** A lag as typed: a whole number of working days in −1000…1000, "+2" and "−3" too; else null. */
export function parseLag(text) {
  const written = (text ?? '').trim().replace(/^\+/, '').replace(/^−/, '-');
  if (!/^-?\d{1,4}$/.test(written)) return null;
  const lag = Number(written);
  return Math.abs(lag) <= 1000 ? lag || 0 : null;
}

/** The link form's op: a link with its type and lag, or a relink when the pair is already linked. */
function linkFormOperation(t, values, copy, task) {
  if (!copy.get(values.other ?? '') || !DEPENDENCY_TYPES.includes(values.type)) return { error: t.chooseOne };
  const lag = parseLag(values.lag);
  if (lag === null) return { error: t.notLag };
  const [predecessorID, successorID] = values.role === 'successor' ? [values.other, task.id] : [task.id, values.other];
  const dependency = { predecessorID, successorID, type: values.type, lag };
  const held = copy.dependencies.find((d) => d.predecessorID === predecessorID && d.successorID === successorID);
  return { op: held ? { type: 'relink', previous: held, proposed: dependency } : { type: 'link', dependency } };
}

function addOperation(t, values, newID, language) {
  const title = (values.title ?? '').trim();
  if (!title) return { error: t.titleEmpty };
  const task = { id: newID, title, kind: values.kind };
  if (values.parent) task.parentID = values.parent;
  const startText = (values.start ?? '').trim();
  if (values.kind === 'milestone') {
    const date = parseTypedCivil(startText, language);
    if (date === null) return { error: t.notADate };
    task.date = formatCivil(date);
  } else if (values.kind === 'activity') {
    task.progress = 0;
    if (startText !== '') {
      const count = days(t, values.days);
      if (count.error) return count;
      const made = schedule(t, startText, count.value, language);
      if (made.error) return made;
      task.schedule = made.value;
    }
  } else if (values.kind !== 'summary') {
    return { error: t.chooseOne };
  }
  return { op: { type: 'add', task } };
}

/** The op for a drag in the list: move `dragged` before or after its sibling `target`. */
export function reorderOperation(dragged, target, position) {
  if (!dragged || !target || dragged.id === target.id || (dragged.parentID ?? null) !== (target.parentID ?? null)) return null;
  return { type: 'reorder', previous: dragged, relativeTo: target, position };
}

/** The op for a drag from one bar's end to another bar: predecessor → successor. */
export function linkOperation(predecessor, successor) {
  if (!predecessor || !successor || predecessor.id === successor.id) return null;
  if (predecessor.kind === 'summary' || successor.kind === 'summary') return null;
  return { type: 'link', dependency: { predecessorID: predecessor.id, successorID: successor.id } };
}
