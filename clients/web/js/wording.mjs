// Rejection codes and actions in words (the texts are in the language modules), the actions'
// keys, and which actions a task's kind allows.

import { texts, formatDate } from './strings.mjs';
import { parseCivil } from './dates.mjs';

/** The reason of a rejection code in words (the server's message for an unknown code). */
export function rejectionReason(language, code, message = '') {
  return texts(language).rejections[code] ?? (message || code);
}

/** Why a proposal was rejected: a scheduleConflict names its task (`title(id)`) and earliest start. */
export function rejectionWords(language, answer, title = () => undefined) {
  const conflict = answer.code === 'scheduleConflict' ? answer.conflict : null;
  const day = parseCivil(conflict?.earliest);
  if (!conflict || day === null) return rejectionReason(language, answer.code, answer.message);
  return texts(language).conflict(title(conflict.task) ?? conflict.task, formatDate(language, day));
}

/** The codes that say a value the proposal named changed since (the terminal's RejectionCode.isStale). */
export const STALE_CODES = new Set(['staleTask', 'staleEntry', 'staleAssignment', 'staleDependency', 'staleSettings']);

/**
 * Why an undo of `version` was rejected (the terminal's notUndone): for a stale value, who changed
 * it since when the history (history.mjs) knows, else the reason (a conflict's task by `title(id)`).
 */
export function notUndone(language, version, answer, history, title = () => undefined) {
  const t = texts(language);
  const ids = history.entries.get(version)?.touched ?? new Set();
  const since = STALE_CODES.has(answer.code) ? history.lastChange(version, ids) : null;
  return t.notUndone(version, since ? t.changedSince(since.user, since.version) : rejectionWords(language, answer, title));
}

/**
 * The status line of an undo of `version` ("Undoing v7…"; with `now`, the version it made: "Undid
 * v7 (now v9)."). When `version` was itself an undo of v5, undoing it is a redo: "Redid v5 (now v9).".
 */
export function undoStatus(language, version, history, now = null) {
  const t = texts(language);
  const redone = history.entries.get(version)?.undoes ?? null;
  if (redone === null) return now === null ? t.undoing(version) : t.undone(version, now);
  return now === null ? t.redoing(redone) : t.redone(redone, now);
}

/** The task and entry actions' keys (their names are in the language modules). */
export const ACTION_KEYS = {
  details: 'e', dates: 'd', duration: 'u', progress: 'p', group: 'g', order: 'o', addTask: 'a', addChild: 'c',
  remove: 'x', link: 'l', unlink: 'L', baseline: 'b', entryDetails: 'i', addEntry: 'a', moveEntry: 'm',
  resizeEntry: 's', retitleEntry: 'e', reassignEntry: 'r', removeEntry: 'x',
};

export const ENTRY_ACTIONS = ['entryDetails', 'addEntry', 'moveEntry', 'resizeEntry', 'retitleEntry',
  'reassignEntry', 'removeEntry'];

export const actionTitle = (language, action) => texts(language).actions[action];
export const actionKey = (action) => ACTION_KEYS[action];

/**
 * The actions seed 000 allows for a task's kind (the terminal's TaskAction.available): summaries
 * details/group/order/child creation/removal; milestones details/dates/group/order/removal/links;
 * unscheduled activities everything but duration; scheduled activities everything.
 */
export function availableActions(task) {
  if (!task) return ['addTask'];
  if (task.kind === 'summary') return ['details', 'group', 'order', 'addTask', 'addChild', 'remove'];
  if (task.kind === 'milestone') return ['details', 'dates', 'group', 'order', 'addTask', 'remove', 'link', 'unlink'];
  const all = ['details', 'dates', 'duration', 'progress', 'group', 'order', 'addTask', 'remove', 'link', 'unlink'];
  return task.schedule ? all : all.filter((action) => action !== 'duration');
}

/** The dependency types (scheduling.md §2), finish-to-start the default. */
export const DEPENDENCY_TYPES = ['finish-to-start', 'start-to-start', 'finish-to-finish', 'start-to-finish'];

/** A lag with its sign: +2, −3 (a typographic minus), 0. */
const signed = (lag) => (lag > 0 ? `+${lag}` : lag < 0 ? `−${-lag}` : '0');

/** What an arrow says besides its ends: "SS +2", "FS −1", "FF"; nothing for finish-to-start without lag. */
export function arrowLabel(language, dependency) {
  const type = dependency.type ?? 'finish-to-start';
  const lag = dependency.lag ?? 0;
  if (type === 'finish-to-start' && lag === 0) return '';
  return texts(language).typeShort[type] + (lag === 0 ? '' : ` ${signed(lag)}`);
}

/** A dependency in words: "Spec → Done (Start → Start, +2 working days)"; `title(id)` names a task. */
export function dependencyWords(language, dependency, title) {
  const t = texts(language);
  const lag = dependency.lag ?? 0;
  const type = t.dependencyTypes[dependency.type ?? 'finish-to-start'];
  return `${title(dependency.predecessorID)} → ${title(dependency.successorID)} (${type}, ${lag === 0 ? t.noLag : t.lagDays(signed(lag), Math.abs(lag))})`;
}
