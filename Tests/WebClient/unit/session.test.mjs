// The session and the plan client over a fake WebSocket and fake timers: hello, frames as arrays,
// reconnecting with backoff, resuming with `since`, pending proposals re-sent once with their ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../../clients/web/js/session.mjs';
import { PlanClient } from '../../../clients/web/js/plan-client.mjs';
import { PendingProposals } from '../../../clients/web/js/pending.mjs';

class FakeTimers {
  constructor() { this.now = 0; this.queue = []; this.next = 1; }
  setTimeout = (fn, ms) => { const id = this.next++; this.queue.push({ id, at: this.now + ms, fn }); return id; };
  clearTimeout = (id) => { this.queue = this.queue.filter((timer) => timer.id !== id); };
  advance(ms) {
    const until = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const timer = this.queue[0];
      if (!timer || timer.at > until) break;
      this.queue.shift();
      this.now = timer.at;
      timer.fn();
    }
    this.now = until;
  }
}

function fakeSockets() {
  const sockets = [];
  class FakeSocket {
    constructor(url, protocol) { this.url = url; this.protocol = protocol; this.sent = []; this.closedWith = null; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close(code) { this.closedWith = code; }
    open() { this.onopen?.(); }
    deliver(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
    drop(code = 1006, reason = '') { this.onclose?.({ code, reason }); }
  }
  return { sockets, FakeSocket };
}

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.get(key) ?? null; }
  setItem(key, value) { this.items.set(key, value); }
}

function harness(storage = new MemoryStorage()) {
  const timers = new FakeTimers();
  const { sockets, FakeSocket } = fakeSockets();
  const states = [];
  const auth = [];
  let client = null;
  const session = new Session({
    url: 'ws://h/ws', token: 'tok', WebSocket: FakeSocket, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout,
    random: () => 1, onState: (state) => states.push(state), onWelcome: (welcome) => client.welcomed(welcome),
    onMessage: (message) => client.receive(message), onAuthFailed: (reason) => auth.push(reason),
  });
  const pending = new PendingProposals(storage, () => 'tab');
  client = new PlanClient({ session, pending, plan: 'demo', timers });
  return { timers, sockets, states, auth, session, client, pending, storage };
}

const withoutRef = ({ ref, ...rest }) => rest;
const welcome = { type: 'welcome', session: 's1', user: 'alice', protocol: 1, limits: { maxProposalsPerSecond: 4 } };
const snapshot = (version, role = 'editor') => ({ type: 'snapshot', plan: 'demo', version, title: 'T', tasks: [{ id: 'a', title: 'A', kind: 'activity', progress: 0 }], dependencies: [], resources: [], summaries: {}, role });
const upsert = (version, progress) => ({ type: 'confirmed', plan: 'demo', version, mutation: { id: `m${version}`, user: 'bob' },
  changes: { upsert: [{ id: 'a', title: 'A', kind: 'activity', progress }], remove: [], summaries: {} } });

test('hello first, the subprotocol offered, a JSON array handled as its messages in order', () => {
  const h = harness();
  h.session.start();
  const [socket] = h.sockets;
  assert.equal(socket.protocol, 'chronosketch.v1');
  socket.open();
  assert.deepEqual(socket.sent[0], { type: 'hello', token: 'tok', client: 'web/0.1.0' });
  socket.deliver(welcome);
  assert.deepEqual(withoutRef(socket.sent[1]), { type: 'subscribe', plan: 'demo' });
  assert.equal(h.states.at(-1).kind, 'connected');
  socket.deliver([snapshot(3), upsert(4, 50)]);
  assert.equal(h.client.copy.version, 4);
  assert.equal(h.client.copy.get('a').progress, 50);
});

