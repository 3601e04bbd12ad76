// One open plan in the page: the PlanClient (confirmed copy, proposals, history), the three views
// (tasks, resources, history), the toolbar and the heading's live figures. It derives what the views
// draw (the visible tree, the horizon, arrows, the baseline shadow, the calendar's shading) from
// confirmed data only, asks for the schedule figures (slack, critical path) of the rows on screen,
// and marks the tasks a version pushed. The resources and history views, the search, the exports
// and the drags of bars are loaded when first used (the first render needs none of them), and so
// are the bar tooltips, the list's dividers, pinch zoom and print. Zoom to fit and the list's
// widths (kept per browser) are kept here.

import { $, sameKey } from './dom.mjs';
import { PlanClient } from './plan-client.mjs';
import { PlanCopy } from './plan-copy.mjs';
import { rowValues } from './marks.mjs';
import { PlanTree, loadArrows } from './plan-tree.mjs';
import { today as todayOf } from './dates.mjs';
import { TasksView } from './tasks-view.mjs';
import { readWidths, STORAGE_KEY } from './list-layout.mjs';
import { loadCoarseScales } from './scales.mjs';
import {
  COLUMN_WIDTH, fitHorizon, extendHorizon, viewportOf, cover, updateNavigation, applyViewport,
} from './plan-axis.mjs';
import { PlanActions } from './plan-actions.mjs';
import { makeCalendar } from './calendar.mjs';

/** How long a pushed task's bar flashes (the `pushed` animation in app.css). */
const FLASH_MS = 2000;

export { COLUMN_WIDTH };
/** What is loaded right after the first render; those with an `install(app)` hook into the page then. */
const LATER = ['./task-forms.mjs', './resources.mjs', './history-view.mjs', './help.mjs', './settings-form.mjs', './conflict.mjs',
  './search-box.mjs', './export-menu.mjs', './chart-png.mjs', './bar-tooltip.mjs', './list-resize.mjs', './chart-gestures.mjs',
  './print-view.mjs', './zoom-fit.mjs', './bar-drags.mjs', './combobox.mjs'];

