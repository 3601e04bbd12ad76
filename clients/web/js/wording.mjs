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

const OPS = {
  replace: ['changed', 'geändert'], add: ['added', 'hinzugefügt'], remove: ['removed', 'entfernt'],
  reorder: ['moved', 'verschoben'], link: ['linked', 'verknüpft'], unlink: ['unlinked', 'Verknüpfung gelöst'],
  'timeline.apply': ['entry changed', 'Eintrag geändert'], 'timeline.add': ['entry added', 'Eintrag hinzugefügt'],
  'timeline.remove': ['entry removed', 'Eintrag entfernt'], undo: ['undo', 'Rückgängig'],
  'baseline.set': ['baseline set', 'Basislinie gesetzt'], 'baseline.remove': ['baseline removed', 'Basislinie entfernt'],
};

/**
 * A history entry's op in words: "changed: Design", "linked: spec → build", "undo of v12"; from its
 * `changes` while the op is not known yet (it came with `confirmed`).
 */
export function describeOp(language, op, undoes, changes = {}) {
  const index = language === 'de' ? 1 : 0;
  if (undoes !== undefined && undoes !== null) return language === 'de' ? `Rückgängig: v${undoes}` : `undo of v${undoes}`;
  if (!op) {
    const kind = changes.baselines ? 'baseline.set' : changes.entries?.length ? 'timeline.apply'
      : changes.remove?.length ? 'remove' : changes.dependencies ? 'link' : changes.order ? 'reorder' : 'replace';
    const title = changes.upsert?.[0]?.title;
    return title !== undefined && kind === 'replace' ? `${OPS.replace[index]}: ${title}` : OPS[kind][index];
  }
  const verb = OPS[op.type]?.[index] ?? op.type;
  const task = op.proposed ?? op.task ?? op.previous;
  if (task?.title !== undefined) return `${verb}: ${task.title}`;
  if (op.dependency) return `${verb}: ${op.dependency.predecessorID} → ${op.dependency.successorID}`;
  const entry = op.proposed?.entry ?? op.entry;
  if (entry?.title !== undefined) return `${verb}: ${entry.title}`;
  if (op.name !== undefined) return `${verb}: ${op.name}`;
  return verb;
}