test('after a drop it reconnects with a growing delay and resumes with since', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(3));
  h.sockets[0].drop();
  assert.equal(h.states.at(-1).kind, 'reconnecting');
  assert.equal(h.states.at(-1).delay, 250);
  h.timers.advance(249);
  assert.equal(h.sockets.length, 1);
  h.timers.advance(1);
  assert.equal(h.sockets.length, 2);
  h.sockets[1].drop();
  assert.equal(h.states.at(-1).delay, 500);
  h.timers.advance(500);
  h.sockets[2].open();
  h.sockets[2].deliver(welcome);
  assert.deepEqual(withoutRef(h.sockets[2].sent[1]), { type: 'subscribe', plan: 'demo', since: 3 });
  h.sockets[2].deliver([upsert(4, 10), upsert(5, 20), { type: 'resumed', plan: 'demo', version: 5 }]);
  assert.equal(h.client.copy.version, 5);
  assert.equal(h.client.resyncing, false);
  h.sockets[2].deliver(upsert(7, 70));
  assert.deepEqual(withoutRef(h.sockets[2].sent.at(-1)), { type: 'subscribe', plan: 'demo', since: 5 }, 'a gap resumes');
});

test('a pending proposal is re-sent once with its id after a reconnect, and after a reload', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(3));
  const answers = [];
  const id = h.client.propose({ type: 'replace', previous: {}, proposed: {} }, 'progress', (answer) => answers.push(answer));
  const sent = h.sockets[0].sent.filter((m) => m.type === 'propose');
  assert.deepEqual(sent.map((m) => m.id), [id]);
  assert.equal(sent[0].baseVersion, 3);
  h.sockets[0].drop();
  h.timers.advance(250);
  h.sockets[1].open();
  h.sockets[1].deliver(welcome);
  assert.equal(h.sockets[1].sent.filter((m) => m.type === 'propose').length, 0, 'not before the role is known');
  h.sockets[1].deliver({ type: 'resumed', plan: 'demo', version: 3, role: 'editor' });
  assert.deepEqual(h.sockets[1].sent.filter((m) => m.type === 'propose').map((m) => m.id), [id]);
  // A reload now: a new page over the same storage re-sends the same proposal, once.
  const reloaded = harness(h.storage);
  reloaded.session.start();
  reloaded.sockets[0].open();
  reloaded.sockets[0].deliver(welcome);
  reloaded.sockets[0].deliver(snapshot(3));
  const resent = reloaded.sockets[0].sent.filter((m) => m.type === 'propose');
  assert.deepEqual(resent, [sent[0]]);
  reloaded.sockets[0].deliver({ type: 'ack', id, plan: 'demo', version: 4 });
  assert.equal(reloaded.pending.of('demo').length, 0);
  reloaded.sockets[0].deliver({ type: 'ack', id, plan: 'demo', version: 4 });
  reloaded.sockets[0].drop();
  reloaded.timers.advance(250);
  reloaded.sockets[1].open();
  reloaded.sockets[1].deliver(welcome);
  reloaded.sockets[1].deliver({ type: 'resumed', plan: 'demo', version: 3, role: 'editor' });
  assert.equal(reloaded.sockets[1].sent.filter((m) => m.type === 'propose').length, 0, 'nothing is re-sent once answered');
  assert.equal(answers.length, 0, 'the first page never heard the answer');
});

test('unavailable and rateLimited are retried with the same id; a decision settles', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(3));
  const answers = [];
  const id = h.client.propose({ type: 'remove', previous: {} }, '', (answer) => answers.push(answer));
  h.sockets[0].deliver({ type: 'rejected', id, plan: 'demo', code: 'unavailable', message: 'retry' });
  assert.equal(answers.length, 0);
  h.timers.advance(1000);
  assert.equal(h.sockets[0].sent.filter((m) => m.type === 'propose' && m.id === id).length, 2);
  h.sockets[0].deliver({ type: 'rejected', id, plan: 'demo', code: 'staleTask', message: 'changed', version: 3 });
  assert.equal(answers[0].code, 'staleTask');
  assert.equal(h.pending.of('demo').length, 0);
});

test('re-sent proposals are paced at half the proposal limit per second', () => {
  const storage = new MemoryStorage();
  const first = new PendingProposals(storage, () => 'tab');
  for (let i = 0; i < 5; i += 1) first.add({ id: first.nextID(), plan: 'demo', baseVersion: 1, op: { type: 'remove', previous: {} } });
  const h = harness(storage);
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  const count = () => h.sockets[0].sent.filter((m) => m.type === 'propose').length;
  assert.equal(count(), 0, 'sent once the role is known');
  h.sockets[0].deliver(snapshot(1));
  assert.equal(count(), 2);
  h.timers.advance(1000);
  assert.equal(count(), 4);
  h.timers.advance(1000);
  assert.equal(count(), 5);
});

