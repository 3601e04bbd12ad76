// The web client's English: every label and message (the terminal client's wording,
// TerminalStrings*.swift, where the two share a text). lang-de.mjs has the same keys in German;
// strings.mjs loads the one the page needs.

const duration = (minutes) => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours === 0 ? `${rest} min` : `${hours} h${rest === 0 ? '' : ` ${rest} min`}`;
};

export default {
  months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'],
  shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  week: 'Week', shortWeek: 'W',

  appTitle: 'ChronoSketch', signInHeading: 'Sign in', token: 'Token', signIn: 'Sign in', signOut: 'Sign out',
  tokenNote: 'The token is kept in this browser tab only (sessionStorage), never in an address.',
  tokenRefused: 'The token was not accepted.', plansHeading: 'Your plans', noPlans: 'You have no plans yet.',
  open: 'Open', plans: 'Plans', loadingPlans: 'Loading plans…', loading: 'Loading plan…', language: 'Deutsch',
  viewTasks: 'Tasks', viewResources: 'Resources', viewHistory: 'History', taskColumn: 'Task', kindColumn: 'Kind',
  datesColumn: 'Dates', progressColumn: 'Progress', activity: 'Activity', milestone: 'Milestone', summary: 'Summary',
  unscheduled: 'Unscheduled', previous: 'Previous', next: 'Next', todayButton: 'Today', zoomIn: 'Zoom in',
  zoomOut: 'Zoom out', undo: 'Undo', redo: 'Redo', help: 'Keys', addTask: 'Add task', save: 'Save', close: 'Close',
  saving: 'Saving…', saved: 'Saved.', unchanged: 'Nothing changed.', pending: 'pending', role: 'role',
  connecting: 'connecting…', connected: 'connected', reconnecting: 'disconnected, reconnecting',
  emptyPlan: 'This plan has no tasks yet. Press “a” to add a task.',
  noResources: 'This plan has no resources.', resourceColumn: 'Resource', loadingEntries: 'Loading…',
  loadFailed: 'Load failed', retry: 'Retry', baselineNone: 'no baseline', baselineLabel: 'Baseline',
  historyHeading: 'History', historyMore: 'Older versions', historyEmpty: 'No versions yet.',
  undoThis: 'Undo this', nothingToUndo: 'Nothing of yours to undo.', nothingToRedo: 'Nothing to redo.',
  title: 'Title', start: 'Start', end: 'End', days: 'Days', date: 'Date', progressPercent: 'Progress (%)',
  group: 'Group', topLevel: '(top level)', position: 'Position', before: 'before', after: 'after',
  sibling: 'Sibling', kind: 'Kind', thisTaskIs: 'This task is', predecessor: 'predecessor', successor: 'successor',
  of: 'of', dependency: 'Dependency', noSiblings: 'No siblings: the order cannot change.',
  noDependencies: 'No dependencies.', startEmptyUnscheduled: 'Start (empty: unscheduled)',
  resource: 'Resource', resources: 'Resources', name: 'Name', version: 'Version', removeBaseline: 'Remove',
  confirmRemoveTask: (title) => `Remove “${title}”? Save removes it.`,
  confirmRemoveEntry: (title) => `Remove “${title}” with all its assignments? Save removes it.`,
  notADate: 'Not a date (YYYY-MM-DD).', notATime: 'Not a time (YYYY-MM-DDTHH:MM).',
  endNotAfterStart: 'The end must be after the start.', notDays: 'Days must be a whole number of at least 1.',
  notProgress: 'Progress must be a number from 0 to 100.', titleEmpty: 'The title is empty.',
  chooseOne: 'Choose one.', noResourceChosen: 'Choose at least one resource.',
  nameEmpty: 'The name is empty.', actionUnavailable: 'This action is not available for this task.',
  noSelection: 'No task selected.', noEntrySelected: 'No entry selected.', actions: 'Actions',
  here: (count) => `${count} here`, versionLabel: (version) => `v${version}`,
  zoomLabel: (zoom) => `zoom ${zoom} d`, pendingCount: (count) => `${count} pending`,
  reconnectIn: (seconds) => `disconnected, reconnecting in ${seconds} s`,
  rejected: (reason) => `Rejected: ${reason}`, serverError: (message) => `Server error: ${message}`,
  undoing: (version) => `Undoing v${version}…`, undone: (version, now) => `Undid v${version} (now v${now}).`,
  notUndone: (version, why) => `v${version} not undone: ${why}`,
  changedSince: (user, version) => `changed since by ${user} (v${version}).`,
  lengthLabel: 'Length', duration,
  viewAt: 'Show', backToLive: 'Back to the live plan', showingVersion: (version) => `Showing version ${version} (read only)`,
  helpClose: 'Close', setBaseline: 'Set baseline', when: 'When', user: 'User', change: 'Change',

  /** The reasons of rejection codes (the server's message is shown for others). */
  rejections: {
    staleTask: 'The task was changed or removed in the meantime. Close the form and open it again.',
    duplicateID: 'This id is already in use.', blankID: 'The id must not be blank.',
    identityChanged: "A task's id cannot change.", invalidProgress: 'Progress must be 0 to 100.',
    invalidSchedule: 'The dates are not valid.',
    invalidHierarchy: 'That group is not possible (not a summary, or a cycle).',
    invalidDependency: 'That dependency is not allowed.', duplicateDependency: 'That dependency already exists.',
    dependencyCycle: 'The dependency would form a cycle.', staleDependency: 'The dependency no longer exists.',
    staleEntry: 'The entry was changed in the meantime.', staleAssignment: 'The assignment was changed in the meantime.',
    unknownResource: 'That resource does not exist.', invalidInterval: 'The interval is not valid.',
    forbidden: 'You may not edit this plan.', rateLimited: 'Too many changes; wait a moment.',
    badMessage: 'The proposal was malformed.', unknownPlan: 'This plan does not exist.',
    tooLarge: 'The change is too large.', unavailable: 'The server is unavailable right now.',
    notUndoable: 'That cannot be undone.', historyUnavailable: 'That version is no longer in the history.',
    staleBaseline: 'That baseline no longer exists.',
  },

  /** The task and entry actions' names (their keys are in wording.mjs). */
  actions: {
    details: 'Details', dates: 'Dates', duration: 'Duration', progress: 'Progress', group: 'Change group',
    order: 'Change order', addTask: 'Add task', addChild: 'Add child task', remove: 'Remove',
    link: 'Add dependency', unlink: 'Remove dependency', baseline: 'Set or remove a baseline',
    entryDetails: 'Entry details', addEntry: 'Add entry', moveEntry: 'Move entry',
    resizeEntry: 'Change start and end', retitleEntry: 'Rename entry', reassignEntry: 'Reassign entry',
    removeEntry: 'Remove entry',
  },

  /** The help (help.mjs puts the actions' keys between `keys` and `more`). */
  helpText: {
    keys: [
      ['v', 'switch view (tasks, resources, history)'], ['↑ ↓ j k', 'move the selection; PgUp PgDn Home End'],
      ['Space ← →', 'collapse/expand a group'], ['[ ]', 'timeline: previous/next half width'], ['t', 'today'],
      ['+ -', 'zoom (1, 2, 4, 6, 8 days per column)'], ['Enter', 'show the available actions'],
      ['Alt+↑ Alt+↓', 'move before the previous / after the next sibling'],
      ['z  Z (Ctrl+Z, Ctrl+Y)', 'undo / redo your last change'],
      ['b  B', 'set or remove a baseline / cycle its shadow'],
    ],
    resources: 'Resources:',
    more: [
      ['n', 'next entry of the resource'], ['Space', 'collapse/expand a resource (collapsed: not loaded)'],
      ['R', 'retry loading'], ['History:', '↑ ↓ select, Enter show, z undo'],
      ['Forms', 'Tab field, Enter saves, Esc closes'],
    ],
  },

  /** The history in words (history-wording.mjs picks the phrase; the terminal's HistoryWording). */
  history: {
    quote: (text) => `“${text}”`, noDetails: '(no details kept)', undid: (version) => `undid v${version}`,
    added: (task, into) => `added ${task}${into}`, into: (parent) => ` into ${parent}`, toTopLevel: ' to the top level',
    restored: (task) => `restored ${task}`, removed: (task) => `removed ${task}`,
    movedBefore: (task, other) => `moved ${task} before ${other}`, movedAfter: (task, other) => `moved ${task} after ${other}`,
    linked: (arrow) => `linked ${arrow}`, unlinked: (arrow) => `removed the dependency ${arrow}`,
    booked: (entry, resources) => `booked ${entry} on ${resources}`, removedEntry: (entry) => `removed the entry ${entry}`,
    setBaseline: (name, at) => `set the baseline ${name}${at}`, removedBaseline: (name) => `removed the baseline ${name}`,
    renamed: (old, title) => `renamed ${old} to ${title}`, task: 'it', entry: 'it',
    movedTo: (subject, when) => `moved ${subject} to ${when}`, movedInto: (subject, into) => `moved ${subject}${into}`,
    unscheduled: (subject) => `unscheduled ${subject}`,
    duration: (subject, days, range) => `changed the duration of ${subject} to ${days} day${days === 1 ? '' : 's'} (${range})`,
    progress: (subject, percent) => `set the progress of ${subject} to ${percent}`, decimal: '.',
    made: (subject, kind) => `made ${subject} a ${kind}`,
    reassigned: (subject, resource) => `reassigned ${subject} to ${resource}`, edited: (name) => `edited ${name}`,
    undoneBy: (version) => `undone by v${version}`,
  },
};
