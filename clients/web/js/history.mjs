// What the client knows of a plan's history (the `history` pages it read and the `confirmed`
// stream since), and the targets of its undo and redo keys (docs/protocol.md §5.9: the server
// keeps no per-user stacks; a client undoes the newest version of its user not yet undone, and
// redoes by undoing that undo). The same two stacks as the terminal's ClientHistory, rebuilt
// from one user's entries in version order; baseline ops cannot be undone and are skipped. It also
// says who changed something since a version, for the message of a stale undo or proposal.

/** What `touched` holds for a version that changed the dependency list or the settings. */
export const DEPENDENCIES = Symbol('dependencies');
export const SETTINGS = Symbol('settings');

export class ClientHistory {
  constructor() {
    /** version → { version, at, user, undoes, op, detailsRead, isBaseline, touched } */
    this.entries = new Map();
    this.logStart = null;
    this.more = true;
    /** Whether the pages list versions below `logStart`: a log written before the server kept
     * history, whose version at `logStart` has no undo either (a trimmed log lists none below it). */
    this.listsBelowStart = false;
    /** undone version → its undos, newest first (`undosOf`); null after any change of `entries`. */
    this.undoIndex = null;
  }

  /** Newest first. */
  versions() {
    return [...this.entries.keys()].sort((a, b) => b - a);
  }

  /** Takes in a `history` message. */
  receivePage(message) {
    this.undoIndex = null;
    const start = message.logStart ?? this.logStart;
    if (start !== this.logStart) this.listsBelowStart = false;
    this.logStart = start;
    let oldest = Infinity;
    for (const item of message.entries ?? []) {
      oldest = Math.min(oldest, item.version);
      if (item.version < start) this.listsBelowStart = true;
      this.entries.set(item.version, {
        version: item.version, at: item.at ?? '', user: item.mutation?.user ?? '', undoes: item.mutation?.undoes ?? null,
        op: item.op ?? null, detailsRead: true, touched: touched(item.changes, item.op),
        isBaseline: item.op ? isBaselineOp(item.op) : !!item.changes?.baselines,
      });
    }
    const known = Math.min(...this.entries.keys());
    if (oldest === Infinity || oldest === known) this.more = !!message.more;
  }

  /** Whether `version` can still be shown (fetch): versions below the log's start cannot (a log
   * trimmed since, or written before the server kept history); their entries stay listed, as the
   * audit trail the server still sends. */
  isKept(version) {
    return this.logStart === null || version >= this.logStart;
  }

  /** Takes in a `confirmed` (its op stays unknown until a page tells it). */
  receiveConfirmed(message) {
    this.undoIndex = null;
    if (this.entries.get(message.version)?.detailsRead) return;
    this.entries.set(message.version, {
      version: message.version, at: message.at ?? '', user: message.mutation?.user ?? '',
      undoes: message.mutation?.undoes ?? null, op: null, detailsRead: false, touched: touched(message.changes, null),
      isBaseline: !!message.changes?.baselines,
    });
  }

  reset() {
    this.entries.clear();
    this.undoIndex = null;
    this.logStart = null;
    this.more = true;
    this.listsBelowStart = false;
  }

  stacks(user) {
    const undo = [];
    let redo = [];
    for (const version of [...this.entries.keys()].sort((a, b) => a - b)) {
      const entry = this.entries.get(version);
      // Every entry held, those below the log's start included: an undo above it may pair with them.
      if (entry.user !== user || entry.isBaseline) continue;
      const target = entry.undoes;
      if (target !== null && undo.lastIndexOf(target) >= 0) {
        undo.splice(undo.lastIndexOf(target), 1);
        redo.push(version);
      } else if (target !== null && redo.lastIndexOf(target) >= 0) {
        redo.splice(redo.lastIndexOf(target), 1);
        undo.push(version);
      } else {
        undo.push(version);
        redo = [];
      }
    }
    return { undo, redo };
  }

  /** The versions whose op is not known yet (they came with `confirmed`), ascending. */
  versionsWithoutDetails() {
    return [...this.entries.values()].filter((entry) => !entry.detailsRead).map((entry) => entry.version).sort((a, b) => a - b);
  }

  /** The newest version that undid `version` and is not undone itself (by a redo), or null. */
  undoing(version) {
    const undos = this.undosOf().get(version) ?? [];
    return undos.find((undo) => this.undoing(undo) === null) ?? null;
  }

  /** The undos of each version, newest first: made once per change of the entries (a history
   * view asks for every row in each render). */
  undosOf() {
    if (this.undoIndex) return this.undoIndex;
    const map = new Map();
    for (const entry of this.entries.values()) {
      if (entry.undoes !== null) map.set(entry.undoes, [...(map.get(entry.undoes) ?? []), entry.version]);
    }
    for (const undos of map.values()) undos.sort((a, b) => b - a);
    this.undoIndex = map;
    return map;
  }

  /** The entries after `after` that touched any of `ids` (who changed it since), oldest first. */
  changesSince(after, ids) {
    return [...this.entries.values()].filter((entry) => entry.version > after && [...ids].some((id) => entry.touched.has(id)))
      .sort((a, b) => a.version - b.version);
  }

  /** The newest entry after `after` that touched any of `ids`, or null. */
  lastChange(after, ids) {
    return this.changesSince(after, ids).at(-1) ?? null;
  }

  /** The version the user's undo key undoes, or null. */
  undoTarget(user) {
    return this.undoable(this.stacks(user).undo.at(-1));
  }

  /** The version the user's redo key undoes (one of their undos), or null. */
  redoTarget(user) {
    return this.undoable(this.stacks(user).redo.at(-1));
  }

  /** `version` when it can be undone, else null: kept, and not the start of a log written before
   * the server kept history (docs/protocol.md §4.7). */
  undoable(version) {
    return version === undefined || !this.isKept(version) || (version === this.logStart && this.listsBelowStart) ? null : version;
  }
}

function isBaselineOp(op) {
  return op?.type === 'baseline.set' || op?.type === 'baseline.remove';
}

/** The tasks and entries a version changed: its changes' ids and the tasks its op names. */
function touched(changes, op) {
  const ids = new Set([...(changes?.upsert ?? []).map((task) => task.id), ...(changes?.remove ?? []), ...(changes?.entries ?? [])]);
  const named = [op?.previous?.id, op?.task?.id, op?.relativeTo?.id, op?.dependency?.predecessorID, op?.dependency?.successorID,
    op?.original?.entry?.id, op?.entry?.id];
  for (const id of named) if (id !== undefined) ids.add(id);
  if (changes?.dependencies || /link$/.test(op?.type ?? '')) ids.add(DEPENDENCIES);
  if (changes?.settings || op?.type === 'settings.replace') ids.add(SETTINGS);
  return ids;
}