test('an unauthenticated token stops the session and reports it; silence is noticed', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver({ type: 'error', code: 'unauthenticated', message: 'unknown token' });
  h.sockets[0].drop(1008, 'unauthenticated');
  assert.deepEqual(h.auth, ['unknown token']);
  h.timers.advance(60000);
  assert.equal(h.sockets.length, 1, 'no reconnect with a refused token');
  const quiet = harness();
  quiet.session.start();
  quiet.sockets[0].open();
  quiet.sockets[0].deliver(welcome);
  quiet.timers.advance(25000);
  assert.equal(quiet.sockets[0].sent.at(-1).type, 'plans', 'silence is answered with a request');
  quiet.timers.advance(10000);
  assert.equal(quiet.sockets[0].closedWith, 4000);
  assert.equal(quiet.states.at(-1).kind, 'reconnecting');
});

test('a fetched past version never replaces the copy; a lost role forgets it; answers reach their request', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(7));
  const answers = [];
  const ref = h.client.request({ type: 'fetch', plan: 'demo', version: 2 }, (message) => answers.push(message));
  h.sockets[0].deliver({ ...snapshot(2), historical: true, ref });
  assert.equal(h.client.copy.version, 7);
  assert.equal(answers[0].version, 2);
  const historyRequest = h.sockets[0].sent.find((m) => m.type === 'history');
  assert.deepEqual([historyRequest.plan, historyRequest.limit], ['demo', 100]);
  h.sockets[0].deliver({ type: 'history', plan: 'demo', entries: [{ version: 7, mutation: { id: 'x', user: 'alice' }, op: { type: 'remove', previous: {} }, changes: {} }], logStart: 0, more: false });
  assert.equal(h.client.history.undoTarget('alice'), 7);
  const lost = [];
  h.client.listen((event, detail) => event === 'lost' && lost.push(detail.code));
  h.sockets[0].deliver({ type: 'error', code: 'forbidden', message: 'no role', plan: 'demo' });
  assert.equal(h.client.copy, null);
  assert.equal(h.client.problem, 'no role');
  const subscribe = h.sockets[0].sent.find((m) => m.type === 'subscribe');
  h.sockets[0].deliver({ type: 'error', code: 'unknownPlan', message: 'no plan', ref: subscribe.ref });
  assert.deepEqual(lost, ['forbidden', 'unknownPlan'], 'a refused subscription is reported too');
});

test('the history is read one page at a time; the ops of versions heard as confirmed are asked for once', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(7));
  const pages = () => h.sockets[0].sent.filter((m) => m.type === 'history');
  assert.equal(pages().length, 1, 'the newest page after the welcome');
  assert.equal(h.client.readHistory(3), false, 'not while one is read');
  assert.equal(pages().length, 1);
  h.sockets[0].deliver({ type: 'history', plan: 'demo', entries: [], logStart: 0, more: true, ref: pages()[0].ref });
  h.sockets[0].deliver(upsert(8, 10));
  h.sockets[0].deliver(upsert(9, 20));
  assert.deepEqual(h.client.history.versionsWithoutDetails(), [8, 9]);
  h.client.readMissingDetails();
  assert.deepEqual(withoutRef(pages()[1]), { type: 'history', plan: 'demo', limit: 2, before: 10 });
  h.sockets[0].deliver({ type: 'error', code: 'unavailable', message: 'busy', ref: pages()[1].ref });
  h.client.readMissingDetails();
  assert.equal(pages().length, 2, 'the same page is not asked for again');
  h.sockets[0].deliver(upsert(10, 30));
  h.client.readMissingDetails();
  assert.deepEqual(withoutRef(pages()[2]), { type: 'history', plan: 'demo', limit: 3, before: 11 });
  h.sockets[0].drop(1006, 'gone');
  h.timers.advance(10000);
  h.sockets[1].open();
  h.sockets[1].deliver(welcome);
  assert.equal(h.sockets[1].sent.filter((m) => m.type === 'history').length, 1, 'a page unanswered before the drop does not block the next');
});

