// The proposals this tab sent and has not seen answered, kept in a Storage (sessionStorage in the
// page) so that a reconnect or a page reload re-sends each with its original id and the server's
// exactly-once rule (docs/protocol.md §5.6) applies none twice. Also the id scheme: a random prefix
// new with every page load plus a counter, so no id is used twice, not after a reload and not in a
// tab duplicated with its sessionStorage (which re-sends the same pending proposals: harmless).

const KEY = 'chronosketch.pending.v1';

/** Codes that are no decisions: the same id is sent again after a pause. */
export const RETRY_CODES = new Set(['unavailable', 'rateLimited']);

export class PendingProposals {
  /** `storage`: getItem/setItem (sessionStorage); `random`: a function giving a hex string. */
  constructor(storage, random) {
    this.storage = storage;
    let saved = null;
    try {
      saved = JSON.parse(storage.getItem(KEY) ?? 'null');
    } catch {
      saved = null;
    }
    this.prefix = random();
    this.counter = 0;
    this.proposals = Array.isArray(saved?.proposals) ? saved.proposals.filter((p) => p && typeof p.id === 'string') : [];
    this.save();
  }

  save() {
    try {
      this.storage.setItem(KEY, JSON.stringify({ proposals: this.proposals }));
    } catch {
      // Storage full or refused: the proposals stay in memory (a reload would lose them).
    }
  }

  /** A new id with `kind` ('p' proposals, 't' tasks, 'e' entries, …): `p-<prefix>-<n>`. */
  nextID(kind = 'p') {
    this.counter += 1;
    return `${kind}-${this.prefix}-${this.counter}`;
  }

  /** Records a proposal before it is sent: { id, plan, baseVersion, op, label }. */
  add(proposal) {
    this.proposals.push(proposal);
    this.save();
    return proposal;
  }

  /** The waiting proposals of a plan, oldest first. */
  of(plan) {
    return this.proposals.filter((proposal) => proposal.plan === plan);
  }

  has(id) {
    return this.proposals.some((proposal) => proposal.id === id);
  }

  /** The proposal went to the server (on this or an earlier connection): its fate is the server's now. */
  markSent(id) {
    const proposal = this.proposals.find((candidate) => candidate.id === id);
    if (!proposal || proposal.sent) return;
    proposal.sent = true;
    this.save();
  }

  /** Whether the proposal `id` was ever sent (false: it waits queued, or is not pending). */
  isSent(id) {
    return this.proposals.some((proposal) => proposal.id === id && proposal.sent);
  }

  /** The answer came (ack, or a rejection that is a decision): forgets and returns the proposal. */
  settle(id) {
    const index = this.proposals.findIndex((proposal) => proposal.id === id);
    if (index < 0) return null;
    const [proposal] = this.proposals.splice(index, 1);
    this.save();
    return proposal;
  }

  /**
   * Forgets the proposals of `plan` that `keep(proposal)` does not keep (the role to propose ended):
   * returns them, oldest first. They are never sent again, not after a reconnect or a reload.
   */
  drop(plan, keep = () => false) {
    const dropped = this.proposals.filter((proposal) => proposal.plan === plan && !keep(proposal));
    if (dropped.length === 0) return dropped;
    this.proposals = this.proposals.filter((proposal) => !dropped.includes(proposal));
    this.save();
    return dropped;
  }

  /** The message that (re-)sends a proposal. */
  static message(proposal) {
    return { type: 'propose', id: proposal.id, plan: proposal.plan, baseVersion: proposal.baseVersion, op: proposal.op };
  }
}
