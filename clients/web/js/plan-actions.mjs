// What the user does with an open plan, each turned into a proposal and nothing drawn before it is
// confirmed: the task and entry forms, drags in the list and the charts, undo and redo, baselines,
// showing past versions, the scheduling settings; and the words for the answers (in the form, or in
// the status line), with a scheduleConflict's one-click answer and a stale proposal's conflict (what
// changed, by whom; Apply mine or Discard). The controls follow the session's role as it changes.

import { $ } from './dom.mjs';
import { availableActions, actionTitle, actionKey, rejectionReason, rejectionWords, notUndone, undoStatus, STALE_CODES } from './wording.mjs';
import { rowValues } from './marks.mjs';
import { PlanCopy } from './plan-copy.mjs';
import { today as todayOf, parseCivil } from './dates.mjs';
import { conflictFix } from './calendar.mjs';
import { formatDate } from './strings.mjs';
import { scaleOf } from './scales.mjs';

/** The task forms' module, loaded with the first form or drag. */
const taskForms = () => import('./task-forms.mjs');

export class PlanActions {
  constructor(view) {
    this.view = view;
    this.callbacks = new Map();
  }

  get app() { return this.view.app; }
  get client() { return this.view.client; }
  get t() { return this.view.t; }

  reason(answer) {
    return rejectionWords(this.view.language, answer, (id) => this.client.copy?.get(id)?.title);
  }

  /** "Saved." (with "3 tasks pushed." when the version pushed some), or "Nothing changed.". */
  savedText(answer) {
    if (answer.noop) return this.t.unchanged;
    const pushed = this.view.pushed;
    return pushed?.version === answer.version ? `${this.t.saved} ${this.t.pushedCount(pushed.count)}` : this.t.saved;
  }

  /** Task ids that a waiting proposal names (the rows show "(pending)"). */
  pendingTaskIDs() {
    const ids = new Set();
    for (const proposal of this.client.pending.of(this.view.plan)) {
      const op = proposal.op;
      const task = op.previous ?? op.task ?? op.proposed;
      if (task?.id) ids.add(task.id);
    }
    return ids;
  }

  renderHeading() {
    const { client, t } = this;
    const copy = client.copy;
    $('#version').textContent = copy ? t.versionLabel(copy.version) : '';
    const users = [...new Set(client.presence.sessions.map((session) => session.user))];
    $('#presence').textContent = client.presence.count ? `${t.here(client.presence.count)}: ${users.join(', ')}` : '';
    const waiting = client.pending.of(this.view.plan).length;
    $('#pending').textContent = waiting ? t.pendingCount(waiting) : '';
    const scale = scaleOf(this.view.zoom);
    $('#zoom-label').textContent = scale === 'days' ? t.zoomLabel(this.view.zoom) : t.scaleNames[scale];
    $('#add-task').textContent = this.view.view === 'resources' ? actionTitle(this.view.language, 'addEntry') : t.addTask;
    $('#role').textContent = client.role ? `${t.role}: ${t.roles[client.role] ?? client.role}` : '';
    const user = client.user;
    const readOnly = !!this.view.historical || !client.mayPropose;
    $('#undo').disabled = !user || client.history.undoTarget(user) === null || readOnly;
    $('#redo').disabled = !user || client.history.redoTarget(user) === null || readOnly;
    $('#add-task').disabled = readOnly;
    $('#settings').hidden = client.role !== 'owner';
    $('#settings').disabled = readOnly;
    const select = $('#baseline');
    const names = (copy?.baselines ?? []).map((baseline) => baseline.name);
    const current = this.view.baseline?.name ?? '';
    if (select.dataset.names !== JSON.stringify([names, this.view.language])) {
      select.dataset.names = JSON.stringify([names, this.view.language]);
      select.replaceChildren(new Option(t.baselineNone, ''), ...(copy?.baselines ?? []).map((b) => new Option(`${b.name} (v${b.version})`, b.name)));
    }
    select.value = names.includes(current) ? current : '';
  }

  /** Whether the user may propose (an editor or owner, not looking at a past version); says why not. */
  mayEdit() {
    if (!this.client.mayPropose) {
      this.app.status(this.t.rejected(this.reason({ code: 'forbidden' })), true);
      return false;
    }
    if (this.view.historical) this.app.status(this.t.pastVersionReadOnly(this.view.historical.version), true);
    return !this.view.historical;
  }