/** The list's widths this browser keeps (list-layout.mjs), or null. */
function keptWidths() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export class PlanView {
  /** app: { session, pending, language, t, status(text, error), forms, setHeading(title) }. */
  constructor(app, plan) {
    this.app = app;
    this.plan = plan;
    this.client = new PlanClient({ session: app.session, pending: app.pending, plan, timers: window });
    this.view = 'tasks';
    this.collapsed = new Set();
    this.selectedID = null;
    this.zoom = 1;
    /** Pixels per column: 40, or what zoom to fit chose until the zoom changes again. */
    this.columnWidth = COLUMN_WIDTH;
    this.widths = readWidths(keptWidths());
    /** Whether a narrow list shows its other columns (over the chart). */
    this.columnsExpanded = false;
    this.historical = null;
    this.baseline = null;
    this.horizon = null;
    this.derived = null;
    this.values = new WeakMap();
    this.resources = null;
    this.historyView = null;
    /** The search by title (search-box.mjs), made when first used. */
    this.search = null;
    /** The drags of bars and bookings (bar-drags.mjs), made with the modules fetched after the first render. */
    this.drags = null;
    /** The tasks the newest pushing version moved: { version, count, ids (still to flash), at }. */
    this.pushed = null;
    this.actions = new PlanActions(this);
    this.tasksView = new TasksView($('#tasks'), {
      select: (id) => this.select(id), toggle: (id) => this.toggle(id), activate: (id) => this.actions.openMenu(id),
      reorder: (id, target, position) => this.actions.reorderDrag(id, target, position),
      link: (from, to) => this.actions.linkDrag(from, to),
      press: (id, part, event) => (this.drags ? this.drags.pressTask(id, part, event) : !this.loadDrags()),
      fix: (id) => this.drags?.fix(id),
      rendered: (scrollLeft, chartWidth, first, end) => {
        cover(this, chartWidth, scrollLeft);
        this.updateNavigation({ scrollLeft, chartWidth });
        this.askFigures(first, end);
      },
      flashed: (id) => this.pushed?.ids.delete(id),
      toggleColumns: () => {
        this.columnsExpanded = !this.columnsExpanded;
        this.render();
      },
    });
    this.unlisten = this.client.listen((event, detail) => this.clientEvent(event, detail));
    app.forms.isQueued = (id) => !this.client.pending.isSent(id);
    app.forms.version = () => this.client.copy?.version ?? 0;
  }

  get t() {
    return this.app.t();
  }

  get language() {
    return this.app.language();
  }

  /** The copy the views show: a fetched past version while one is shown, else the live copy. */
  get copy() {
    return this.historical ?? this.client.copy;
  }

  close() {
    this.unlisten();
    this.app.session.send({ type: 'unsubscribe', plan: this.plan });
    this.resources?.close();
    this.search?.close();
    this.tasksView.destroy();
    $('#history').replaceChildren();
    $('#historical').hidden = true;
  }

  clientEvent(event, detail) {
    if (event === 'welcome') this.resources?.welcomed();
    // Arrows that could not be fetched after the first render (the server went away) come now.
    if (event === 'welcome' && this.horizon) loadArrows().then(() => this.render(), () => {});
    if (event === 'copy') this.copyChanged(detail);
    if (event === 'answer') this.actions.answered(detail);
    if (event === 'retrying') this.app.status(this.t.rejected(this.actions.reason(detail)), true);
    if (event === 'role') this.actions.roleChanged(detail);
    if (event === 'pending') this.app.forms.refresh();
    if (event === 'lost') return this.actions.lost(detail);
    if (event === 'error') this.actions.serverError(detail);
    if (event === 'message' && detail.type === 'page' && detail.plan === this.plan) this.resources?.page(detail);
    if (event === 'history' || event === 'copy') this.historyChanged();
    this.render();
  }

  copyChanged(detail) {
    const copy = this.client.copy;
    if (!copy) return;
    this.app.setHeading(copy.title || this.plan);
    if (!this.horizon || copy.tasks.length === 0) this.app.status(copy.tasks.length === 0 ? this.t.emptyPlan : '');
    if (!this.horizon) {
      // What the first render does not need is fetched right after it, so that forms and views
      // open at once later, also while the server is away. A module that could not be fetched
      // (the server went away first) is no error yet: opening its view fetches it again and says
      // so if that fails. `data-preloaded` on <body> tells when all are here.
      // The arrows first: drawn as soon as they are here.
      const preload = () => Promise.all([loadArrows().then(() => this.render()), ...LATER.map((m) => import(m)), loadCoarseScales()]).then((modules) => {
        for (const module of modules) module?.install?.(this.app);
        return this.loadDrags();
      }).then(() => this.loadTreeChanges()).then(() => (document.body.dataset.preloaded = 'all'), () => {});
      requestAnimationFrame(() => setTimeout(preload, 0));
    }
    if (detail.confirmed) this.treeChanges?.followView(this);
    if (detail.snapshot || !this.horizon) this.fitHorizon();
    else if (detail.confirmed) this.extendHorizon(detail.confirmed.changes?.upsert ?? []);
    const pushed = detail.confirmed?.changes?.pushed ?? [];
    if (pushed.length > 0) {
      this.pushed = { version: detail.confirmed.version, count: pushed.length, ids: new Set(pushed), at: performance.now() };
      this.app.status(this.t.pushedCount(pushed.length));
    }
  }

  /** What follows confirmed changes and disclosures in the tree in place (tree-changes.mjs), fetched after the first render. */
  async loadTreeChanges() {
    this.treeChanges ??= await import('./tree-changes.mjs');
  }

  /** The drags' controller, made once its module is here (a press before that starts none). */
  async loadDrags() {
    const { BarDrags } = await import('./bar-drags.mjs');
    this.drags ??= new BarDrags(this);
    return this.drags;
  }

  /** Milliseconds since the task was pushed while its bar still flashes, else null. */
  pushedSince(id) {
    if (!this.pushed?.ids.has(id) || this.historical) return null;
    const elapsed = performance.now() - this.pushed.at;
    return elapsed < FLASH_MS ? elapsed : null;
  }

  /** The calendar of the copy shown (calendar.mjs), made again only when its settings change. */
  calendar() {
    const settings = this.copy.settings;
    if (this.calendarOf !== settings) [this.calendarOf, this.calendarValue] = [settings, makeCalendar(settings.calendar)];
    return this.calendarValue;
  }

  /** The schedule figures of the scheduled tasks in rows [first, end), for the live plan. */
  askFigures(first, end) {
    if (this.historical || !this.client.copy) return;
    const ids = [];
    for (const { task } of this.derive().rows.slice(first, end)) if (task.kind === 'milestone' || task.schedule) ids.push(task.id);
    if (ids.length > 0) this.client.wantFigures(ids);
  }

  valuesOf(task) {
    const key = task.kind === 'summary' ? this.copy.summaries[task.id] ?? task : task;
    let values = this.values.get(key);
    if (!values) {
      values = rowValues(task, this.copy.summaries);
      this.values.set(key, values);
    }
    return values;
  }

  /** The horizon from the plan's dates (a week before the first, four weeks after the last). */
  fitHorizon() {
    fitHorizon(this);
  }

  extendHorizon(tasks) {
    extendHorizon(this, tasks);
  }

  /**
   * The tree shown (plan-tree.mjs: its rows, their index, the arrows), followed in place through
   * confirmed changes and disclosures, built anew after a snapshot, for a past version, or for
   * what a search filters (its matches and their ancestors).
   */
  derive() {
    const copy = this.copy;
    const filter = this.search?.filtering && this.search.active ? this.search : null;
    const key = [copy, copy.revision, this.collapsedRevision, filter?.query ?? null];
    if (!sameKey(key, this.derived?.key)) {
      const valuesOf = (task) => this.valuesOf(task);
      this.derived = { key, tree: new PlanTree(copy, this.collapsed, valuesOf, filter ? filter.filteredRows() : null) };
    }
    const { tree } = this.derived;
    if (!this.selectedID || !tree.indexByID.has(this.selectedID)) this.selectedID = tree.rows[0]?.task.id ?? null;
    return tree;
  }

  /** The chart's column viewport of the visible view (for Previous/Next/Today/zoom and queries). */
  viewport(measured = null) {
    return viewportOf(this, measured);
  }

  /** Zoom to fit (`f`, or Fit in the toolbar): the plan's dates fill the chart's width. */
  async zoomToFit() {
    try {
      const { zoomToFit } = await import('./zoom-fit.mjs');
      if (this.app.planView === this) await zoomToFit(this);
    } catch (error) {
      this.app.status(this.t.serverError(error.message), true);
    }
  }

  /** The list's widths as the user sets them (list-resize.mjs keeps them in this browser). */
  setWidths(widths) {
    this.widths = widths;
    this.render();
  }

  /** Prints the whole plan (print-view.mjs): every row, the chart on pages. */
  async print() {
    try {
      const { printPlan } = await import('./print-view.mjs');
      if (this.app.planView === this) printPlan(this);
    } catch (error) {
      this.app.status(this.t.serverError(error.message), true);
    }
  }

  /** Previous / Next disabled at the finite edges, zoom at the finest and coarsest. */
  updateNavigation(measured = null) {
    updateNavigation(this, measured);
  }

  applyViewport(viewport) {
    applyViewport(this, viewport);
  }

  render() {
    const copy = this.copy;
    this.actions.renderHeading();
    if (!copy || !this.axis) return;
    const t = this.t;
    const readOnly = !!this.historical || !this.client.mayPropose;
    if (this.view === 'tasks') {
      const tree = this.derive();
      this.tasksView.update({
        copy, rows: tree.rows, indexByID: tree.indexByID, arrowsIn: (top, bottom) => tree.arrowsIn(top, bottom),
        shape: [tree, tree.changes, tree.arrowIndex], valuesOf: (task) => this.valuesOf(task), language: this.language, t,
        selectedID: this.selectedID, pendingIDs: this.actions.pendingTaskIDs(), axis: this.axis, columnWidth: this.columnWidth,
        today: todayOf(), shadow: (task) => this.baseline?.values.get(task.id) ?? null, calendar: this.calendar(),
        figures: this.historical ? null : this.client.figures?.tasks ?? null, pushed: (id) => this.pushedSince(id), readOnly,
        match: this.search?.active ? (id) => this.search.state(id) : null, widths: this.widths, expanded: this.columnsExpanded,
        overlay: this.drags && !readOnly ? (...args) => this.drags.taskOverlay(...args) : null,
      });
      this.search?.showCount();
    } else if (this.view === 'resources') {
      this.resources?.render(copy, this.axis, this.columnWidth, readOnly);
    } else {
      const title = (id) => this.client.copy?.get(id)?.title;
      const resource = (id) => this.client.copy?.resources.find((held) => held.id === id)?.label;
      this.historyView?.render({ history: this.client.history, user: this.client.user, readOnly, language: this.language, t, title, resource });
    }
  }

  /** Shows a view (loading its module the first time); the latest request wins. */
  async setView(view) {
    this.targetView = view;
    try {
      // Checked again after the import: two clicks while it loads make one view.
      if (view === 'resources' && !this.resources) {
        const { Resources } = await import('./resources.mjs');
        this.resources ??= new Resources(this);
      }
      if (view === 'history' && !this.historyView) {
        const { HistoryView } = await import('./history-view.mjs');
        this.historyView ??= new HistoryView($('#history'), {
          show: (version) => this.actions.showVersion(version), undo: (version) => this.actions.undo(version),
          more: () => this.actions.moreHistory(),
        });
      }
    } catch (error) {
      // Its module could not be fetched (the server is away): the page stays where it was.
      this.app.status(this.t.serverError(error.message), true);
      return;
    }
    if (this.targetView !== view) return;
    // The newest versions' ops (the stream's `confirmed` carry none).
    if (view === 'history') this.client.readHistory();
    this.view = view;
    for (const name of ['tasks', 'resources', 'history']) {
      $(`#${name}`).hidden = name !== view;
      $(`#tab-${name}`).setAttribute('aria-selected', String(name === view));
    }
    const from = view === 'resources' ? '#tasks' : '#resources';
    const to = view === 'resources' ? '#resources' : '#tasks';
    $(to).scrollLeft = $(from).scrollLeft;
    if (view !== 'resources') this.resources?.hidden();
    this.render();
    $(`#${view}`).focus({ preventScroll: true });
  }

  historyChanged() {
    if (this.view !== 'history') return;
    this.client.readMissingDetails();
    this.render();
  }

  select(id) {
    this.selectedID = id;
    const index = this.derive().indexByID.get(id);
    if (index !== undefined) this.tasksView.reveal(index);
    this.render();
  }

  moveSelection(delta) {
    const { rows, indexByID } = this.derive();
    if (rows.length === 0) return;
    const index = indexByID.get(this.selectedID) ?? 0;
    this.select(rows[Math.min(Math.max(index + delta, 0), rows.length - 1)].task.id);
  }

  toggle(id, collapse = null) {
    if (this.search?.filtering && this.search.active) return; // the filter shows the tree open
    const row = this.derive().rowOf(id);
    if (!row?.hasChildren) return;
    const shouldCollapse = collapse ?? !this.collapsed.has(id);
    if (shouldCollapse) this.collapsed.add(id);
    else this.collapsed.delete(id);
    if (this.treeChanges) this.treeChanges.foldView(this, id, shouldCollapse);
    else this.collapsedRevision = (this.collapsedRevision ?? 0) + 1;
    this.render();
  }

  /** The search box (`/`, or the toolbar's field), its module loaded the first time; `focus`: the cursor goes there. */
  async openSearch(focus = true) {
    try {
      const { SearchBox } = await import('./search-box.mjs');
      if (this.app.planView !== this) return;
      this.search ??= new SearchBox(this);
    } catch (error) {
      return this.app.status(this.t.serverError(error.message), true);
    }
    if (focus) this.search.focus();
  }

  /** The export menu (`E`, or Export in the toolbar): the server's formats and the chart as PNG. */
  async openExport() {
    try {
      const { openExportMenu } = await import('./export-menu.mjs');
      if (this.app.planView === this) openExportMenu(this);
    } catch (error) {
      this.app.status(this.t.serverError(error.message), true);
    }
  }

  /** Shows a fetched past version (read only), or the live plan again with null. */
  setHistorical(snapshot) {
    this.historical = snapshot ? new PlanCopy(snapshot) : null;
    this.derived = null;
    $('#historical').hidden = !snapshot;
    if (snapshot) $('#historical-text').textContent = this.t.showingVersion(snapshot.version);
    if (snapshot && this.view !== 'tasks') this.setView('tasks');
    this.render();
  }
}
