// The keyboard: the terminal client's keys where they make sense in a browser (no Tab or q: the
// browser owns those), and the page's own (`/` search, `n` `N` its matches, `E` export, `f` zoom
// to fit); the
// resources view's own keys are in resources.mjs, the help in help.mjs.

import { ACTION_KEYS, ENTRY_ACTIONS } from './wording.mjs';
import { zoomIn, zoomOut, movePrevious, moveNext, show } from './viewport.mjs';
import { today as todayOf } from './dates.mjs';

const TASK_ACTIONS = Object.keys(ACTION_KEYS).filter((action) => !ENTRY_ACTIONS.includes(action) && action !== 'baseline');

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
    case 'v': {
      const shown = view.targetView ?? view.view;
      view.setView(shown === 'tasks' ? 'resources' : shown === 'resources' ? 'history' : 'tasks');
      return true;
    }
    case '?': case 'h': view.app.showHelp(); return true;
    case 'z': if (view.view !== 'history') { view.actions.undoKey(false); return true; } break;
    case 'Z': view.actions.undoKey(true); return true;
    case 'b': view.actions.openBaselineForm(); return true;
    case 'B': view.actions.cycleBaseline(); return true;
    case 'S': view.actions.openSettings(); return true;
    case '/': view.openSearch(); return true;
    case 'E': view.openExport(); return true;
    case 'f': view.zoomToFit(); return true;
    case 'Escape':
      // A drag by keys first (it is cancelled), a search (it is cleared), then a past version (back to the live plan).
      if (view.drags?.cancel()) return true;
      if (view.search?.active) { view.search.clear(); return true; }
      if (view.historical) { view.setHistorical(null); return true; }
      break;
    default: break;
  }
  // Shift+←/→ move the selected bar or booking by a day, with Alt its end (bar-drags.mjs).
  if (event.shiftKey && (key === 'ArrowLeft' || key === 'ArrowRight') && view.view !== 'history') {
    // At once when the drags are here: the release of Shift, which proposes, must find the drag begun.
    if (view.drags) view.drags.key(event);
    else view.loadDrags().then((drags) => drags.key(event));
    return true;
  }
  if (view.view === 'tasks') return taskKey(event, view);
  if (view.view === 'resources') return view.resources?.key(event) ?? false;
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
    case 'n': case 'N':
      if (!view.search?.active) return false;
      view.search.step(key === 'n' ? 1 : -1);
      return true;
    default: break;
  }
  const action = TASK_ACTIONS.find((candidate) => ACTION_KEYS[candidate] === key);
  if (action) view.actions.openAction(action);
  return !!action;
}