  /** Sends a proposal; `done(answer)` runs on its decision. Refused while a past version is shown. */
  propose(op, label, done) {
    if (!this.mayEdit()) return null;
    const base = this.client.copy?.version ?? 0;
    const id = this.client.propose(op, label);
    this.callbacks.set(id, { done, op, base });
    this.view.render();
    return id;
  }

  answered(answer) {
    const call = this.callbacks.get(answer.id);
    this.callbacks.delete(answer.id);
    const form = this.app.forms.form;
    const handled = this.app.forms.answered(answer.id, answer, this.t.rejected(this.reason(answer)));
    if (call) call.done(answer, handled);
    else if (!handled) this.statusFor(answer);
    if (call && STALE_CODES.has(answer.code)) this.explainStale(answer, call, handled ? form : null);
    this.view.render();
  }

  /**
   * A stale rejection in one step: what changed since, by whom and in which version; the form (kept
   * open with the draft) offers Apply mine (the draft on the current value) or Discard. Without a
   * form it is said in the status line.
   */
  async explainStale(answer, { op, base }, form) {
    const { staleConflict, rebase } = await import('./conflict.mjs');
    const { client, t, app: { forms } } = this;
    const timeline = () => this.view.resources?.data;
    // Since the version the form was opened at (or last rebased to), else the one proposed at.
    const since = form?.seenAt ?? base;
    const conflict = client.copy && staleConflict(this.view.language, op, since, client.copy, client.history, timeline());
    if (!conflict) return;
    const text = `${t.rejected(this.reason(answer))} ${conflict.text}`.trim();
    if (!form || forms.form !== form || forms.saving) return this.app.status(text, true);
    forms.setError(text);
    forms.offer(conflict.applicable ? t.applyMine : null, () => (rebase(form, client.copy, timeline())
      ? forms.onSave(forms.values()) : { error: t.rejected(this.reason(answer)) }), true);
  }

  /** The role changed: the controls follow (render); a form it no longer allows closes; what was dropped is listed. */
  roleChanged({ role, previous, dropped }) {
    const { t, app: { forms } } = this;
    const form = forms.isOpen && !forms.readOnly ? forms.form : null;
    const closes = form && (role === 'viewer' || (form.action === 'settings' && role !== 'owner'));
    // A proposal already sent is decided by the server: its answer comes to the status line.
    const draftLost = closes && (!forms.saving || dropped.some((proposal) => proposal.id === forms.saving));
    if (closes) forms.close();
    if (previous === null && dropped.length === 0) return;
    const said = previous === null ? '' : draftLost ? t.draftNotSent(t.nowRole(role)) : `${t.nowRole(role)}.`;
    this.sayDropped(said, dropped, this.client.copy, !!draftLost || dropped.length > 0);
  }

  /** The plan is gone (the role ended, or it cannot be seen): an open form says so, the page lists the plans. */
  lost(detail) {
    const { t, app: { forms } } = this;
    const roleEnded = detail.code === 'forbidden' || detail.code === 'unknownPlan';
    // A plan held before and refused now (a resubscription): the role ended while the page was away.
    const text = detail.code === 'forbidden' || (roleEnded && detail.copy) ? t.roleEnded(this.view.plan)
      : t.serverError(detail.message ?? detail.code);
    if (forms.isOpen && !forms.readOnly) {
      const sent = forms.saving && !detail.dropped.some((proposal) => proposal.id === forms.saving);
      forms.ended(!roleEnded ? text : sent ? t.roleEndedSent : t.roleEndedDraft);
    }
    this.app.planLost(text);
    this.sayDropped(text, detail.dropped, detail.copy);
  }

  /** Says `text` in the status line, and the proposals dropped unsent in words ("2 changes were not sent: …"). */
  async sayDropped(text, dropped, copy, error = true) {
    this.app.status(text, error);
    if (dropped.length === 0) return;
    const language = this.view.language;
    let list = dropped.map((proposal) => proposal.label || proposal.op.type);
    try {
      const { describeOp } = await import('./history-wording.mjs');
      list = dropped.map((proposal) => describeOp(language, proposal.op, (id) => copy?.get(id)?.title));
    } catch {
      // The module could not be fetched (offline before it was): the proposals' labels.
    }
    this.app.status(`${text} ${this.t.notSent(dropped.length, list.join('; '))}`.trim(), true);
  }

  statusFor(answer) {
    if (answer.type === 'ack') this.app.status(this.savedText(answer));
    else this.app.status(this.t.rejected(this.reason(answer)), true);
  }

