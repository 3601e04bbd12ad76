// The keyboard map: the terminal client's keys, on a stand-in for the plan view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planKey } from '../../../clients/web/js/keys.mjs';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { makeViewport, scrollTo } from '../../../clients/web/js/viewport.mjs';

function standIn() {
  const calls = [];
  const record = (name) => (...args) => calls.push([name, ...args]);
  const view = {
    calls, view: 'tasks', targetView: null, historical: null, selectedID: 'a',
    viewport: () => scrollTo(makeViewport(makeAxis(d('2026-09-07'), 90, 1), 20), 30),
    applyViewport: (viewport) => calls.push(['viewport', viewport.firstColumn, viewport.axis.zoom]),
    setView: (name) => { view.targetView = name; calls.push(['view', name]); },
    derive: () => ({ rows: new Array(50) }), moveSelection: record('move'), toggle: record('toggle'),
    tasksView: { visibleRowCount: 10 }, setHistorical: record('historical'), app: { showHelp: record('help') },
    actions: { undoKey: record('undo'), openBaselineForm: record('baseline'), cycleBaseline: record('cycle'),
      openMenu: record('menu'), openAction: record('action'), reorderKey: record('reorder'), openSettings: record('settings') },
    historyView: { key: () => false }, resources: { key: (event) => calls.push(['resources', event.key]) || true },
    openSearch: record('search'), openExport: record('export'), search: null, drags: null,
    loadDrags: async () => ({ key: (event) => calls.push(['drag', event.key, event.altKey]) }),
  };
  return view;
}
const key = (view, name, extra = {}) => planKey({ key: name, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra }, view);

test('navigation and zoom: [ ] move half a page, + - zoom keeping the centre', () => {
  const view = standIn();
  key(view, '[');
  key(view, ']');
  key(view, '+');
  key(view, '-');
  assert.deepEqual(view.calls, [['viewport', 20, 1], ['viewport', 40, 1], ['viewport', 30, 1], ['viewport', 10, 2]]);
});

test('selection, disclosure, actions and undo keys reach the view; v cycles the views', () => {
  const view = standIn();
  for (const name of ['j', 'ArrowUp', 'PageDown', 'End', ' ', 'ArrowLeft', 'ArrowRight', 'Enter', 'p', 'L', 'z', 'Z', 'b', 'B', 'S', '?']) key(view, name);
  key(view, 'ArrowDown', { altKey: true });
  key(view, 'y', { ctrlKey: true });
  assert.deepEqual(view.calls, [['move', 1], ['move', -1], ['move', 10], ['move', 50], ['toggle', 'a'], ['toggle', 'a', true],
    ['toggle', 'a', false], ['menu', null], ['action', 'progress'], ['action', 'unlink'], ['undo', false], ['undo', true],
    ['baseline'], ['cycle'], ['settings'], ['help'], ['reorder', 1], ['undo', true]]);
  const cycling = standIn();
  key(cycling, 'v');
  key(cycling, 'v');
  key(cycling, 'v');
  assert.deepEqual(cycling.calls.map((call) => call[1]), ['resources', 'history', 'tasks']);
  assert.equal(key(standIn(), 'Q'), false, 'an unknown key is left to the browser');
});

test('the resources view has keys of its own; Escape leaves a shown past version', () => {
  const view = standIn();
  view.view = 'resources';
  key(view, 'n');
  view.historical = {};
  key(view, 'Escape');
  assert.deepEqual(view.calls, [['resources', 'n'], ['historical', null]]);
});

test('/ opens the search and E the export menu in every view; n N step through matches only while searching', () => {
  const view = standIn();
  key(view, '/');
  key(view, 'E');
  view.view = 'history';
  key(view, '/');
  key(view, 'E');
  view.view = 'tasks';
  assert.equal(key(view, 'n'), false, 'no search: n is left alone');
  view.search = { active: true, step: (direction) => view.calls.push(['step', direction]), clear: () => view.calls.push(['clear']) };
  key(view, 'n');
  key(view, 'N');
  view.view = 'resources';
  key(view, 'n');
  assert.deepEqual(view.calls, [['search'], ['export'], ['search'], ['export'], ['step', 1], ['step', -1], ['resources', 'n']],
    'in the resources view n stays its next entry');
});

test('Escape clears a search first, then leaves a shown past version', () => {
  const view = standIn();
  view.historical = {};
  view.search = { active: true, clear: () => { view.calls.push(['clear']); view.search.active = false; } };
  key(view, 'Escape');
  key(view, 'Escape');
  assert.deepEqual(view.calls, [['clear'], ['historical', null]]);
  view.historical = null;
  assert.equal(key(view, 'Escape'), false, 'with neither, Escape is left to the browser');
});

test('Shift+←/→ go to the drags (with Alt: the end), in the tasks and resources views, not in the history; Escape cancels a drag first', async () => {
  const view = standIn();
  assert.equal(key(view, 'ArrowRight', { shiftKey: true }), true);
  assert.equal(key(view, 'ArrowLeft', { shiftKey: true, altKey: true }), true);
  view.view = 'resources';
  key(view, 'ArrowLeft', { shiftKey: true });
  view.view = 'history';
  view.historyView = { key: (event) => view.calls.push(['history', event.key]) && false };
  key(view, 'ArrowLeft', { shiftKey: true });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(view.calls, [['history', 'ArrowLeft'], ['drag', 'ArrowRight', false], ['drag', 'ArrowLeft', true], ['drag', 'ArrowLeft', false]]);
  // Once loaded, at once (the release of Shift must find the drag begun).
  const loaded = standIn();
  loaded.drags = { key: (event) => loaded.calls.push(['now', event.key]) };
  key(loaded, 'ArrowRight', { shiftKey: true });
  assert.deepEqual(loaded.calls, [['now', 'ArrowRight']]);
  // Without Shift the arrows keep their meaning (disclosure).
  const plain = standIn();
  key(plain, 'ArrowLeft');
  assert.deepEqual(plain.calls, [['toggle', 'a', true]]);
  // Escape: a drag under way is cancelled and nothing else happens; without one, the search is cleared.
  const escaping = standIn();
  escaping.search = { active: true, clear: () => escaping.calls.push(['clear']) };
  escaping.drags = { cancel: () => escaping.calls.push(['cancel']) > 0 };
  key(escaping, 'Escape');
  escaping.drags = { cancel: () => false };
  key(escaping, 'Escape');
  assert.deepEqual(escaping.calls, [['cancel'], ['clear']]);
});
