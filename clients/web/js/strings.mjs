// Every label and message the web client shows, in English and German (the terminal client's
// wording, TerminalStrings*.swift, where the two share a text). Pure data and small formatters.

import { civil, formatCivil } from './dates.mjs';

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober',
    'November', 'Dezember'],
};
const SHORT_MONTHS = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  de: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
};

export const monthName = (language, month) => MONTHS[language][month - 1];
export const shortMonthName = (language, month) => SHORT_MONTHS[language][month - 1];
export const weekWord = (language) => (language === 'de' ? 'KW' : 'Week');
export const shortWeekWord = (language) => (language === 'de' ? 'KW' : 'W');

/** The language for a browser's preferred languages: German for any `de…`, else English. */
export function languageFor(languages) {
  return (languages ?? []).some((tag) => /^de(-|$)/i.test(tag)) ? 'de' : 'en';
}

/** A date as the list writes it: 2026-09-08 / 08.09.2026. */
export function formatDate(language, day) {
  if (language !== 'de') return formatCivil(day);
  const { year, month, day: dayOfMonth } = civil(day);
  return `${String(dayOfMonth).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`;
}

/** A date and time: 2026-09-08 09:00 / 08.09.2026 09:00. */
export function formatDateTime(language, minutes) {
  const day = Math.floor(minutes / 1440);
  const rest = minutes - day * 1440;
  const time = `${String(Math.floor(rest / 60)).padStart(2, '0')}:${String(rest % 60).padStart(2, '0')}`;
  return `${formatDate(language, day)} ${time}`;
}

