// The drags of bars, milestones and bookings, confirmed-only: a press on a bar (a finger first rests
// on it: LONG_PRESS_MS) is followed to a ghost with its dates (bar-drag.mjs snaps them), Escape
// cancels, and a drop sends one proposal naming the value as held. The bar stays where the server
// last confirmed it; the ghost waits beside it until the answer: an ack takes it away (the
// confirmed version has moved the bar), a rejection too, and its reason is written beside the bar
// (a scheduleConflict's with "Move to <date>", the same change placed on the earliest date).
// Shift+←/→ move the selected bar or booking by a day (with Alt its end), one proposal when Shift
// is released. Loaded after the first render; drawn by the views through their `overlay`.

import { beginDrag, dragTo, stepDrag, dropOperation, barDates, beginEntryDrag, entryDragTo, entryStep, LONG_PRESS_MS, CLICK_PX } from './bar-drag.mjs';
import { dragOperation, resizeOperation } from './entry-forms.mjs';
import { snapMinutes } from './resources-view.mjs';
import { conflictFix } from './calendar.mjs';
import { drawTaskOverlay, drawEntryOverlay } from './drag-overlay.mjs';

/** What differs between a bar (by task id) and a booking (by assignment id). */
const KINDS = {
  task: {
    to: (drag, event) => dragTo(drag, event.clientX, event.clientY),
    step: stepDrag,
    op: dropOperation,
    view: (plan) => plan.tasksView,
  },
  entry: {
    to: (drag, event, plan) => entryDragTo(drag, event.clientX, event.clientY, plan.resources?.view.rowAt(event.clientY)?.resource.id ?? null),
    step: entryStep,
    op: (drag) => (!drag.moved ? null : drag.part === 'move' ? dragOperation(drag.target, drag.minutes, drag.resourceID)
      : resizeOperation(drag.target, drag.part, drag.minutes)),
    view: (plan) => plan.resources?.view,
  },
};

export class BarDrags {
  constructor(plan) {
    this.plan = plan;
    /** The drag under way: { kind, key, drag (bar-drag.mjs), keys (by keyboard), stop() }, or null. */
    this.active = null;
    /** Drops waiting for their answer, by key: { id (the proposal's), kind, ghost }. */
    this.waiting = new Map();
    /** The latest rejection, beside its bar: { kind, key, value (as it was held), text, op, conflict }, or null. */
    this.note = null;
  }

  get t() { return this.plan.t; }

  /** A press on task `id`'s bar; true when it is a drag's (a summary, or an unscheduled task, has none). */
  pressTask(id, part, event) {
    const { plan } = this;
    const task = plan.client.copy?.get(id);
    const state = plan.tasksView.state;
    const drag = task && beginDrag(task, part, event.clientX, event.clientY, state.columnWidth / state.axis.zoom, plan.calendar());
    if (!drag) return false;
    this.press(plan.tasksView.chart, event, { kind: 'task', key: id, drag, title: task.title });
    return true;
  }

  /** A press on a booking (`target` { entry, assignment }). */
  pressEntry(target, part, event) {
    const state = this.plan.resources.view.state;
    const drag = beginEntryDrag(target, part, event.clientX, event.clientY, state.columnWidth / state.axis.zoom / 1440, snapMinutes(state.axis.zoom));
    if (drag) this.press(this.plan.resources.view.chart, event, { kind: 'entry', key: target.assignment.id, drag, title: target.entry.title });
    return true;
  }

  /** Whether `key` still waits for the answer to its last drop (then says so: a new drag would be judged stale). */
  busy({ kind, key, title }) {
    const waiting = this.waiting.has(key) || (kind === 'task' && this.plan.actions.pendingTaskIDs().has(key));
    if (waiting) this.plan.app.status(this.t.dragWaiting(title), true);
    return waiting;
  }

  press(element, event, active) {
    if (event.pointerType !== 'touch') event.preventDefault();
    if (this.active || this.busy(active)) return;
    const go = () => {
      this.note = null;
      this.active = { ...active, lifted: event.pointerType === 'touch' };
      this.active.stop = track(element, event, {
        move: (moved) => {
          this.active.drag = KINDS[active.kind].to(this.active.drag, moved, this.plan);
          this.redraw(active.kind);
        },
        up: (up) => this.drop(up?.type === 'pointerup'),
      });
      this.redraw(active.kind);
    };
    if (event.pointerType === 'touch') longPress(element, event, go);
    else go();
  }

