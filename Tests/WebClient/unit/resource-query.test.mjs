// Seed 003's viewport rules: the query for what is visible, coalescing, equal queries not re-sent,
// Retry, pages validated whole before anything of them is applied, and what a page replaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { makeViewport, scrollTo } from '../../../clients/web/js/viewport.mjs';
import {
  queryFor, ResourceQueryPlanner, pageProblem, applyPage, COALESCING_MS,
} from '../../../clients/web/js/resource-query.mjs';

const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
const viewport = (zoom = 1, visible = 10, first = 5) => scrollTo(makeViewport(makeAxis(d('2026-09-07'), 90, zoom), visible), first);

test('the query holds the visible rows and three more each side, the visible columns and two more each side', () => {
  const query = queryFor(ids, new Set(), [5, 10], viewport());
  assert.deepEqual(query.resourceIDs, ['r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9', 'r10', 'r11', 'r12']);
  assert.equal(query.start, '2026-09-10T00:00');
  assert.equal(query.end, '2026-09-24T00:00');
  const top = queryFor(ids, new Set(['r1']), [0, 4], viewport(1, 10, 0));
  assert.deepEqual(top.resourceIDs, ['r0', 'r2', 'r3', 'r4', 'r5', 'r6']);
  assert.equal(top.start, '2026-09-07T00:00');
  assert.equal(queryFor(ids, new Set(ids), [0, 20], viewport()), null);
  assert.equal(queryFor([], new Set(), [0, 0], viewport()), null);
});

test('a query never spans more than 400 days: the column buffer shrinks first, then the interval is cut', () => {
  const wide = makeViewport(makeAxis(d('2026-01-05'), 800, 8), 60);
  const query = queryFor(ids, new Set(), [0, 3], scrollTo(wide, 10));
  const days = (Date.parse(query.end) - Date.parse(query.start)) / 86400000;
  assert.equal(days, 400);
  assert.equal(query.start, '2026-03-26T00:00');
});

test('re-queries are coalesced, equal ones are not sent again, Retry sends at once', () => {
  const planner = new ResourceQueryPlanner('t');
  const q1 = { start: '2026-09-07T00:00', end: '2026-09-14T00:00', resourceIDs: ['r0'] };
  const q2 = { ...q1, resourceIDs: ['r0', 'r1'] };
  assert.deepEqual(planner.want(q1), [{ wake: COALESCING_MS, token: 1 }]);
  assert.deepEqual(planner.want({ ...q1 }), [], 'the same wanted query arms no second delay');
  assert.deepEqual(planner.want(q2), [{ wake: COALESCING_MS, token: 2 }]);
  assert.deepEqual(planner.wake(1), [], 'a superseded delay sends nothing');
  assert.deepEqual(planner.wake(2), [{ watch: q2, id: 'w-t-1' }]);
  assert.equal(planner.state.kind, 'loading');
  assert.deepEqual(planner.want({ ...q2 }), [], 'the watched query is not sent again');
  assert.deepEqual(planner.retry(), [{ unwatch: 'w-t-1' }, { watch: q2, id: 'w-t-2' }]);
  assert.deepEqual(planner.resend(), [{ watch: q2, id: 'w-t-3' }], 'after a reconnect: no unwatch of a watch the server forgot');
  assert.deepEqual(planner.want(null), [{ unwatch: 'w-t-3' }]);
  assert.equal(planner.state.kind, 'idle');
});

test('a page is applied only when it answers the current watch and passes validation', () => {
  const planner = new ResourceQueryPlanner('t');
  const query = { start: '2026-09-07T00:00', end: '2026-09-14T00:00', resourceIDs: ['r0'] };
  planner.want(query);
  planner.wake(1);
  const entry = { id: 'e1', title: 'W', start: '2026-09-06T22:00', end: '2026-09-07T01:00' };
  const good = { entries: [entry], assignments: [{ id: 'a1', entryID: 'e1', resourceID: 'r0' }] };
  assert.equal(planner.receive('w-old', good), null);
  assert.deepEqual(planner.receive('w-t-1', good), query);
  assert.equal(planner.state.kind, 'idle');
  const outside = { entries: [{ ...entry, start: '2026-09-14T00:00', end: '2026-09-14T01:00' }], assignments: [] };
  assert.equal(planner.receive('w-t-1', outside), null);
  assert.equal(planner.state.kind, 'failed');
  assert.match(pageProblem(query, { entries: [entry, entry], assignments: [] }), /duplicate entry/);
  assert.match(pageProblem(query, { entries: [entry], assignments: [{ id: 'a', entryID: 'x', resourceID: 'r0' }] }), /names an entry/);
  assert.match(pageProblem(query, { entries: [entry], assignments: [{ id: 'a', entryID: 'e1', resourceID: 'r9' }] }), /unrequested/);
  const refused = new ResourceQueryPlanner('u');
  refused.want(query);
  refused.wake(1);
  refused.refused('too long');
  assert.deepEqual(refused.state, { kind: 'failed', reason: 'too long' });
});

test('a page replaces what its query covers and keeps other loaded parts', () => {
  const data = { entries: new Map(), assignments: new Map() };
  const week1 = { start: '2026-09-07T00:00', end: '2026-09-14T00:00', resourceIDs: ['r0', 'r1'] };
  applyPage(data, week1, {
    entries: [{ id: 'e1', title: 'A', start: '2026-09-08T09:00', end: '2026-09-08T10:00' }, { id: 'e2', title: 'B', start: '2026-09-09T09:00', end: '2026-09-09T10:00' }],
    assignments: [{ id: 'a1', entryID: 'e1', resourceID: 'r0' }, { id: 'a2', entryID: 'e2', resourceID: 'r1' }],
  });
  const r0 = { ...week1, resourceIDs: ['r0'] };
  applyPage(data, r0, { entries: [], assignments: [] });
  assert.deepEqual([...data.assignments.keys()], ['a2']);
  assert.deepEqual([...data.entries.keys()], ['e2'], 'an entry no assignment names is pruned');
  const later = { start: '2026-09-20T00:00', end: '2026-09-27T00:00', resourceIDs: ['r1'] };
  applyPage(data, later, { entries: [{ id: 'e3', title: 'C', start: '2026-09-21T09:00', end: '2026-09-21T10:00' }], assignments: [{ id: 'a3', entryID: 'e3', resourceID: 'r1' }] });
  assert.deepEqual([...data.assignments.keys()].sort(), ['a2', 'a3'], 'a2 lies outside the later window and stays');
});
