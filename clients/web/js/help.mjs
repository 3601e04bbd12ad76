// The help dialog's lines: every key and what it does, in the page's language (loaded with the
// first look at the help).

import { ACTIONS, actionTitle, ENTRY_ACTIONS, availableActions } from './wording.mjs';

/** The help: [keys, meaning] pairs. */
export function helpLines(language) {
  const de = language === 'de';
  const lines = [
    ['v', de ? 'Ansicht wechseln (Aufgaben, Ressourcen, Verlauf)' : 'switch view (tasks, resources, history)'],
    ['↑ ↓ j k', de ? 'Auswahl bewegen; Bild↑ Bild↓ Pos1 Ende' : 'move the selection; PgUp PgDn Home End'],
    [de ? 'Leertaste ← →' : 'Space ← →', de ? 'Gruppe auf-/zuklappen' : 'collapse/expand a group'],
    ['[ ]', de ? 'Zeitachse: vorherige/nächste halbe Breite' : 'timeline: previous/next half width'],
    ['t', de ? 'Heute' : 'today'], ['+ -', de ? 'Zoom (1, 2, 4, 6, 8 Tage je Spalte)' : 'zoom (1, 2, 4, 6, 8 days per column)'],
    ['Enter', de ? 'verfügbare Aktionen anzeigen' : 'show the available actions'],
    ['Alt+↑ Alt+↓', de ? 'vor das vorige / hinter das nächste Geschwister' : 'move before the previous / after the next sibling'],
    ['z  Z (Strg+Z, Strg+Y)', de ? 'eigene letzte Änderung rückgängig / wiederholen' : 'undo / redo your last change'],
    ['b  B', de ? 'Basislinie setzen oder entfernen / Schatten wechseln' : 'set or remove a baseline / cycle its shadow'],
  ];
  for (const action of [...new Set(availableActions({ kind: 'activity', schedule: {} }).concat(['addChild']))]) {
    lines.push([ACTIONS[action][0], actionTitle(language, action)]);
  }
  lines.push([de ? 'Ressourcen:' : 'Resources:', '']);
  for (const action of ENTRY_ACTIONS) lines.push([action === 'entryDetails' ? 'Enter i' : ACTIONS[action][0], actionTitle(language, action)]);
  lines.push(['n', de ? 'nächster Eintrag der Ressource' : 'next entry of the resource'],
    [de ? 'Leertaste' : 'Space', de ? 'Ressource zu-/aufklappen (zugeklappt: nicht geladen)' : 'collapse/expand a resource (collapsed: not loaded)'],
    ['R', de ? 'Laden erneut versuchen' : 'retry loading'],
    [de ? 'Verlauf:' : 'History:', de ? '↑ ↓ wählen, Enter anzeigen, z rückgängig' : '↑ ↓ select, Enter show, z undo'],
    [de ? 'Formulare' : 'Forms', de ? 'Tab Feld, Enter Speichern, Esc Schließen' : 'Tab field, Enter saves, Esc closes']);
  return lines;
}