test('schedule figures: asked after each version for the rows shown, at most one request out, the newest asked again', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(3));
  const asked = () => h.sockets.at(-1).sent.filter((m) => m.type === 'schedule');
  const events = [];
  h.client.listen((event, detail) => event === 'figures' && events.push(detail));
  h.client.wantFigures(['a', 'b']);
  h.client.wantFigures(['a', 'b']);
  h.sockets[0].deliver(upsert(4, 10));
  h.client.wantFigures(['a', 'b']);
  assert.equal(asked().length, 1, 'one request out');
  assert.deepEqual(withoutRef(asked()[0]), { type: 'schedule', plan: 'demo', ids: ['a', 'b'] });
  const figure = { lateStart: '2026-09-08', lateFinish: '2026-09-10', slack: 0, critical: true };
  h.sockets[0].deliver({ type: 'schedule', plan: 'demo', version: 3, finish: '2026-09-10', tasks: { a: figure }, ref: asked()[0].ref });
  assert.deepEqual(events.map((e) => [e.version, e.tasks]), [[3, { a: figure }]]);
  assert.equal(asked().length, 2, 'version 4 came meanwhile: asked again once the answer was in');
  h.sockets[0].deliver({ type: 'schedule', plan: 'demo', version: 4, finish: '2026-09-10', tasks: { a: { ...figure, slack: 2, critical: false } }, ref: asked()[1].ref });
  h.client.wantFigures(['a', 'b']);
  assert.equal(asked().length, 2, 'held for this version (b is no scheduled task: left out, not asked again)');
  h.client.wantFigures(['a', 'c']);
  assert.deepEqual(asked()[2].ids, ['a', 'c'], 'a row scrolled in');
  h.sockets[0].deliver({ type: 'schedule', plan: 'demo', version: 4, finish: null, tasks: { c: figure }, ref: asked()[2].ref });
  assert.deepEqual(Object.keys(h.client.figures.tasks).sort(), ['a', 'c'], 'the same version: merged');
  h.sockets[0].deliver(upsert(5, 20));
  h.client.wantFigures(['a']);
  h.sockets[0].deliver({ type: 'error', code: 'unavailable', message: 'x', ref: asked()[3].ref });
  h.client.wantFigures(['a']);
  assert.equal(asked().length, 4, 'after an error: not again for the same version');
  h.sockets[0].drop();
  h.timers.advance(250);
  h.sockets[1].open();
  h.sockets[1].deliver(welcome);
  h.sockets[1].deliver(upsert(6, 30));
  h.client.wantFigures(['a']);
  assert.equal(asked().length, 1, 'asked on the new connection');
});

test('the role comes with the snapshot, resumed and role events; a viewer drops what was never sent, never to send it', () => {
  const h = harness();
  const roles = [];
  h.client.listen((event, detail) => event === 'role' && roles.push(detail));
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  const early = h.client.propose({ type: 'remove', previous: { id: 'a' } }, 'early');
  assert.equal(h.sockets[0].sent.filter((m) => m.type === 'propose').length, 0, 'nothing is proposed before the role is known');
  h.sockets[0].deliver(snapshot(3, 'editor'));
  assert.deepEqual(h.sockets[0].sent.filter((m) => m.type === 'propose').map((m) => m.id), [early]);
  assert.deepEqual(roles, [{ role: 'editor', previous: null, dropped: [] }]);
  assert.equal(h.client.mayPropose, true);
  h.sockets[0].drop();
  const queued = h.client.propose({ type: 'remove', previous: { id: 'b' } }, 'queued');
  assert.deepEqual([h.pending.isSent(early), h.pending.isSent(queued)], [true, false]);
  h.timers.advance(250);
  h.sockets[1].open();
  h.sockets[1].deliver(welcome);
  h.sockets[1].deliver({ type: 'resumed', plan: 'demo', version: 3, role: 'viewer' });
  assert.deepEqual(roles[1].dropped.map((p) => p.id), [queued], 'the queued one is dropped and listed');
  assert.deepEqual([roles[1].role, roles[1].previous, h.client.mayPropose], ['viewer', 'editor', false]);
  assert.deepEqual(h.sockets[1].sent.filter((m) => m.type === 'propose').map((m) => m.id), [early],
    'one sent before is sent again: the server decides it (a viewer\'s is applied by no one)');
  h.sockets[1].deliver({ type: 'role', plan: 'demo', role: 'editor' });
  h.sockets[1].deliver({ type: 'role', plan: 'other', role: 'viewer' });
  assert.deepEqual(roles.slice(2), [{ role: 'editor', previous: 'viewer', dropped: [] }]);
  const reloaded = harness(h.storage);
  reloaded.session.start();
  reloaded.sockets[0].open();
  reloaded.sockets[0].deliver(welcome);
  reloaded.sockets[0].deliver(snapshot(3, 'editor'));
  assert.deepEqual(reloaded.sockets[0].sent.filter((m) => m.type === 'propose').map((m) => m.id), [early], 'not after a reload either');
});

