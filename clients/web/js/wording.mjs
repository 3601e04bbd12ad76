// The words for codes: rejection reasons, action names and keys, op descriptions for the history.
// English and German, the terminal client's wording where it has one.

const REJECTIONS = {
  staleTask: ['The task was changed or removed in the meantime. Close the form and open it again.',
    'Die Aufgabe wurde inzwischen geändert oder entfernt. Bitte schließen und erneut öffnen.'],
  duplicateID: ['This id is already in use.', 'Diese ID gibt es schon.'],
  blankID: ['The id must not be blank.', 'Die ID darf nicht leer sein.'],
  identityChanged: ["A task's id cannot change.", 'Die ID einer Aufgabe kann nicht geändert werden.'],
  invalidProgress: ['Progress must be 0 to 100.', 'Der Fortschritt muss zwischen 0 und 100 liegen.'],
  invalidSchedule: ['The dates are not valid.', 'Der Zeitraum ist ungültig.'],
  invalidHierarchy: ['That group is not possible (not a summary, or a cycle).',
    'Diese Gruppe ist nicht möglich (keine Gruppe oder ein Zyklus).'],
  invalidDependency: ['That dependency is not allowed.', 'Diese Abhängigkeit ist nicht erlaubt.'],
  duplicateDependency: ['That dependency already exists.', 'Diese Abhängigkeit gibt es schon.'],
  dependencyCycle: ['The dependency would form a cycle.', 'Die Abhängigkeit ergäbe einen Zyklus.'],
  staleDependency: ['The dependency no longer exists.', 'Die Abhängigkeit gibt es nicht mehr.'],
  staleEntry: ['The entry was changed in the meantime.', 'Der Eintrag wurde inzwischen geändert.'],
  staleAssignment: ['The assignment was changed in the meantime.', 'Die Zuordnung wurde inzwischen geändert.'],
  unknownResource: ['That resource does not exist.', 'Diese Ressource gibt es nicht.'],
  invalidInterval: ['The interval is not valid.', 'Der Zeitraum ist ungültig.'],
  forbidden: ['You may not edit this plan.', 'Keine Berechtigung zum Bearbeiten.'],
  rateLimited: ['Too many changes; wait a moment.', 'Zu viele Änderungen; bitte kurz warten.'],
  badMessage: ['The proposal was malformed.', 'Der Vorschlag war fehlerhaft.'],
  unknownPlan: ['This plan does not exist.', 'Diesen Plan gibt es nicht.'],
  tooLarge: ['The change is too large.', 'Die Änderung ist zu groß.'],
  unavailable: ['The server is unavailable right now.', 'Der Server ist gerade nicht verfügbar.'],
  notUndoable: ['That cannot be undone.', 'Das lässt sich nicht rückgängig machen.'],
  historyUnavailable: ['That version is no longer in the history.', 'Diese Version ist nicht mehr im Verlauf.'],
  staleBaseline: ['That baseline no longer exists.', 'Diese Basislinie gibt es nicht mehr.'],
};

/** The reason of a rejection code in words (the server's message for an unknown code). */
export function rejectionReason(language, code, message = '') {
  const pair = REJECTIONS[code];
  if (!pair) return message || code;
  return pair[language === 'de' ? 1 : 0];
}

/** The task and entry actions: key, kind of form, English and German name. */
export const ACTIONS = {
  details: ['e', 'Details', 'Details'],
  dates: ['d', 'Dates', 'Termine'],
  duration: ['u', 'Duration', 'Dauer'],
  progress: ['p', 'Progress', 'Fortschritt'],
  group: ['g', 'Change group', 'Gruppe ändern'],
  order: ['o', 'Change order', 'Reihenfolge ändern'],
  addTask: ['a', 'Add task', 'Aufgabe hinzufügen'],
  addChild: ['c', 'Add child task', 'Unteraufgabe hinzufügen'],
  remove: ['x', 'Remove', 'Entfernen'],
  link: ['l', 'Add dependency', 'Abhängigkeit hinzufügen'],
  unlink: ['L', 'Remove dependency', 'Abhängigkeit entfernen'],
  baseline: ['b', 'Set or remove a baseline', 'Basislinie setzen oder entfernen'],
  entryDetails: ['i', 'Entry details', 'Eintrag: Details'],
  addEntry: ['a', 'Add entry', 'Eintrag hinzufügen'],
  moveEntry: ['m', 'Move entry', 'Eintrag verschieben'],
  resizeEntry: ['s', 'Change start and end', 'Beginn und Ende ändern'],
  retitleEntry: ['e', 'Rename entry', 'Eintrag umbenennen'],
  reassignEntry: ['r', 'Reassign entry', 'Eintrag neu zuordnen'],
  removeEntry: ['x', 'Remove entry', 'Eintrag entfernen'],
};

export const ENTRY_ACTIONS = ['entryDetails', 'addEntry', 'moveEntry', 'resizeEntry', 'retitleEntry',
  'reassignEntry', 'removeEntry'];

export function actionTitle(language, action) {
  return ACTIONS[action][language === 'de' ? 2 : 1];
}

export function actionKey(action) {
  return ACTIONS[action][0];
}

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
