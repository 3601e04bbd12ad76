// What the task chart and the resources chart share: the stage they are drawn on, and the time
// axis in SVG — the three header rows (month, ISO week with its week-year, day or column range),
// the grid under the rows (column lines, the plan's non-working days, today) — and the task marks
// (bars with progress, summary bars, milestone diamonds, "Unscheduled", baseline shadows,
// dependency arrows; critical and just pushed tasks marked). Only what lies in the visible window is drawn; positions are in CSS pixels
// of the visible area.

import { h, s, textWidth } from './dom.mjs';
import { column, fitting, x as axisX } from './axis.mjs';
import { headerTiers, shadesDays, gridLines } from './scales.mjs';
import { isoWeekday, formatCivil } from './dates.mjs';
import { nonWorkingRuns } from './calendar.mjs';

export const HEADER_ROW = 22;
export const HEADER_HEIGHT = HEADER_ROW * 3;
/**
 * The task chart's rows and arrows are placed from a base row moved in steps this large, inside
 * one box (the list's) and one group (the chart's) that alone follow the scroll: a frame moves two
 * nodes, not every row, and coordinates stay small numbers, which draw exactly.
 */
export const BASE_ROWS = 1024;
const DAY_FONT = '11px system-ui, -apple-system, \'Segoe UI\', sans-serif';

/**
 * What both charts are built on: in the scroller, a sticky stage the size of the viewport (the
 * pinned list under its corner, the header and body SVGs beside them) over a spacer the size of
 * the whole chart, so that only what is visible is in the DOM. Scrolling and resizing ask for one
 * `render()` (the subclass's) in the next frame.
 */
export class ChartStage {
  constructor(scroller, listWidth) {
    this.scroller = scroller;
    this.listWidth = listWidth;
    this.state = null;
    this.frame = 0;
    this.stage = h('div', { class: 'stage' });
    this.corner = h('div', { class: 'corner' });
    this.header = s('svg', { class: 'chart-head', 'aria-hidden': 'true' });
    this.list = h('div', { class: 'list-body', role: 'rowgroup' });
    this.chart = s('svg', { class: 'chart-body' });
    this.stage.append(this.corner, this.header, this.list, this.chart);
    this.spacer = h('div', { class: 'spacer-block' });
    scroller.append(this.stage, this.spacer);
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.observer = new ResizeObserver(() => this.schedule(true));
    this.observer.observe(scroller);
  }