test('a role that ends drops every proposal of the plan (those never sent are listed); none is sent after a reload', () => {
  const h = harness();
  const lost = [];
  h.client.listen((event, detail) => event === 'lost' && lost.push(detail));
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  h.sockets[0].deliver(snapshot(3));
  const sent = h.client.propose({ type: 'remove', previous: { id: 'a' } }, 'sent');
  h.sockets[0].drop();
  const queued = h.client.propose({ type: 'remove', previous: { id: 'b' } }, 'queued');
  h.timers.advance(250);
  h.sockets[1].open();
  h.sockets[1].deliver(welcome);
  const subscribe = h.sockets[1].sent.find((m) => m.type === 'subscribe');
  h.sockets[1].deliver({ type: 'error', code: 'unknownPlan', message: 'no plan', ref: subscribe.ref });
  assert.deepEqual(lost.map((l) => [l.code, l.dropped.map((p) => p.id)]), [['unknownPlan', [queued]]]);
  assert.equal(lost[0].copy.version, 3, 'the copy as it was, for the words');
  assert.deepEqual(h.pending.of('demo'), [], `${sent} is forgotten too: its role is gone`);
  assert.equal(h.sockets[1].sent.filter((m) => m.type === 'propose').length, 0);
  const reloaded = harness(h.storage);
  reloaded.session.start();
  reloaded.sockets[0].open();
  reloaded.sockets[0].deliver(welcome);
  reloaded.sockets[0].deliver(snapshot(3));
  assert.equal(reloaded.sockets[0].sent.filter((m) => m.type === 'propose').length, 0);
  // Online: the forbidden event of a role that ends.
  const online = harness();
  online.client.listen((event, detail) => event === 'lost' && lost.push(detail));
  online.session.start();
  online.sockets[0].open();
  online.sockets[0].deliver(welcome);
  online.sockets[0].deliver(snapshot(3));
  online.client.propose({ type: 'remove', previous: { id: 'a' } }, 'in flight');
  online.sockets[0].deliver({ type: 'error', code: 'forbidden', message: 'no role', plan: 'demo' });
  assert.deepEqual([lost[1].code, lost[1].dropped, online.pending.of('demo'), online.client.role], ['forbidden', [], [], null]);
});

test('Retry now reconnects at once instead of after the delay; nothing while connected', () => {
  const h = harness();
  h.session.start();
  h.sockets[0].open();
  h.sockets[0].deliver(welcome);
  assert.equal(h.session.retryNow(), false);
  h.sockets[0].drop();
  h.timers.advance(250);
  h.sockets[1].drop();
  assert.equal(h.states.at(-1).delay, 500);
  assert.equal(h.session.retryNow(), true);
  assert.equal(h.sockets.length, 3, 'a new socket at once');
  h.timers.advance(10000);
  assert.equal(h.sockets.length, 3, 'the waiting retry was cancelled');
  h.sockets[2].open();
  h.sockets[2].deliver(welcome);
  assert.equal(h.states.at(-1).kind, 'connected');
});