const TEXTS = {
  en: {
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
    disconnected: 'disconnected', emptyPlan: 'This plan has no tasks yet. Press “a” to add a task.',
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
    undoing: (version) => `Undoing version ${version}…`, undone: (version, now) => `Version ${version} undone (now v${now}).`,
    historyLine: (entry) => `v${entry.version} · ${entry.user}`, invalidData: (reason) => `The plan data is invalid: ${reason}`,
    lengthLabel: 'Length', duration: (minutes) => formatDuration(minutes, ' h', ' min'),
    viewAt: 'Show', backToLive: 'Back to the live plan', showingVersion: (version) => `Showing version ${version} (read only)`,
    helpClose: 'Close', setBaseline: 'Set baseline', when: 'When', user: 'User', change: 'Change',
  },
  de: {
    appTitle: 'ChronoSketch', signInHeading: 'Anmelden', token: 'Token', signIn: 'Anmelden', signOut: 'Abmelden',
    tokenNote: 'Das Token bleibt nur in diesem Browser-Tab (sessionStorage), nie in einer Adresse.',
    tokenRefused: 'Das Token wurde nicht angenommen.', plansHeading: 'Ihre Pläne', noPlans: 'Sie haben noch keine Pläne.',
    open: 'Öffnen', plans: 'Pläne', loadingPlans: 'Pläne werden geladen …', loading: 'Plan wird geladen …',
    language: 'English', viewTasks: 'Aufgaben', viewResources: 'Ressourcen', viewHistory: 'Verlauf',
    taskColumn: 'Aufgabe', kindColumn: 'Art', datesColumn: 'Termine', progressColumn: 'Fortschritt',
    activity: 'Vorgang', milestone: 'Meilenstein', summary: 'Gruppe', unscheduled: 'Nicht geplant',
    previous: 'Zurück', next: 'Weiter', todayButton: 'Heute', zoomIn: 'Vergrößern', zoomOut: 'Verkleinern',
    undo: 'Rückgängig', redo: 'Wiederholen', help: 'Tasten', addTask: 'Aufgabe hinzufügen', save: 'Speichern',
    close: 'Schließen', saving: 'Wird gespeichert …', saved: 'Gespeichert.', unchanged: 'Keine Änderung.',
    pending: 'ausstehend', role: 'Rolle', connecting: 'verbinde …', connected: 'verbunden',
    reconnecting: 'getrennt, neuer Versuch', disconnected: 'getrennt',
    emptyPlan: 'Dieser Plan hat noch keine Aufgaben. Mit „a“ eine Aufgabe hinzufügen.',
    noResources: 'Dieser Plan hat keine Ressourcen.', resourceColumn: 'Ressource', loadingEntries: 'Lädt …',
    loadFailed: 'Laden fehlgeschlagen', retry: 'Erneut versuchen', baselineNone: 'keine Basislinie',
    baselineLabel: 'Basislinie', historyHeading: 'Verlauf', historyMore: 'Ältere Versionen',
    historyEmpty: 'Noch keine Versionen.', undoThis: 'Rückgängig machen',
    nothingToUndo: 'Nichts Eigenes rückgängig zu machen.', nothingToRedo: 'Nichts zu wiederholen.',
    title: 'Titel', start: 'Beginn', end: 'Ende', days: 'Tage', date: 'Datum', progressPercent: 'Fortschritt (%)',
    group: 'Gruppe', topLevel: '(oberste Ebene)', position: 'Position', before: 'vor', after: 'nach',
    sibling: 'Geschwister', kind: 'Art', thisTaskIs: 'Diese Aufgabe ist', predecessor: 'Vorgänger',
    successor: 'Nachfolger', of: 'von', dependency: 'Abhängigkeit',
    noSiblings: 'Keine Geschwister: die Reihenfolge kann nicht geändert werden.',
    noDependencies: 'Keine Abhängigkeiten.', startEmptyUnscheduled: 'Beginn (leer: nicht geplant)',
    resource: 'Ressource', resources: 'Ressourcen', name: 'Name', version: 'Version', removeBaseline: 'Entfernen',
    confirmRemoveTask: (title) => `„${title}“ entfernen? Speichern entfernt.`,
    confirmRemoveEntry: (title) => `„${title}“ mit allen Zuordnungen entfernen? Speichern entfernt.`,
    notADate: 'Ungültiges Datum (JJJJ-MM-TT).', notATime: 'Ungültiger Zeitpunkt (JJJJ-MM-TTTHH:MM).',
    endNotAfterStart: 'Das Ende muss nach dem Beginn liegen.', notDays: 'Tage: eine ganze Zahl ab 1.',
    notProgress: 'Der Fortschritt muss zwischen 0 und 100 liegen.', titleEmpty: 'Der Titel ist leer.',
    chooseOne: 'Bitte eine Auswahl treffen.', noResourceChosen: 'Mindestens eine Ressource wählen.',
    nameEmpty: 'Der Name ist leer.', actionUnavailable: 'Diese Aktion ist für diese Aufgabe nicht verfügbar.',
    noSelection: 'Keine Aufgabe ausgewählt.', noEntrySelected: 'Kein Eintrag ausgewählt.', actions: 'Aktionen',
    here: (count) => `${count} anwesend`, versionLabel: (version) => `v${version}`,
    zoomLabel: (zoom) => `Zoom ${zoom} T.`, pendingCount: (count) => `${count} ausstehend`,
    reconnectIn: (seconds) => `getrennt, neuer Versuch in ${seconds} s`,
    rejected: (reason) => `Abgelehnt: ${reason}`, serverError: (message) => `Serverfehler: ${message}`,
    undoing: (version) => `Version ${version} wird rückgängig gemacht …`,
    undone: (version, now) => `Version ${version} rückgängig gemacht (jetzt v${now}).`,
    historyLine: (entry) => `v${entry.version} · ${entry.user}`, invalidData: (reason) => `Die Plandaten sind ungültig: ${reason}`,
    lengthLabel: 'Dauer', duration: (minutes) => formatDuration(minutes, ' Std.', ' Min.'),
    viewAt: 'Anzeigen', backToLive: 'Zurück zum aktuellen Plan',
    showingVersion: (version) => `Version ${version} (nur lesen)`, helpClose: 'Schließen', setBaseline: 'Basislinie setzen',
    when: 'Wann', user: 'Benutzer', change: 'Änderung',
  },
};

function formatDuration(minutes, hourUnit, minuteUnit) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}${minuteUnit}`;
  return `${hours}${hourUnit}${rest === 0 ? '' : ` ${rest}${minuteUnit}`}`;
}

/** The texts of a language ('en' or 'de'). */
export function texts(language) {
  return TEXTS[language] ?? TEXTS.en;
}
