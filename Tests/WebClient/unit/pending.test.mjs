// Pending proposals survive a reload (a new instance over the same storage) with their ids, and
// new ids continue the tab's counter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingProposals } from '../../../clients/web/js/pending.mjs';

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

test('ids carry a prefix new with every page load and a counter: none is used twice', () => {
  const storage = new MemoryStorage();
  const first = new PendingProposals(storage, () => 'abc123');
  assert.equal(first.nextID('p'), 'p-abc123-1');
  assert.equal(first.nextID('t'), 't-abc123-2');
  const reloaded = new PendingProposals(storage, () => 'zzz');
  assert.equal(reloaded.nextID('p'), 'p-zzz-1');
});

test('proposals are kept until settled, per plan, and re-sent with the same message', () => {
  const storage = new MemoryStorage();
  const pending = new PendingProposals(storage, () => 'x');
  const op = { type: 'link', dependency: { predecessorID: 'a', successorID: 'b' } };
  pending.add({ id: 'p-x-1', plan: 'demo', baseVersion: 4, op, label: 'link' });
  pending.add({ id: 'p-x-2', plan: 'other', baseVersion: 1, op, label: '' });
  const reloaded = new PendingProposals(storage, () => 'y');
  assert.deepEqual(reloaded.of('demo').map((p) => p.id), ['p-x-1']);
  assert.deepEqual(PendingProposals.message(reloaded.of('demo')[0]),
    { type: 'propose', id: 'p-x-1', plan: 'demo', baseVersion: 4, op });
  assert.equal(reloaded.settle('p-x-1').id, 'p-x-1');
  assert.equal(reloaded.settle('p-x-1'), null, 'a second answer for the same id settles nothing');
  assert.equal(new PendingProposals(storage, () => 'y').of('demo').length, 0);
});

test('broken storage contents start afresh; a full storage keeps proposals in memory', () => {
  const storage = new MemoryStorage();
  storage.setItem('chronosketch.pending.v1', '{not json');
  const pending = new PendingProposals(storage, () => 'fresh');
  assert.equal(pending.nextID(), 'p-fresh-1');
  assert.deepEqual(pending.proposals, []);
  storage.setItem('chronosketch.pending.v1', '{"proposals":[null,{"id":"p-1","plan":"x"}]}');
  assert.deepEqual(new PendingProposals(storage, () => 'y').proposals.map((p) => p.id), ['p-1']);
  const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
  const kept = new PendingProposals(full, () => 'm');
  kept.add({ id: 'p-m-1', plan: 'x' });
  assert.equal(kept.of('x').length, 1);
});

test('sent is remembered across a reload; a plan\'s proposals dropped are gone for good, others kept', () => {
  const storage = new MemoryStorage();
  const pending = new PendingProposals(storage, () => 'x');
  for (const [id, plan] of [['p-1', 'demo'], ['p-2', 'demo'], ['p-3', 'other'], ['p-4', 'demo']]) pending.add({ id, plan });
  pending.markSent('p-2');
  const reloaded = new PendingProposals(storage, () => 'y');
  assert.deepEqual(['p-1', 'p-2', 'nope'].map((id) => reloaded.isSent(id)), [false, true, false]);
  assert.deepEqual(reloaded.drop('demo', (proposal) => proposal.sent).map((p) => p.id), ['p-1', 'p-4']);
  assert.deepEqual(reloaded.drop('demo', (proposal) => proposal.sent), [], 'nothing more to drop');
  assert.deepEqual(new PendingProposals(storage, () => 'z').proposals.map((p) => p.id), ['p-2', 'p-3']);
  assert.deepEqual(reloaded.drop('demo').map((p) => p.id), ['p-2']);
  assert.deepEqual(new PendingProposals(storage, () => 'z').proposals.map((p) => p.id), ['p-3']);
});
