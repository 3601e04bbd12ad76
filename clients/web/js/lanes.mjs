// Entries that would overlap on one resource go on separate lanes (the terminal's ResourceLanes):
// sorted by start (then id), each entry takes the first lane free at its start. Minute numbers in.

import { parseLocal } from './dates.mjs';

/** [{ item, lane }] for items having `entry.start`/`entry.end`, and the lane count (at least 1). */
export function lanes(items) {
  const sorted = items.slice().sort((a, b) => {
    const byStart = parseLocal(a.entry.start) - parseLocal(b.entry.start);
    return byStart !== 0 ? byStart : a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
  });
  const ends = [];
  const placed = sorted.map((item) => {
    const start = parseLocal(item.entry.start);
    let lane = ends.findIndex((end) => end <= start);
    if (lane < 0) lane = ends.length;
    ends[lane] = parseLocal(item.entry.end);
    return { item, lane };
  });
  return { placed, count: Math.max(ends.length, 1) };
}
