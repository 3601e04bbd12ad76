// The resources view's controller, loaded when the view is first opened: the watch of what is
// visible (seed 003's planner), the pages it receives, the selection and the entry actions (forms
// and drags), each a proposal like every other edit.

import { $ } from './dom.mjs';
import { ResourcesView, LABEL_WIDTH } from './resources-view.mjs';
import { ResourceQueryPlanner, queryFor, applyPage } from './resource-query.mjs';
import { openEntryForm, entryOperation } from './entry-forms.mjs';
import { ENTRY_ACTIONS, actionTitle, actionKey } from './wording.mjs';
import { today as todayOf, MINUTES_PER_DAY, parseLocal } from './dates.mjs';
import { formatDateTime, formatDuration } from './strings.mjs';

export { LABEL_WIDTH };

export class Resources {
  /** `plan`: the PlanView. */
  constructor(plan) {
    this.plan = plan;
    this.planner = new ResourceQueryPlanner(plan.app.pending.prefix);
    this.data = { entries: new Map(), assignments: new Map() };
    this.revision = 0;
    this.collapsed = new Set();
    this.selectedResource = null;
    this.selectedAssignment = null;
    this.visibleRows = [0, 0];
    this.view = new ResourcesView($('#resources'), {
      select: (resource, assignment) => this.select(resource, assignment), toggle: (id) => this.toggle(id),
      activate: () => this.openAction('entryDetails'), retry: () => this.run(this.planner.retry()),
      press: (target, part, event) => (plan.drags ? plan.drags.pressEntry(target, part, event) : plan.loadDrags()),
      visible: (rows, measured) => this.visible(rows, measured),
    });
  }

  get t() { return this.plan.t; }

  /** After a (re)connect the server holds no watch: the watched query again. */
  welcomed() { this.run(this.planner.resend()); }

  /** The view was left: its watch ends. */
  hidden() { this.run(this.planner.want(null)); }

  close() {
    if (this.planner.watchID) this.plan.app.session.send({ type: 'unwatch', watch: this.planner.watchID });
    this.view.destroy();
  }

  run(steps) {
    for (const step of steps) {
      if (step.wake !== undefined) setTimeout(() => this.run(this.planner.wake(step.token)), step.wake);
      if (step.unwatch) this.plan.app.session.send({ type: 'unwatch', watch: step.unwatch });
      if (step.watch) this.plan.app.session.send({ type: 'watch', plan: this.plan.plan, query: step.watch, watch: step.id });
    }
    if (steps.some((step) => step.watch)) this.plan.render();
  }

  page(message) {
    const query = this.planner.receive(message.watch, message);
    if (query) {
      this.revision += 1;
      applyPage(this.data, query, message);
    }
  }

  refused(reason) { this.planner.refused(reason); }

  /** The rows and columns on screen (`measured` at the start of the view's frame): the watch follows. */
  visible(rows, measured) {
    this.visibleRows = rows;
    this.plan.updateNavigation(measured);
    const copy = this.plan.client.copy;
    if (!copy || this.plan.view !== 'resources' || this.plan.historical) return;
    const query = queryFor(copy.resources.map((resource) => resource.id), this.collapsed, rows, this.plan.viewport(measured));
    this.run(this.planner.want(query));
  }

  render(copy, axis, columnWidth, readOnly) {
    this.view.update({ readOnly,
      resources: copy.resources, data: this.data, dataRevision: this.revision, collapsed: this.collapsed,
      selectedResource: this.selectedResource, selectedAssignment: this.selectedAssignment, loadState: this.planner.state,
      axis, columnWidth, language: this.plan.language, t: this.t, today: todayOf(), pending: this.pendingEntryIDs(),
      overlay: this.plan.drags && !readOnly ? (...args) => this.plan.drags.entryOverlay(...args) : null,
    });
  }

  pendingEntryIDs() {
    const ids = new Set();
    for (const proposal of this.plan.client.pending.of(this.plan.plan)) {
      const entry = proposal.op.original?.entry ?? proposal.op.entry;
      if (entry?.id) ids.add(entry.id);
    }
    return ids;
  }

