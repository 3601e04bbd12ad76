// One open plan over a Session: the confirmed copy (subscribe, resume with `since` after every
// reconnect, resubscribe on a gap), the session's role (snapshot, resumed, `role` events), the
// proposals this tab waits on (sent, or re-sent with their ids after a reconnect or reload, once the
// role is known, at half the server's proposal rate; those never sent are dropped when the role
// becomes viewer, and all when it ends, so that none is sent later), presence, the history, and the
// answers routed to whoever proposed. Shows nothing itself: views subscribe with `listen` and read its state.
// DOM-free, so node tests drive it with a fake session.

import { PlanCopy, CopyError } from './plan-copy.mjs';
import { PendingProposals, RETRY_CODES } from './pending.mjs';
import { ClientHistory } from './history.mjs';

export class PlanClient {
  /** session: send(message) and connected; pending: PendingProposals; timers: { setTimeout }. */
  constructor({ session, pending, plan, timers }) {
    this.session = session;
    this.pending = pending;
    this.plan = plan;
    this.timers = timers;
    this.copy = null;
    this.user = null;
    this.role = null;
    this.limits = {};
    this.presence = { count: 0, sessions: [] };
    this.history = new ClientHistory();
    this.resyncing = false;
    this.problem = null;
    this.listeners = new Set();
    this.answerHandlers = new Map();
    this.requestHandlers = new Map();
    this.refs = 0;
    this.resendQueue = [];
    this.resending = false;
    /** Whether the role is known on this connection (proposals wait for it). */
    this.roleKnown = false;
    /** The newest schedule figures held: { version, tasks (id → figures), asked (ids) }, or null. */
    this.figures = null;
    this.figuresOut = false;
  }

