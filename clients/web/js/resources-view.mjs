// The resources timeline: one row per resource (pinned labels), its loaded entries as bars on the
// same civil-day axis as the task chart, overlapping entries on lanes of their own. What is loaded
// follows the visible rows and columns (the plan view turns them into a watch, seed 003); the
// corner shows Loading… or Load failed with Retry. Drag an entry sideways to move it in time, up or
// down to reassign it, or drag an end (bar-drags.mjs follows the press and draws the ghost); like
// the task view, only visible rows are in the DOM.

import { h, s, textWidth } from './dom.mjs';
import { ChartStage, drawHeader, gridNodes, HEADER_HEIGHT } from './chart-draw.mjs';
import { lanes } from './lanes.mjs';
import { parseLocal, MINUTES_PER_DAY } from './dates.mjs';

export const LABEL_WIDTH = 220;
export const LANE = 22;
const COLLAPSED = 26;
const EDGE = 6;

/** How far a drag snaps, in minutes, by zoom: a quarter hour at one day per column, else an hour or a day. */
export function snapMinutes(zoom) {
  return zoom === 1 ? 15 : zoom <= 4 ? 60 : MINUTES_PER_DAY;
}

/** `text`, shortened with an ellipsis to fit `room` pixels (empty when not even one letter fits). */
function clip(text, room) {
  if (textWidth(text) <= room) return text;
  let length = text.length;
  while (length > 0 && textWidth(`${text.slice(0, length)}…`) > room) length -= 1;
  return length > 0 ? `${text.slice(0, length)}…` : '';
}

export class ResourcesView extends ChartStage {
  /**
   * callbacks: select(resourceID, assignmentID), toggle(resourceID), activate(), retry(),
   * press(target, 'move'|'start'|'end', event) (a press on an entry), visible(range).
   */
  constructor(scroller, callbacks) {
    super(scroller, LABEL_WIDTH);
    this.callbacks = callbacks;
    this.chart.addEventListener('pointerdown', (event) => this.pointerDown(event));
    this.chart.addEventListener('dblclick', () => this.callbacks.activate());
    this.list.addEventListener('click', (event) => {
      const row = event.target.closest('[data-resource]');
      if (!row) return;
      if (event.target.closest('.disclosure')) this.callbacks.toggle(row.dataset.resource);
      else this.callbacks.select(row.dataset.resource, null);
    });
  }

  /**
   * state: { resources, data, dataRevision, collapsed, selectedResource, selectedAssignment, loadState, axis, columnWidth,
   * language, t, today, pending, overlay(view, visible rows, scrollTop, scrollLeft) (the drags' ghosts and notes) }.
   */
  update(state) {
    if (!this.state || state.dataRevision !== this.state.dataRevision || state.collapsed !== this.state.collapsed
      || state.resources !== this.state.resources) this.placed = null;
    this.state = state;
    this.scroller.classList.toggle('read-only', !!state.readOnly);
    this.schedule();
  }

  get chartWidth() {
    return Math.max(this.scroller.clientWidth - LABEL_WIDTH, 0);
  }

  /** Per resource: its entries on lanes, its height and top. */
  place() {
    const { resources, data, collapsed } = this.state;
    const byResource = new Map(resources.map((resource) => [resource.id, []]));
    for (const assignment of data.assignments.values()) {
      const entry = data.entries.get(assignment.entryID);
      if (entry) byResource.get(assignment.resourceID)?.push({ entry, assignment });
    }
    let top = 0;
    this.placed = resources.map((resource) => {
      const isCollapsed = collapsed.has(resource.id);
      const laid = lanes(isCollapsed ? [] : byResource.get(resource.id));
      const height = isCollapsed ? COLLAPSED : 8 + laid.count * LANE;
      const row = { resource, top, height, placed: laid.placed, collapsed: isCollapsed };
      top += height;
      return row;
    });
    this.totalHeight = top;
  }

  /** The entries of a resource in time order (for n: next entry). */
  entriesOf(resourceID) {
    if (!this.placed) this.place();
    return (this.placed.find((row) => row.resource.id === resourceID)?.placed ?? []).map((placed) => placed.item);
  }