  select(resourceID, assignmentID) {
    this.selectedResource = resourceID;
    this.selectedAssignment = assignmentID;
    this.plan.render();
  }

  toggle(id) {
    const collapsed = new Set(this.collapsed);
    if (collapsed.has(id)) collapsed.delete(id);
    else collapsed.add(id);
    this.collapsed = collapsed;
    this.plan.render();
  }

  target() {
    const assignment = this.data.assignments.get(this.selectedAssignment ?? '');
    const entry = assignment && this.data.entries.get(assignment.entryID);
    return entry ? { entry, assignment } : null;
  }

  openAction(action) {
    const { plan } = this;
    const copy = plan.client.copy;
    if (!copy || !ENTRY_ACTIONS.includes(action)) return;
    if (plan.historical) return plan.actions.mayEdit(); // says that a past version is read only
    const target = this.target();
    if (action !== 'addEntry' && !target) return plan.app.status(this.t.noEntrySelected, true);
    if (action === 'entryDetails') return this.details(target);
    if (!plan.actions.mayEdit()) return;
    const start = todayOf() * MINUTES_PER_DAY + 9 * 60;
    const form = openEntryForm(action, target, copy.resources, plan.language, start, this.selectedResource);
    plan.app.forms.open(form, this.t, (values) => {
      const result = entryOperation(form, values, plan.language, (kind) => plan.client.pending.nextID(kind));
      if (result.error) return result;
      return { id: plan.actions.propose(result.op, form.heading, (answer, handled) => plan.actions.formAnswered(answer, handled, result.op)) };
    });
  }

  /** The entry's details with its resources and length, and the keys of what can be done with it. */
  details(target) {
    const { plan } = this;
    const t = this.t;
    const assigned = [...this.data.assignments.values()].filter((a) => a.entryID === target.entry.id);
    const label = (id) => plan.client.copy.resources.find((resource) => resource.id === id)?.label ?? id;
    const start = parseLocal(target.entry.start);
    const end = parseLocal(target.entry.end);
    const actions = ENTRY_ACTIONS.slice(2);
    const note = [
      `${formatDateTime(plan.language, start)} – ${formatDateTime(plan.language, end)} (${t.lengthLabel}: ${formatDuration(plan.language, end - start)})`,
      `${t.resources}: ${assigned.map((a) => label(a.resourceID)).join(', ')}`,
      actions.map((a) => `${actionKey(a)}: ${actionTitle(plan.language, a)}`).join(' · '),
    ].join('\n');
    const form = { action: 'entryDetails', heading: target.entry.title, original: target, fields: [], note };
    plan.app.forms.open(form, t, () => ({ error: '' }), true, (key) => {
      const action = actions.find((candidate) => actionKey(candidate) === key);
      if (!action) return false;
      plan.app.forms.close();
      this.openAction(action);
      return true;
    });
  }

  nextEntry() {
    const items = this.view.entriesOf(this.selectedResource);
    if (items.length === 0) return;
    const index = items.findIndex((item) => item.assignment.id === this.selectedAssignment);
    this.select(this.selectedResource, items[(index + 1) % items.length].assignment.id);
  }

  /** The view's keys: ↑ ↓ resource, n next entry, Space collapse, R retry, Enter/i details, entry actions. */
  key(event) {
    const key = event.key;
    const resources = this.plan.client.copy?.resources ?? [];
    const index = resources.findIndex((resource) => resource.id === this.selectedResource);
    const move = { ArrowUp: -1, k: -1, ArrowDown: 1, j: 1 }[key];
    if (move !== undefined && resources.length) {
      this.select(resources[Math.min(Math.max(index + move, 0), resources.length - 1)].id, null);
      return true;
    }
    if (key === 'n') this.nextEntry();
    else if (key === ' ' && index >= 0) this.toggle(resources[index].id);
    else if (key === 'R') this.run(this.planner.retry());
    else if (key === 'Enter') this.openAction('entryDetails');
    else {
      const action = ENTRY_ACTIONS.find((candidate) => actionKey(candidate) === key);
      if (action) this.openAction(action);
      return !!action;
    }
    return true;
  }
}
