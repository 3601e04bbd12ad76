// The keyboard: the terminal client's keys where they make sense in a browser (no Tab or q: the
// browser owns those). Returns the help lines too, in the page's language.

import { ACTIONS, actionTitle, ENTRY_ACTIONS, availableActions } from './wording.mjs';
import { zoomIn, zoomOut, movePrevious, moveNext, show } from './viewport.mjs';
import { today as todayOf } from './dates.mjs';

const TASK_ACTIONS = Object.keys(ACTIONS).filter((action) => !ENTRY_ACTIONS.includes(action) && action !== 'baseline');

/** Handles a key for the open plan; true when it was used (the event's default is then prevented). */
export function planKey(event, view) {
  if (event.ctrlKey || event.metaKey) {
    if (event.key === 'z' || event.key === 'Z' || event.key === 'y') {
      view.actions.undoKey(event.key !== 'z' || event.shiftKey);
      return true;
    }
    return false;
  }
  const key = event.key;
  const navigation = { '[': movePrevious, ']': moveNext, '+': zoomIn, '=': zoomIn, '-': zoomOut };
  if (navigation[key]) {
    view.applyViewport(navigation[key](view.viewport()));
    return true;
  }
  switch (key) {
    case 't': view.applyViewport(show(view.viewport(), todayOf())); return true;
    case 'v': view.setView(view.view === 'tasks' ? 'resources' : view.view === 'resources' ? 'history' : 'tasks'); return true;
    case '?': case 'h': view.app.showHelp(); return true;
    case 'z': if (view.view !== 'history') { view.actions.undoKey(false); return true; } break;
    case 'Z': view.actions.undoKey(true); return true;
    case 'b': view.actions.openBaselineForm(); return true;
    case 'B': view.actions.cycleBaseline(); return true;
    case 'Escape': if (view.historical) { view.setHistorical(null); return true; } break;
    default: break;
  }
  if (view.view === 'tasks') return taskKey(event, view);
  if (view.view === 'resources') return resourceKey(event, view);
  return view.historyView.key(event);
}

function taskKey(event, view) {
  const key = event.key;
  const page = view.tasksView.visibleRowCount;
  if (event.altKey && (key === 'ArrowUp' || key === 'ArrowDown')) {
    view.actions.reorderKey(key === 'ArrowUp' ? -1 : 1);
    return true;
  }
  const moves = { ArrowUp: -1, k: -1, ArrowDown: 1, j: 1, PageUp: -page, PageDown: page, Home: -Infinity, End: Infinity };
  if (moves[key] !== undefined) {
    const rows = view.derive().rows.length;
    view.moveSelection(Math.max(Math.min(moves[key], rows), -rows));
    return true;
  }
  switch (key) {
    case ' ': view.toggle(view.selectedID); return true;
    case 'ArrowLeft': view.toggle(view.selectedID, true); return true;
    case 'ArrowRight': view.toggle(view.selectedID, false); return true;
    case 'Enter': view.actions.openMenu(null); return true;
    default: break;
  }
  const action = TASK_ACTIONS.find((candidate) => ACTIONS[candidate][0] === key);
  if (action) view.actions.openAction(action);
  return !!action;
}

function resourceKey(event, view) {
  const key = event.key;
  const resources = view.client.copy?.resources ?? [];
  const index = resources.findIndex((resource) => resource.id === view.resources.selectedResource);
  const move = { ArrowUp: -1, k: -1, ArrowDown: 1, j: 1 }[key];
  if (move !== undefined && resources.length) {
    const next = resources[Math.min(Math.max(index + move, 0), resources.length - 1)];
    view.selectEntry(next.id, null);
    return true;
  }
  switch (key) {
    case 'n': view.actions.nextEntry(); return true;
    case ' ': if (index >= 0) view.toggleResource(resources[index].id); return true;
    case 'R': view.runSteps(view.resources.planner.retry()); return true;
    case 'Enter': view.actions.openEntryAction('entryDetails'); return true;
    default: break;
  }
  const action = ENTRY_ACTIONS.find((candidate) => ACTIONS[candidate][0] === key);
  if (action) view.actions.openEntryAction(action);
  return !!action;
}

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