  render() {
    const { state } = this;
    if (!state) return;
    if (!this.placed) this.place();
    const width = this.scroller.clientWidth;
    const height = this.scroller.clientHeight;
    const scrollTop = this.scroller.scrollTop;
    const scrollLeft = Math.max(this.scroller.scrollLeft, 0);
    if (width === 0) return; // hidden
    const chartWidth = Math.max(width - LABEL_WIDTH, 0);
    const bodyHeight = Math.max(height - HEADER_HEIGHT, 0);
    this.layout(width, height, state.axis.columnCount * state.columnWidth, this.totalHeight);
    this.renderCorner();
    const visible = this.placed.filter((row) => row.top + row.height > scrollTop && row.top < scrollTop + bodyHeight);
    const firstIndex = visible.length ? this.placed.indexOf(visible[0]) : 0;
    this.callbacks.visible([firstIndex, firstIndex + visible.length], { scrollLeft, chartWidth });
    this.renderLabels(visible, scrollTop);
    drawHeader(this.header, { axis: state.axis, language: state.language, columnWidth: state.columnWidth, scrollLeft, width: chartWidth });
    const nodes = gridNodes({ axis: state.axis, columnWidth: state.columnWidth, scrollLeft, width: chartWidth, height: bodyHeight, today: state.today });
    const minutePx = state.columnWidth / state.axis.zoom / MINUTES_PER_DAY;
    const origin = state.axis.start * MINUTES_PER_DAY;
    for (const row of visible) {
      const top = row.top - scrollTop;
      nodes.push(s('line', { class: 'grid', x1: 0, x2: chartWidth, y1: top + row.height, y2: top + row.height }));
      const laneEnds = new Map();
      for (let index = row.placed.length - 1; index >= 0; index -= 1) {
        const { item, lane } = row.placed[index];
        const left = (parseLocal(item.entry.start) - origin) * minutePx - scrollLeft;
        const right = (parseLocal(item.entry.end) - origin) * minutePx - scrollLeft;
        const room = (laneEnds.get(lane) ?? chartWidth + 200) - Math.max(left, 0) - 8;
        laneEnds.set(lane, left);
        if (right < 0 || left > chartWidth) continue;
        const selected = item.assignment.id === state.selectedAssignment;
        const y = top + 4 + lane * LANE;
        const data = { assignment: item.assignment.id, resource: row.resource.id };
        nodes.push(s('rect', { class: `entry${selected ? ' selected' : ''}`, x: left, y, width: Math.max(right - left, 3), height: LANE - 4, rx: 3, dataset: data }));
        // Its ends, where a drag changes the start or the end (when there is room to grab the middle).
        if (right - left >= 18) {
          for (const [edge, x] of [['start', left], ['end', right - EDGE]]) {
            nodes.push(s('rect', { class: 'entry-edge', x, y, width: EDGE, height: LANE - 4, dataset: { ...data, edge } }));
          }
        }
        const label = clip(state.pending.has(item.entry.id) ? `${item.entry.title} (${state.t.pending})` : item.entry.title, room);
        if (label) nodes.push(s('text', { class: 'entry-label', x: Math.max(left, 0) + 4, y: y + 13, text: label }));
      }
    }
    if (state.overlay) nodes.push(...state.overlay(this, visible, scrollTop, scrollLeft));
    this.chart.replaceChildren(...nodes);
  }

  renderCorner() {
    const { state } = this;
    const t = state.t;
    const parts = [h('span', { text: t.resourceColumn })];
    if (state.loadState.kind === 'loading') parts.push(h('span', { class: 'resource-state', text: t.loadingEntries }));
    if (state.loadState.kind === 'failed') {
      parts.push(h('span', { class: 'resource-state failed', text: t.loadFailed, title: state.loadState.reason }),
        h('button', { type: 'button', class: 'retry', text: t.retry, onclick: () => this.callbacks.retry() }));
    }
    if (state.resources.length === 0) parts.push(h('span', { class: 'resource-state', text: t.noResources }));
    this.corner.replaceChildren(...parts);
  }

  renderLabels(visible, scrollTop) {
    const { state } = this;
    this.list.replaceChildren(...visible.map((row) => {
      const selected = row.resource.id === state.selectedResource;
      const node = h('div', { class: 'row', role: 'row', 'aria-selected': String(selected), 'aria-expanded': String(!row.collapsed), dataset: { resource: row.resource.id } },
        h('button', { type: 'button', class: 'disclosure', tabindex: '-1', text: row.collapsed ? '▸' : '▾' }),
        h('span', { class: 'cell label', text: row.resource.label }));
      node.style.transform = `translateY(${row.top - scrollTop}px)`;
      node.style.height = `${row.height}px`;
      return node;
    }));
  }

  /** The resource row at a client y, or null. */
  rowAt(clientY) {
    const y = clientY - this.chart.getBoundingClientRect().top + this.scroller.scrollTop;
    return this.placed?.find((row) => y >= row.top && y < row.top + row.height) ?? null;
  }

  pointerDown(event) {
    if (event.button !== 0 || !this.state) return;
    const rect = event.target.closest('[data-assignment]');
    const row = this.rowAt(event.clientY);
    if (!rect) {
      if (row) this.callbacks.select(row.resource.id, null);
      return;
    }
    const source = this.placed.find((candidate) => candidate.resource.id === rect.dataset.resource);
    const target = source?.placed.find((placed) => placed.item.assignment.id === rect.dataset.assignment)?.item;
    if (!target) return;
    this.callbacks.select(source.resource.id, target.assignment.id);
    if (this.state.readOnly) return; // a viewer's entries do not move
    this.callbacks.press(target, rect.dataset.edge ?? 'move', event);
  }
}