  serverError(message) {
    if (message.code === 'badQuery' || message.code === 'tooLarge') this.view.resources?.refused(message.message ?? message.code);
    if (message.ref === 'alive') return;
    this.app.status(this.t.serverError(message.message ?? message.code), true);
  }

  // Forms.

  async openAction(action) {
    const { openTaskForm, taskOperation } = await taskForms();
    const copy = this.client.copy;
    if (!copy || !this.mayEdit()) return;
    const task = this.view.selectedID ? copy.get(this.view.selectedID) : null;
    if (action !== 'addTask' && !task) return this.app.status(this.t.noSelection, true);
    if (!availableActions(task).includes(action)) return this.app.status(this.t.actionUnavailable, true);
    const form = openTaskForm(action, task, copy, this.view.language, todayOf());
    const picks = form.fields.filter((field) => field.type === 'combobox');
    if (picks.length > 0) {
      const { comboboxNode } = await import('./combobox.mjs');
      for (const field of picks) field.render = (id) => comboboxNode(id, field, this.view.language);
    }
    this.app.forms.open(form, this.t, (values) => {
      const result = taskOperation(form, values, this.client.copy, this.view.language, this.client.pending.nextID('t'));
      if (result.error) return result;
      return { id: this.propose(result.op, form.heading, (answer, handled) => this.formAnswered(answer, handled, result.op)) };
    });
  }

  formAnswered(answer, handled, op) {
    if (answer.type === 'ack' && op.type === 'add') this.view.selectedID = op.task.id;
    if (!handled) this.statusFor(answer);
    else if (answer.type === 'ack') this.app.status(this.savedText(answer));
    else if (answer.code === 'scheduleConflict') this.offerEarliest(answer, op);
  }

  /** A conflict's answer in one click: the form offers "Move to <earliest>", the same change placed there. */
  offerEarliest(answer, op) {
    const fix = this.client.copy ? conflictFix(op, answer.conflict, this.client.copy) : null;
    if (!fix) return;
    const date = formatDate(this.view.language, parseCivil(answer.conflict.earliest));
    this.app.forms.offer(this.t.moveTo(date), () => {
      // Judged against the task as held now (moved by a push meanwhile, say).
      const again = conflictFix(op, answer.conflict, this.client.copy) ?? fix;
      return { id: this.propose(again, 'conflict', (next, handled) => this.formAnswered(next, handled, again)) };
    });
  }

  /** S: the scheduling settings form, for owners. */
  async openSettings() {
    if (!this.client.copy || !this.mayEdit()) return;
    if (this.client.role !== 'owner') return this.app.status(this.t.ownersOnly, true);
    const { openSettingsForm, settingsOperation } = await import('./settings-form.mjs');
    const form = openSettingsForm(this.client.copy.settings, this.view.language);
    this.app.forms.open(form, this.t, (values) => {
      const result = settingsOperation(form, values, this.view.language);
      if (result.error) return result;
      return { id: this.propose(result.op, form.heading, (answer, handled) => this.formAnswered(answer, handled, result.op)) };
    });
  }