  /** The drag ends: dropped (`propose`), or cancelled (Escape, a lost pointer): its ghost goes. */
  drop(propose) {
    const active = this.active;
    this.active = null;
    if (!active) return;
    const op = propose ? KINDS[active.kind].op(active.drag) : null;
    if (op) this.propose(active, op, active.drag.ghost);
    this.redraw(active.kind);
  }

  /** Escape: the drag under way (by keys; a pointer's has its own) is cancelled. True when there was one. */
  cancel() {
    if (!this.active) return false;
    this.active.stop();
    return true;
  }

  propose({ kind, key }, op, ghost) {
    const { actions, app } = this.plan;
    app.status(this.t.saving);
    const id = actions.propose(op, 'drag', (answer) => this.answered(kind, key, op, answer));
    if (id) this.waiting.set(key, { id, kind, ghost });
  }

  answered(kind, key, op, answer) {
    if (this.waiting.get(key)?.id === answer.id) this.waiting.delete(key);
    const { actions, app, client } = this.plan;
    if (answer.type === 'ack') return app.status(actions.savedText(answer));
    const text = actions.reason(answer);
    const value = kind === 'task' ? client.copy?.get(key) : this.entryOf(key);
    this.note = { kind, key, value, text, op, conflict: answer.conflict ?? null };
    app.status(this.t.rejected(text), true);
  }

  /** The note's "Move to <date>": the rejected change again, placed on the earliest date, judged against the task as held now. */
  fix(id) {
    const note = this.note;
    const copy = this.plan.client.copy;
    const op = note?.key === id && note.conflict && copy ? conflictFix(note.op, note.conflict, copy) : null;
    if (!op || !this.plan.actions.mayEdit()) return;
    this.note = null;
    this.propose({ kind: 'task', key: id }, op, barDates(op.proposed));
    this.redraw('task');
  }

  /** Shift+←/→ (with Alt: the end): the selected bar or booking's ghost a day further; released Shift proposes it. */
  key(event) {
    const step = event.key === 'ArrowRight' ? 1 : -1;
    if (this.active) {
      if (this.active.keys) this.active.drag = KINDS[this.active.kind].step(this.active.drag, step);
      return this.redraw(this.active.kind);
    }
    const { plan } = this;
    if (!plan.actions.mayEdit()) return;
    const active = plan.view === 'resources' ? this.selectedEntry(event.altKey ? 'end' : 'move') : this.selectedTask(event.altKey ? 'end' : 'move');
    if (!active || this.busy(active)) return;
    this.note = null;
    this.active = { ...active, keys: true, drag: KINDS[active.kind].step(active.drag, step) };
    const release = (up) => {
      if (up.type === 'keyup' && up.key !== 'Shift' && up.key !== 'Alt') return;
      removeEventListener('keyup', release, true);
      removeEventListener('blur', release);
      this.drop(up.type === 'keyup');
    };
    this.active.stop = () => release({ type: 'cancel' });
    addEventListener('keyup', release, true);
    addEventListener('blur', release);
    this.redraw(active.kind);
  }

  selectedTask(part) {
    const { plan } = this;
    const task = plan.client.copy?.get(plan.selectedID ?? '');
    const drag = task && beginDrag(task, part, 0, 0, 1, plan.calendar());
    if (!drag) plan.app.status(task ? this.t.actionUnavailable : this.t.noSelection, true);
    return drag && { kind: 'task', key: task.id, drag, title: task.title };
  }

  selectedEntry(part) {
    const resources = this.plan.resources;
    const target = resources?.target();
    if (!target) return this.plan.app.status(this.t.noEntrySelected, true);
    const drag = beginEntryDrag(target, part, 0, 0, 1, snapMinutes(this.plan.zoom));
    return drag && { kind: 'entry', key: target.assignment.id, drag, title: target.entry.title };
  }

  entryOf(assignmentID) {
    const data = this.plan.resources?.data;
    const assignment = data?.assignments.get(assignmentID);
    return assignment ? { entry: data.entries.get(assignment.entryID), assignment } : null;
  }