  /** Renders in the next frame (once however often it is asked); `layout`: sizes changed too. */
  schedule(layout = false) {
    this.layoutDirty = this.layoutDirty || layout;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Leaves the scroller as it was found (another plan opens in it): no nodes, no listeners. */
  destroy() {
    this.observer.disconnect();
    cancelAnimationFrame(this.frame);
    this.scroller.replaceWith(this.scroller.cloneNode(false));
  }

  /** Sizes the parts for a viewport of `width` × `height` and a chart of `contentWidth` × `contentHeight`. */
  layout(width, height, contentWidth, contentHeight) {
    const px = (value) => `${value}px`;
    const list = this.listWidth;
    // Wider than where the chart begins when a narrow list shows its other columns over it.
    const shown = Math.max(this.listShown ?? list, list);
    const body = Math.max(height - HEADER_HEIGHT, 0);
    Object.assign(this.stage.style, { width: px(width), height: px(height) });
    Object.assign(this.corner.style, { left: '0px', top: '0px', width: px(shown), height: px(HEADER_HEIGHT) });
    Object.assign(this.list.style, { left: '0px', top: px(HEADER_HEIGHT), width: px(shown), height: px(body) });
    for (const [svg, top, svgHeight] of [[this.header, 0, HEADER_HEIGHT], [this.chart, HEADER_HEIGHT, body]]) {
      svg.setAttribute('width', Math.max(width - list, 0));
      svg.setAttribute('height', svgHeight);
      Object.assign(svg.style, { left: px(list), top: px(top) });
    }
    Object.assign(this.spacer.style, { width: px(list + contentWidth), height: px(HEADER_HEIGHT + contentHeight), marginTop: px(-height) });
  }
}

/** The visible columns [first, end) for a scroll offset and width in pixels. */
export function visibleColumns(axis, columnWidth, scrollLeft, width) {
  const first = Math.max(Math.floor(scrollLeft / columnWidth), 0);
  const end = Math.min(Math.ceil((scrollLeft + width) / columnWidth), axis.columnCount);
  return [first, Math.max(end, first)];
}

/** Replaces `svg`'s content with the three header rows. */
export function drawHeader(svg, { axis, language, columnWidth, scrollLeft, width }) {
  const nodes = [s('rect', { class: 'head-bg', x: 0, y: 0, width, height: HEADER_HEIGHT })];
  const [first, end] = visibleColumns(axis, columnWidth, scrollLeft, width);
  const px = (units) => units * columnWidth - scrollLeft;
  const tiers = headerTiers(axis.zoom);
  const rows = tiers.filter(Boolean).map((sections) => sections(axis, language, first, end));
  rows.forEach((sections, row) => {
    const top = row * HEADER_ROW;
    for (const section of sections) {
      const left = px(section.startX);
      const right = px(section.endX);
      nodes.push(s('line', { class: 'head-line', x1: left, x2: left, y1: top, y2: top + HEADER_ROW }));
      // The label stays at the visible left edge of its section until the next one pushes it away.
      const room = (label) => textWidth(label) + 6 <= right - Math.max(left, 0);
      const label = fitting(section.label, room);
      if (label === null) continue;
      const labelX = Math.min(Math.max(left, 0) + 3, right - textWidth(label) - 3);
      // A shortened label keeps the whole one (with the ISO week-year) as its title.
      nodes.push(s('text', { x: labelX, y: top + 15, dataset: { section: section.key } }, label,
        label === section.label[0] ? null : s('title', { text: section.label[0] })));
    }
    nodes.push(s('line', { class: 'head-line', x1: 0, x2: width, y1: top + HEADER_ROW, y2: top + HEADER_ROW }));
  });
  for (let index = first; tiers[2] === null && index < end; index += 1) {
    const col = column(axis, index);
    const left = px(col.startX);
    const cellWidth = (col.endX - col.startX) * columnWidth;
    nodes.push(s('line', { class: 'head-line', x1: left, x2: left, y1: HEADER_ROW * 2, y2: HEADER_HEIGHT }));
    const label = fitting(col.label, (text) => textWidth(text, DAY_FONT) + 4 <= cellWidth);
    if (label !== null) {
      const labelWidth = textWidth(label, DAY_FONT);
      nodes.push(s('text', { class: 'day', x: left + (cellWidth - labelWidth) / 2, y: HEADER_ROW * 2 + 15, text: label }));
    }
  }
  svg.replaceChildren(...nodes);
}

/**
 * The grid under the rows: the non-working days of `calendar` (calendar.mjs) at every zoom — or,
 * when every day works, light weekend bands at one day per column — column lines, today's line.
 */
export function gridNodes({ axis, columnWidth, scrollLeft, width, height, today, calendar = null }) {
  const nodes = [];
  const [first, end] = visibleColumns(axis, columnWidth, scrollLeft, width);
  const dayWidth = columnWidth / axis.zoom;
  const shaded = calendar && !calendar.allWorking && shadesDays(axis.zoom, columnWidth);
  const runs = shaded ? nonWorkingRuns(calendar, axis.start + first * axis.zoom, Math.min(axis.start + end * axis.zoom, axis.end)) : [];
  for (const [from, to] of runs) {
    nodes.push(s('rect', { class: 'off', x: (from - axis.start) * dayWidth - scrollLeft, y: 0, width: (to - from) * dayWidth, height,
      dataset: { from: formatCivil(from), to: formatCivil(to) } }));
  }
  // Between columns, or where the bottom row's weeks or months begin.
  const coarse = gridLines(axis, first, end);
  const lines = coarse ?? [];
  for (let index = first; !coarse && index < end; index += 1) {
    if (!shaded && axis.zoom === 1 && isoWeekday(axis.start + index) >= 6) {
      nodes.push(s('rect', { class: 'weekend', x: index * columnWidth - scrollLeft, y: 0, width: columnWidth, height }));
    }
    lines.push(index);
  }
  for (const line of lines) {
    const left = line * columnWidth - scrollLeft;
    nodes.push(s('line', { class: 'grid', x1: left, x2: left, y1: 0, y2: height }));
  }
  if (today >= axis.start && today < axis.end) {
    const left = (axisX(axis, today) + 0.5 / axis.zoom) * columnWidth - scrollLeft;
    if (left >= 0 && left <= width) nodes.push(s('line', { class: 'today-line', x1: left, x2: left, y1: 0, y2: height }));
  }
  return nodes;
}

/**
 * The nodes of one row's mark at vertical offset `top` (row height `height`): a bar with its
 * progress, a summary bar, a diamond, the Unscheduled label; `shadow` (a baseline's mark) under it.
 * Every node carries data-id so that events find the task (and its tooltip, bar-tooltip.mjs).
 * `critical` tints a bar or diamond, `pushed` (ms since the push, or null) flashes it.
 */
export function markNodes(mark, { id, top, height, columnWidth, scrollLeft, unscheduled, shadow, selected, critical, pushed }) {
  const px = (units) => units * columnWidth - scrollLeft;
  const nodes = [];
  const tint = (name) => name + (critical ? ' critical' : '') + (pushed === null || pushed === undefined ? '' : ' pushed');
  if (shadow && shadow.type === 'bar') {
    nodes.push(s('rect', { class: 'baseline', x: px(shadow.visibleStartX), y: top + height - 8,
      width: Math.max((shadow.visibleEndX - shadow.visibleStartX) * columnWidth, 2), height: 4, dataset: { id } }));
  } else if (shadow && shadow.type === 'milestone') {
    nodes.push(s('rect', { class: 'baseline', x: px(shadow.x) - 3, y: top + height - 8, width: 6, height: 4, dataset: { id } }));
  }
  if (mark.type === 'bar') {
    const left = px(mark.visibleStartX);
    const barWidth = Math.max((mark.visibleEndX - mark.visibleStartX) * columnWidth, 2);
    if (mark.isSummary) {
      nodes.push(s('rect', { class: 'summary-bar', x: left, y: top + 9, width: barWidth, height: 7, dataset: { id } }));
    } else {
      nodes.push(s('rect', { class: tint('bar'), x: left, y: top + 6, width: barWidth, height: height - 14, rx: 3, dataset: { id } }));
      const filled = (mark.visibleFilledEndX - mark.visibleStartX) * columnWidth;
      if (filled > 0) nodes.push(s('rect', { class: tint('bar-fill'), x: left, y: top + 6, width: filled, height: height - 14, rx: 3, dataset: { id } }));
      // Its ends, where a drag changes the start or the end (when the middle is left to grab), and
      // beyond the end the handle a link is drawn from.
      if (barWidth >= 18) {
        for (const [edge, x] of [['start', left], ['end', left + barWidth - 6]]) {
          nodes.push(s('rect', { class: 'bar-edge', x, y: top + 6, width: 6, height: height - 14, dataset: { id, edge } }));
        }
      }
      nodes.push(s('circle', { class: selected ? 'handle selected' : 'handle', cx: left + barWidth + 7, cy: top + height / 2 - 1, r: 4, dataset: { id, handle: 'end' } }));
    }
  } else if (mark.type === 'milestone') {
    const cx = px(mark.x);
    const cy = top + height / 2 - 1;
    nodes.push(s('path', { class: tint('milestone'), d: `M${cx} ${cy - 7}L${cx + 7} ${cy}L${cx} ${cy + 7}L${cx - 7} ${cy}Z`, dataset: { id } }));
    nodes.push(s('circle', { class: selected ? 'handle selected' : 'handle', cx: cx + 10, cy, r: 4, dataset: { id, handle: 'end' } }));
  } else if (mark.type === 'unscheduled') {
    nodes.push(s('text', { class: 'unscheduled', x: 8, y: top + height / 2 + 4, text: unscheduled, dataset: { id } }));
  }
  // A push seen late (a row scrolled in, a redraw) goes on where it was, not from the start.
  if (pushed) for (const node of nodes) if (node.classList.contains('pushed')) node.style.animationDelay = `-${Math.round(pushed)}ms`;
  return nodes;
}
