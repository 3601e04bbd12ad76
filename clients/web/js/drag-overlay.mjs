// What the drags draw over the charts (bar-drags.mjs holds them): a ghost (dashed) where a bar,
// diamond or booking is dragged to, or waits for the server's answer, with its dates; and the
// reason of the latest rejection beside the bar it was about, with "Move to <date>" for a
// scheduleConflict. Positions in CSS pixels of the visible chart, as chart-draw.mjs draws.

import { s, textWidth } from './dom.mjs';
import { ROW_HEIGHT } from './tasks-view.mjs';
import { LANE } from './resources-view.mjs';
import { formatDate, formatDateTime } from './strings.mjs';
import { barDates } from './bar-drag.mjs';
import { parseCivil, parseLocal } from './dates.mjs';

const NOTE_FONT = '11px system-ui, -apple-system, \'Segoe UI\', sans-serif';

/** Where a text of `width` pixels goes beside a mark [left, right]: after it, else before it, else on the side with more room. */
function beside(left, right, width, chartWidth, gap) {
  if (right + gap + width <= chartWidth) return right + gap;
  if (left - gap - width >= 0 || left > chartWidth - right) return Math.max(left - gap - width, 0);
  return right + gap;
}

/** The note's nodes beside the mark [left, right] at baseline `y`: "Move to <date>" (a task's scheduleConflict) first, then the reason. */
function noteNodes(state, note, left, right, y, chartWidth) {
  const earliest = parseCivil(note.conflict?.earliest);
  const fix = note.kind === 'task' && earliest !== null && note.conflict.task === note.key
    ? state.t.moveTo(formatDate(state.language, earliest)) : null;
  const fixEnd = fix ? textWidth(fix, NOTE_FONT) + 10 : 0;
  const x = beside(left, right, fixEnd + textWidth(note.text, NOTE_FONT), chartWidth, 16);
  const nodes = [s('text', { class: 'drag-note', x: x + fixEnd, y, text: note.text, dataset: { note: note.key } })];
  if (fix) nodes.push(s('text', { class: 'drag-fix', x, y, text: fix, role: 'button', dataset: { id: note.key, fix: 'earliest' } }));
  return nodes;
}

/** A ghost's dates beside it (baseline `y`), on a plate of the page's colour over whatever lies there. */
function datesNodes(key, text, left, right, y, chartWidth, gap) {
  const width = textWidth(text, NOTE_FONT);
  const x = beside(left, right, width, chartWidth, gap);
  return [s('rect', { class: 'ghost-plate', x: x - 3, y: y - 11, width: width + 6, height: 15, rx: 2 }),
    s('text', { class: 'ghost-dates', x, y, text, dataset: { ghost: key } })];
}

/** The task chart's ghosts and note for rows [first, end) (view state: tasks-view.mjs). */
export function drawTaskOverlay(state, { ghosts, note, first, end, scrollTop, scrollLeft, width }) {
  const dayWidth = state.columnWidth / state.axis.zoom;
  const x = (day) => (day - state.axis.start) * dayWidth - scrollLeft;
  const rowTop = (id) => {
    const index = state.indexByID.get(id);
    return index === undefined || index < first || index >= end ? null : index * ROW_HEIGHT - scrollTop;
  };
  const date = (day) => formatDate(state.language, day);
  const nodes = [];
  for (const { key, ghost, waiting } of ghosts) {
    const top = rowTop(key);
    const task = state.copy.get(key);
    if (top === null || !task) continue;
    const tint = `ghost${waiting ? ' waiting' : ''}`;
    let [left, right] = [x(ghost.start), x(ghost.end)];
    if (task.kind === 'milestone') {
      const [cx, cy] = [x(ghost.start + 0.5), top + ROW_HEIGHT / 2 - 1];
      nodes.push(s('path', { class: tint, d: `M${cx} ${cy - 8}L${cx + 8} ${cy}L${cx} ${cy + 8}L${cx - 8} ${cy}Z`, dataset: { ghost: key } }));
      [left, right] = [cx - 8, cx + 8];
    } else {
      nodes.push(s('rect', { class: tint, x: left, y: top + 5, width: Math.max(right - left, 2), height: ROW_HEIGHT - 12, rx: 3, dataset: { ghost: key } }));
    }
    const label = task.kind === 'milestone' ? date(ghost.start) : `${date(ghost.start)} – ${date(ghost.end - 1)}`;
    nodes.push(...datesNodes(key, label, left, right, top + 18, width, 14));
  }
  const top = note ? rowTop(note.key) : null;
  const dates = note && barDates(note.value);
  if (top !== null && dates) {
    const milestone = note.value.kind === 'milestone';
    const [left, right] = milestone ? [x(dates.start + 0.5) - 8, x(dates.start + 0.5) + 8] : [x(dates.start), x(dates.end)];
    nodes.push(...noteNodes(state, note, left, right, top + 18, width));
  }
  return nodes;
}

/** The resources chart's ghosts and note for the `visible` rows (view state: resources-view.mjs). */
export function drawEntryOverlay(state, { ghosts, note, visible, scrollTop, scrollLeft, width }) {
  const minuteWidth = state.columnWidth / state.axis.zoom / 1440;
  const x = (minutes) => (minutes - state.axis.start * 1440) * minuteWidth - scrollLeft;
  const nodes = [];
  const placedOf = (key) => {
    for (const row of visible) {
      const placed = row.placed.find((candidate) => candidate.item.assignment.id === key);
      if (placed) return { row, placed };
    }
    return null;
  };
  for (const { key, ghost, waiting } of ghosts) {
    const row = visible.find((candidate) => candidate.resource.id === ghost.resourceID);
    if (!row) continue;
    const own = placedOf(key);
    const lane = own?.row === row ? own.placed.lane : 0;
    const y = row.top - scrollTop + 4 + lane * LANE;
    const [left, right] = [x(ghost.start), x(ghost.end)];
    nodes.push(s('rect', { class: `ghost${waiting ? ' waiting' : ''}`, x: left, y, width: Math.max(right - left, 3), height: LANE - 4, rx: 3,
      dataset: { ghost: key } }));
    const label = `${formatDateTime(state.language, ghost.start)} – ${formatDateTime(state.language, ghost.end)}`;
    nodes.push(...datesNodes(key, label, left, right, y + 13, width, 6));
  }
  const own = note ? placedOf(note.key) : null;
  if (own) {
    const y = own.row.top - scrollTop + 4 + own.placed.lane * LANE + 13;
    const { entry } = own.placed.item;
    nodes.push(...noteNodes(state, note, x(parseLocal(entry.start)), x(parseLocal(entry.end)), y, width));
  }
  return nodes;
}