  redraw(kind) {
    KINDS[kind].view(this.plan)?.schedule();
  }

  /** The ghosts of `kind` to draw: the drag's (once it moved, or a finger lifted it) and the drops waiting. */
  ghosts(kind) {
    const pending = new Set(this.plan.client.pending.of(this.plan.plan).map((proposal) => proposal.id));
    const ghosts = [];
    for (const [key, waiting] of this.waiting) {
      // A proposal dropped unsent (the role ended) is answered by no one.
      if (!pending.has(waiting.id)) this.waiting.delete(key);
      else if (waiting.kind === kind) ghosts.push({ key, ghost: waiting.ghost, waiting: true });
    }
    const active = this.active;
    if (active?.kind === kind && (active.drag.moved || active.lifted)) ghosts.push({ key: active.key, ghost: active.drag.ghost, waiting: false });
    return ghosts;
  }

  /** The note of `kind` while the value it was about is unchanged (someone's change since ends it). */
  noteOf(kind, current) {
    const note = this.note;
    if (note?.kind !== kind) return null;
    if (JSON.stringify(current(note.key)) !== JSON.stringify(note.value)) return null;
    return note;
  }

  taskOverlay(view, first, end, scrollTop, scrollLeft) {
    const note = this.noteOf('task', (id) => this.plan.client.copy?.get(id));
    return drawTaskOverlay(view.state, { ghosts: this.ghosts('task'), note, first, end, scrollTop, scrollLeft, width: view.chartWidth });
  }

  entryOverlay(view, visible, scrollTop, scrollLeft) {
    const note = this.noteOf('entry', (id) => this.entryOf(id));
    return drawEntryOverlay(view.state, { ghosts: this.ghosts('entry'), note, visible, scrollTop, scrollLeft, width: view.chartWidth });
  }
}

/**
 * Follows a pointer pressed on `element` (captured): `move(event)`, then `up(event)` once — the
 * release, a pointercancel, or null for Escape. A finger's moves drag, they do not scroll the page.
 * Returns a function that ends it as cancelled.
 */
function track(element, pressed, { move, up }) {
  const id = pressed.pointerId;
  try {
    element.setPointerCapture(id);
  } catch {
    // The pointer was released meanwhile: its pointerup is not seen, so it ends at the next event.
  }
  let ended = false;
  const onMove = (event) => event.pointerId === id && move(event);
  const onUp = (event) => event.pointerId === id && stop(event);
  const onKey = (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    stop(null);
  };
  const still = (event) => event.cancelable && event.preventDefault();
  const listeners = [[element, 'pointermove', onMove], [element, 'pointerup', onUp], [element, 'pointercancel', onUp],
    [window, 'keydown', onKey, true], [element, 'touchmove', still, { passive: false }], [element, 'contextmenu', still]];
  const stop = (event) => {
    if (ended) return;
    ended = true;
    for (const [target, type, listener, options] of listeners) target.removeEventListener(type, listener, options);
    if (element.hasPointerCapture?.(id)) element.releasePointerCapture(id);
    up(event);
  };
  for (const [target, type, listener, options] of listeners) target.addEventListener(type, listener, options);
  return () => stop(null);
}

/** A finger resting LONG_PRESS_MS on `element` without moving calls `then()`; moving first (a scroll) or lifting does not. */
function longPress(element, pressed, then) {
  const id = pressed.pointerId;
  const check = (event) => {
    if (event.pointerId !== id) return;
    if (event.type === 'pointermove' && Math.hypot(event.clientX - pressed.clientX, event.clientY - pressed.clientY) < CLICK_PX) return;
    done();
  };
  const menu = (event) => event.preventDefault();
  const timer = setTimeout(() => {
    done();
    then();
  }, LONG_PRESS_MS);
  const types = ['pointermove', 'pointerup', 'pointercancel'];
  const done = () => {
    clearTimeout(timer);
    for (const type of types) element.removeEventListener(type, check);
    element.removeEventListener('contextmenu', menu);
  };
  for (const type of types) element.addEventListener(type, check);
  element.addEventListener('contextmenu', menu);
}