  /**
   * Calls `listener(event, detail)` on every change: 'copy', 'presence', 'answer', 'history', 'error', 'message',
   * 'figures', 'pending', 'role' ({ role, previous, dropped }), 'lost' (the error, with `dropped`).
   */
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event, detail) {
    for (const listener of this.listeners) listener(event, detail);
  }

  /** The session is (again) authenticated: resubscribe and resume; what is pending waits for the role. */
  welcomed(welcome) {
    this.user = welcome.user;
    this.limits = welcome.limits ?? {};
    this.resyncing = true;
    this.roleKnown = false;
    this.resendQueue = [];
    this.subscribe(this.copy ? this.copy.version : null);
    this.historyRef = null;
    this.figuresOut = false; // an answer lost with the connection
    this.readHistory();
    this.emit('welcome', welcome);
  }

  /** Whether the role lets this session propose. */
  get mayPropose() {
    return this.role === 'editor' || this.role === 'owner';
  }

  /**
   * The role the server names (snapshot, resumed, a `role` event). A viewer's proposals never sent
   * are dropped (one sent before is decided by the server, which applies nothing a viewer proposes);
   * the first role after a (re)connect sends the others.
   */
  setRole(role) {
    const previous = this.role;
    this.role = role;
    const dropped = role === 'viewer' ? this.dropQueued() : [];
    if (role !== previous || dropped.length > 0) this.emit('role', { role, previous, dropped });
    if (this.roleKnown) return;
    this.roleKnown = true;
    this.resendQueue = this.pending.of(this.plan).map((proposal) => proposal.id);
    this.resendSome();
  }

  /** Forgets the waiting proposals never sent (`all`: every one); returns those never sent. */
  dropQueued(all = false) {
    const dropped = this.pending.drop(this.plan, (proposal) => !all && proposal.sent);
    for (const proposal of dropped) this.answerHandlers.delete(proposal.id);
    if (dropped.length > 0) this.emit('pending', this.pending.of(this.plan));
    return dropped.filter((proposal) => !proposal.sent);
  }

  /** The role on the plan ended (or the plan cannot be seen): nothing of it is sent any more. */
  ended(message) {
    const copy = this.copy;
    this.problem = message.message ?? message.code;
    this.copy = null;
    this.role = null;
    this.emit('lost', { ...message, dropped: this.dropQueued(true), copy });
  }

  subscribe(since) {
    const message = { type: 'subscribe', plan: this.plan };
    if (since !== null && since !== undefined) message.since = since;
    this.resyncing = true;
    this.request(message, (answer) => {
      if (answer.type !== 'error') return;
      if (answer.code === 'unknownPlan' || answer.code === 'forbidden') return this.ended(answer);
      this.problem = answer.message ?? answer.code;
      this.emit('lost', { ...answer, dropped: [] });
    });
  }

  /** Re-sends waiting proposals, at most half of maxProposalsPerSecond per second. */
  resendSome() {
    if (this.resending) return;
    const perSecond = Math.max(Math.floor((this.limits.maxProposalsPerSecond ?? 200) / 2), 1);
    const batch = this.resendQueue.splice(0, perSecond);
    for (const id of batch) {
      const proposal = this.pending.proposals.find((candidate) => candidate.id === id);
      if (proposal && this.session.send(PendingProposals.message(proposal))) this.pending.markSent(id);
    }
    if (batch.length > 0) this.emit('pending', this.pending.of(this.plan));
    if (this.resendQueue.length > 0) {
      this.resending = true;
      this.timers.setTimeout(() => {
        this.resending = false;
        if (this.session.connected) this.resendSome();
      }, 1000);
    }
  }

  /** Asks for a page of the history (the newest, or the one `before` a version); one at a time. */
  readHistory(before = null, limit = 100) {
    if (this.historyRef) return false;
    const message = { type: 'history', plan: this.plan, limit };
    if (before !== null) message.before = before;
    this.historyRef = this.request(message);
    return true;
  }

  /** The ops of the versions heard only as `confirmed` (while the history is shown). */
  readMissingDetails() {
    const missing = this.history.versionsWithoutDetails();
    const before = (this.copy?.version ?? 0) + 1;
    if (missing.length === 0 || before === this.missingAsked) return;
    if (this.readHistory(before, Math.min(before - missing[0], 500))) this.missingAsked = before;
  }

  /**
   * Asks the server for the schedule figures (scheduling.md §6) of `ids` (the rows on screen) unless
   * they are held for the copy's version; at most one request is out, and when versions or rows
   * came meanwhile, the answer is followed by one more for the newest. Emits 'figures'.
   */
  wantFigures(ids) {
    this.figuresWanted = ids;
    const held = this.figures;
    const version = this.copy?.version;
    if (this.figuresOut || version === undefined || this.figuresFailed === version) return;
    if (held && held.version >= version && ids.every((id) => held.asked.has(id))) return;
    this.figuresOut = true;
    this.request({ type: 'schedule', plan: this.plan, ids }, (answer) => {
      this.figuresOut = false;
      if (answer.type !== 'schedule') {
        this.figuresFailed = version; // asked again with the next version, not in a loop
        return;
      }
      const same = held?.version === answer.version;
      this.figures = { version: answer.version, tasks: same ? { ...held.tasks, ...answer.tasks } : answer.tasks,
        asked: new Set([...(same ? held.asked : []), ...ids]) };
      this.emit('figures', this.figures);
      this.wantFigures(this.figuresWanted);
    });
  }

  /** Sends a request with a fresh `ref`; `handler(message)` gets its direct answer or its error. */
  request(message, handler = null) {
    this.refs += 1;
    const ref = `r${this.refs}`;
    if (handler) this.requestHandlers.set(ref, handler);
    this.session.send({ ...message, ref });
    return ref;
  }

  /**
   * Proposes `op` (judged against the copy's version); `onAnswer({ type: 'ack'|'rejected', … })` is
   * called once it is decided. Returns the proposal id. Kept in `pending` until then.
   */
  propose(op, label = '', onAnswer = null) {
    const id = this.pending.nextID('p');
    const proposal = this.pending.add({ id, plan: this.plan, baseVersion: this.copy?.version ?? 0, op, label });
    if (onAnswer) this.answerHandlers.set(id, onAnswer);
    // Sent once the role is known on this connection; until then it waits like one made offline.
    if (this.roleKnown && this.session.send(PendingProposals.message(proposal))) this.pending.markSent(id);
    this.emit('pending', this.pending.of(this.plan));
    return id;
  }

  /** Routes one server message. */
  receive(message) {
    const handler = message.ref ? this.requestHandlers.get(message.ref) : undefined;
    if (handler) this.requestHandlers.delete(message.ref);
    if (message.ref && message.ref === this.historyRef) this.historyRef = null;
    switch (message.type) {
      case 'snapshot':
        if (message.historical || message.plan !== this.plan) break;
        this.copy = new PlanCopy(message);
        this.resyncing = false;
        this.problem = null;
        this.setRole(message.role ?? this.role);
        this.emit('copy', { snapshot: true });
        break;
      case 'confirmed': this.confirmed(message); break;
      case 'resumed':
        if (message.plan !== this.plan) break;
        if (this.copy && message.version === this.copy.version) this.resyncing = false;
        else this.subscribe(null);
        this.setRole(message.role ?? this.role);
        break;
      case 'role':
        if (message.plan === this.plan) this.setRole(message.role);
        break;
      case 'ack':
      case 'rejected': this.answered(message); break;
      case 'presence':
        if (message.plan === this.plan) {
          this.presence = { count: message.count, sessions: message.sessions ?? [] };
          this.emit('presence', this.presence);
        }
        break;
      case 'history':
        if (message.plan === this.plan) {
          this.history.receivePage(message);
          this.emit('history', message);
        }
        break;
      case 'error':
        if (message.code === 'forbidden' && message.plan === this.plan && !message.ref) this.ended(message);
        this.emit('error', message);
        break;
      default:
        this.emit('message', message);
    }
    if (handler) handler(message);
  }

  confirmed(message) {
    if (message.plan !== this.plan || !this.copy) return;
    try {
      this.copy.apply(message.version, message.changes ?? {});
    } catch (error) {
      // A duplicate is ignored, and so is anything while a resubscription is being answered.
      if (!(error instanceof CopyError) || error.kind === 'duplicate' || this.resyncing) return;
      // A gap: resume from what is held; data that does not fit: start over from a snapshot.
      this.subscribe(error.kind === 'gap' ? this.copy.version : null);
      return;
    }
    this.history.receiveConfirmed(message);
    this.emit('copy', { confirmed: message });
  }

  answered(message) {
    if (!this.pending.has(message.id)) return;
    if (message.type === 'rejected' && RETRY_CODES.has(message.code)) {
      // No decision: the same proposal again after a pause.
      this.timers.setTimeout(() => {
        const proposal = this.pending.proposals.find((candidate) => candidate.id === message.id);
        if (proposal) this.session.send(PendingProposals.message(proposal));
      }, 1000);
      this.emit('retrying', message);
      return;
    }
    this.pending.settle(message.id);
    const handler = this.answerHandlers.get(message.id);
    this.answerHandlers.delete(message.id);
    this.emit('answer', message);
    this.emit('pending', this.pending.of(this.plan));
    if (handler) handler(message);
  }
}
