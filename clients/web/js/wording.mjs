// Rejection codes and actions in words (the texts are in the language modules), the actions'
// keys, and which actions a task's kind allows.

import { texts } from './strings.mjs';

/** The reason of a rejection code in words (the server's message for an unknown code). */
export function rejectionReason(language, code, message = '') {
  return texts(language).rejections[code] ?? (message || code);
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
