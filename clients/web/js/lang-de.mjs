// The web client's German: the same keys as lang-en.mjs (the terminal client's wording where the
// two share a text).

const duration = (minutes) => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours === 0 ? `${rest} Min.` : `${hours} Std.${rest === 0 ? '' : ` ${rest} Min.`}`;
};

export default {
  months: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober',
    'November', 'Dezember'],
  shortMonths: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
  week: 'KW', shortWeek: 'KW',

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
  reconnecting: 'getrennt, neuer Versuch',
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
  lengthLabel: 'Dauer', duration,
  viewAt: 'Anzeigen', backToLive: 'Zurück zum aktuellen Plan',
  showingVersion: (version) => `Version ${version} (nur lesen)`, helpClose: 'Schließen', setBaseline: 'Basislinie setzen',
  when: 'Wann', user: 'Benutzer', change: 'Änderung',

  rejections: {
    staleTask: 'Die Aufgabe wurde inzwischen geändert oder entfernt. Bitte schließen und erneut öffnen.',
    duplicateID: 'Diese ID gibt es schon.', blankID: 'Die ID darf nicht leer sein.',
    identityChanged: 'Die ID einer Aufgabe kann nicht geändert werden.',
    invalidProgress: 'Der Fortschritt muss zwischen 0 und 100 liegen.', invalidSchedule: 'Der Zeitraum ist ungültig.',
    invalidHierarchy: 'Diese Gruppe ist nicht möglich (keine Gruppe oder ein Zyklus).',
    invalidDependency: 'Diese Abhängigkeit ist nicht erlaubt.', duplicateDependency: 'Diese Abhängigkeit gibt es schon.',
    dependencyCycle: 'Die Abhängigkeit ergäbe einen Zyklus.', staleDependency: 'Die Abhängigkeit gibt es nicht mehr.',
    staleEntry: 'Der Eintrag wurde inzwischen geändert.', staleAssignment: 'Die Zuordnung wurde inzwischen geändert.',
    unknownResource: 'Diese Ressource gibt es nicht.', invalidInterval: 'Der Zeitraum ist ungültig.',
    forbidden: 'Keine Berechtigung zum Bearbeiten.', rateLimited: 'Zu viele Änderungen; bitte kurz warten.',
    badMessage: 'Der Vorschlag war fehlerhaft.', unknownPlan: 'Diesen Plan gibt es nicht.',
    tooLarge: 'Die Änderung ist zu groß.', unavailable: 'Der Server ist gerade nicht verfügbar.',
    notUndoable: 'Das lässt sich nicht rückgängig machen.', historyUnavailable: 'Diese Version ist nicht mehr im Verlauf.',
    staleBaseline: 'Diese Basislinie gibt es nicht mehr.',
  },

  actions: {
    details: 'Details', dates: 'Termine', duration: 'Dauer', progress: 'Fortschritt', group: 'Gruppe ändern',
    order: 'Reihenfolge ändern', addTask: 'Aufgabe hinzufügen', addChild: 'Unteraufgabe hinzufügen',
    remove: 'Entfernen', link: 'Abhängigkeit hinzufügen', unlink: 'Abhängigkeit entfernen',
    baseline: 'Basislinie setzen oder entfernen', entryDetails: 'Eintrag: Details', addEntry: 'Eintrag hinzufügen',
    moveEntry: 'Eintrag verschieben', resizeEntry: 'Beginn und Ende ändern', retitleEntry: 'Eintrag umbenennen',
    reassignEntry: 'Eintrag neu zuordnen', removeEntry: 'Eintrag entfernen',
  },

  helpText: {
    keys: [
      ['v', 'Ansicht wechseln (Aufgaben, Ressourcen, Verlauf)'], ['↑ ↓ j k', 'Auswahl bewegen; Bild↑ Bild↓ Pos1 Ende'],
      ['Leertaste ← →', 'Gruppe auf-/zuklappen'], ['[ ]', 'Zeitachse: vorherige/nächste halbe Breite'], ['t', 'Heute'],
      ['+ -', 'Zoom (1, 2, 4, 6, 8 Tage je Spalte)'], ['Enter', 'verfügbare Aktionen anzeigen'],
      ['Alt+↑ Alt+↓', 'vor das vorige / hinter das nächste Geschwister'],
      ['z  Z (Strg+Z, Strg+Y)', 'eigene letzte Änderung rückgängig / wiederholen'],
      ['b  B', 'Basislinie setzen oder entfernen / Schatten wechseln'],
    ],
    resources: 'Ressourcen:',
    more: [
      ['n', 'nächster Eintrag der Ressource'], ['Leertaste', 'Ressource zu-/aufklappen (zugeklappt: nicht geladen)'],
      ['R', 'Laden erneut versuchen'], ['Verlauf:', '↑ ↓ wählen, Enter anzeigen, z rückgängig'],
      ['Formulare', 'Tab Feld, Enter Speichern, Esc Schließen'],
    ],
  },
};