  /** The actions menu (Enter, or a double click): the selected task's actions with their keys. */
  openMenu(id) {
    if (id) this.view.selectedID = id;
    const task = this.client.copy?.get(this.view.selectedID);
    const actions = availableActions(task);
    const menu = $('#menu');
    const anchor = document.querySelector('#tasks .row[aria-selected="true"]') ?? $('#tasks');
    const box = anchor.getBoundingClientRect();
    menu.replaceChildren(...actions.map((action) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'menuitem');
      button.textContent = `${actionKey(action)}  ${actionTitle(this.view.language, action)}`;
      button.addEventListener('click', () => {
        this.closeMenu();
        this.openAction(action);
      });
      return button;
    }));
    Object.assign(menu.style, { left: `${Math.min(box.left + 40, innerWidth - 260)}px`, top: `${Math.min(box.bottom, innerHeight - 40 * actions.length)}px` });
    menu.hidden = false;
    menu.querySelector('button')?.focus();
  }

  closeMenu() {
    $('#menu').hidden = true;
    $(`#${this.view.view}`).focus({ preventScroll: true });
  }

  async reorderDrag(id, targetID, position) {
    const { reorderOperation } = await taskForms();
    const copy = this.client.copy;
    this.dragged(reorderOperation(copy.get(id), copy.get(targetID), position), 'reorder', 'invalidHierarchy');
  }

  /** A drag's op, answered in the status line; none: the drag is refused with `code`'s reason. */
  dragged(op, label, code = null) {
    if (!op) return code && this.app.status(this.t.rejected(rejectionReason(this.view.language, code)), true);
    if (!this.mayEdit()) return;
    this.app.status(this.t.saving);
    this.propose(op, label, (answer) => this.statusFor(answer));
  }

  /** Alt+↑/↓: the selected task before its previous or after its next sibling. */
  reorderKey(direction) {
    const copy = this.client.copy;
    const task = copy?.get(this.view.selectedID);
    if (!task) return;
    const siblings = copy.tasks.filter((other) => (other.parentID ?? null) === (task.parentID ?? null));
    const target = siblings[siblings.indexOf(task) + direction];
    if (target) this.reorderDrag(task.id, target.id, direction < 0 ? 'before' : 'after');
  }

  async linkDrag(fromID, toID) {
    const { linkOperation } = await taskForms();
    const copy = this.client.copy;
    this.dragged(linkOperation(copy.get(fromID), copy.get(toID)), 'link', 'invalidDependency');
  }

  // Undo, redo, history, baselines.

  undoKey(redo) {
    const user = this.client.user;
    const target = redo ? this.client.history.redoTarget(user) : this.client.history.undoTarget(user);
    if (target === null) return this.app.status(redo ? this.t.nothingToRedo : this.t.nothingToUndo);
    this.undo(target);
  }

  undo(version) {
    const history = this.client.history;
    this.app.status(undoStatus(this.view.language, version, history));
    this.propose({ type: 'undo', version }, 'undo', (answer) => {
      if (answer.type === 'ack') this.app.status(undoStatus(this.view.language, version, history, answer.version));
      else this.app.status(notUndone(this.view.language, version, answer, this.client.history, (id) => this.client.copy?.get(id)?.title), true);
    });
  }

  moreHistory() {
    this.client.readHistory(Math.min(...this.client.history.versions()));
  }

  /** Fetches a past version; `then(snapshot)` (an error is said in the status line). */
  fetchVersion(version, then) {
    this.client.request({ type: 'fetch', plan: this.view.plan, version }, (message) => {
      if (message.type === 'snapshot') then(message);
      else this.app.status(this.t.serverError(message.message ?? message.code), true);
    });
  }

  showVersion(version) {
    this.fetchVersion(version, (snapshot) => this.view.setHistorical(snapshot));
  }

  /** The baseline shadow: fetches the version a baseline names (null: none). */
  chooseBaseline(name) {
    const baseline = this.client.copy?.baselines.find((candidate) => candidate.name === name);
    if (!baseline) {
      this.view.baseline = null;
      return this.view.render();
    }
    this.fetchVersion(baseline.version, (snapshot) => {
      const copy = new PlanCopy(snapshot);
      const values = new Map(copy.tasks.map((task) => [task.id, rowValues(task, copy.summaries)]));
      this.view.baseline = { name, values };
      this.view.render();
    });
  }

  /** B: the next baseline's shadow (then none). */
  cycleBaseline() {
    const names = (this.client.copy?.baselines ?? []).map((baseline) => baseline.name);
    const index = names.indexOf(this.view.baseline?.name ?? null);
    this.chooseBaseline(names[index + 1] ?? '');
  }

  openBaselineForm() {
    const copy = this.client.copy;
    if (!copy || !this.mayEdit()) return;
    const t = this.t;
    const form = {
      action: 'baseline', heading: actionTitle(this.view.language, 'baseline'), original: null, note: null,
      fields: [
        { name: 'mode', type: 'select', label: t.baselineMode, value: 'set', options: [{ id: 'set', label: t.setBaseline }, { id: 'remove', label: t.removeBaseline }] },
        { name: 'name', type: 'text', label: t.name, value: this.view.baseline?.name ?? '' },
        { name: 'version', type: 'text', label: t.version, value: String(copy.version) },
      ],
    };
    this.app.forms.open(form, t, (values) => {
      const name = values.name.trim();
      if (!name) return { error: t.nameEmpty };
      const version = Number(values.version);
      const op = values.mode === 'remove' ? { type: 'baseline.remove', name }
        : values.version.trim() === '' ? { type: 'baseline.set', name } : { type: 'baseline.set', name, version };
      if (op.type === 'baseline.set' && op.version !== undefined && !(Number.isInteger(version) && version >= 0)) return { error: t.chooseOne };
      return { id: this.propose(op, form.heading, (answer, handled) => this.formAnswered(answer, handled, op)) };
    });
  }
}
