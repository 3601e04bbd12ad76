// The task list and timeline side by side on a ChartStage: pinned list columns (name with
// disclosure, kind, dates, progress) and the chart (three header rows, bars, diamonds, arrows),
// only the visible rows (row nodes recycled by row index). Drag a row onto a sibling to reorder,
// from a bar's end to another bar to link; a press on a bar, a bar's end or a diamond goes to the
// drags (bar-drags.mjs), whose ghosts and notes are drawn over the marks. Reads its state from the
// plan view and reports user intentions through callbacks. The list's widths follow list-layout.mjs.

import { h, s, follow, sameKey, setChanged, recycle } from './dom.mjs';
import { ChartStage, drawHeader, gridNodes, markNodes, HEADER_HEIGHT, BASE_ROWS } from './chart-draw.mjs';
import { mark } from './marks.mjs';
import { arrowsModule } from './plan-tree.mjs';
import { formatDate } from './strings.mjs';
import { COLUMNS, listLayout, defaultWidths, MIN_COLUMN } from './list-layout.mjs';

export const ROW_HEIGHT = 28;
export { COLUMNS };
/** The list's width with every column at its default width. */
export const LIST_WIDTH = COLUMNS.reduce((sum, [, width]) => sum + width, 0);
const BUFFER_ROWS = 4;
/** The marks a press moves (their ends, `bar-edge`, resize). */
const MOVED = new Set(['bar', 'bar-fill', 'milestone']);

export class TasksView extends ChartStage {
  /**
   * callbacks: select(id), toggle(id), activate(id), reorder(id, targetID, position), link(fromID, toID),
   * rendered(scrollLeft, chartWidth, firstRow, endRow), flashed(id) (a pushed bar's flash ended),
   * press(id, part, event) (a press on a bar: 'move', 'start' or 'end'; true when a drag follows it), fix(id),
   * toggleColumns() (a narrow list's toggle).
   */
  constructor(scroller, callbacks) {
    super(scroller, LIST_WIDTH);
    this.callbacks = callbacks;
    this.rowNodes = new Map();
    this.rowBox = h('div', {});
    Object.assign(this.rowBox.style, { position: 'absolute', left: '0px', right: '0px', top: '0px' });
    this.list.append(this.rowBox);
    this.drag = null;
    this.corner.setAttribute('role', 'row');
    this.grid = s('g', {});
    this.selectedRect = s('rect', { class: 'selected-row', x: 0, y: -ROW_HEIGHT, height: ROW_HEIGHT });
    this.marks = s('g', {});
    this.arrowLayer = s('g', {});
    this.linkLayer = s('g', {});
    this.overlay = s('g', {});
    this.rowGroups = new Map();
    this.chart.append(this.grid, this.selectedRect, this.marks, this.arrowLayer, this.overlay, this.linkLayer);
    this.splitter = h('div', { class: 'splitter', role: 'separator', tabindex: '0', 'aria-orientation': 'vertical', 'aria-valuemin': '0' });
    this.stage.append(this.splitter);
    this.list.addEventListener('pointerdown', (event) => this.listPointerDown(event));
    this.list.addEventListener('dblclick', (event) => this.activateAt(event));
    this.chart.addEventListener('pointerdown', (event) => this.chartPointerDown(event));
    this.chart.addEventListener('dblclick', (event) => this.activateAt(event));
    this.marks.addEventListener('animationend', (event) => {
      event.target.classList.remove('pushed');
      this.callbacks.flashed?.(event.target.dataset.id);
    });
  }

  /**
   * state: { copy, rows, indexByID, arrowsIn(top, bottom) (the arrows touching those rows), shape (a key that changes
   * with the rows or the arrows: plan-tree.mjs), valuesOf, language, t, selectedID, pendingIDs, axis, columnWidth,
   * today, shadow(task), calendar (calendar.mjs), figures (id → a schedule answer's figures, or null),
   * pushed(id) (ms since the task was pushed, or null), match(id) (a search's: 0 none, 1 a match, 2 the current one),
   * overlay(view, first, end, scrollTop, scrollLeft) (the drags' ghosts and notes: SVG nodes),
   * widths (list-layout.mjs readWidths), expanded (a narrow list shows its other columns) }.
   */
  update(state) {
    const layoutChanged = !this.state || state.rows !== this.state.rows || state.rows.length !== this.rowCount || state.axis !== this.state.axis
      || state.language !== this.state.language || state.columnWidth !== this.state.columnWidth;
    this.state = state;
    this.rowCount = state.rows.length;
    // A viewer (or a past version) is offered no drags: no reorder, no link handles.
    this.scroller.classList.toggle('read-only', !!state.readOnly);
    this.schedule(layoutChanged);
  }

  /** The chart's width in pixels, as measured at the start of the frame being drawn. */
  get chartWidth() {
    return Math.max((this.width ?? this.scroller.clientWidth) - this.listWidth, 0);
  }

  scrollToColumn(column) {
    this.scroller.scrollLeft = column * (this.state?.columnWidth ?? 40);
  }

  /** Scrolls vertically so that row `index` is visible. */
  reveal(index) {
    const bodyHeight = this.scroller.clientHeight - HEADER_HEIGHT;
    const top = index * ROW_HEIGHT;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + ROW_HEIGHT > this.scroller.scrollTop + bodyHeight) this.scroller.scrollTop = top + ROW_HEIGHT - bodyHeight;
  }

  get visibleRowCount() {
    return Math.max(Math.floor((this.scroller.clientHeight - HEADER_HEIGHT) / ROW_HEIGHT), 1);
  }

  render() {
    const started = performance.now();
    const state = this.state;
    if (!state) return;
    // Every measurement first, then only writes: no layout is forced in between.
    const width = this.scroller.clientWidth;
    const height = this.scroller.clientHeight;
    const scrollTop = this.scroller.scrollTop;
    const scrollLeft = Math.max(this.scroller.scrollLeft, 0);
    if (width === 0) return; // hidden (another view is shown): drawn when shown again
    this.width = width;
    if (this.placeList(width)) this.layoutDirty = true;
    if (this.layoutDirty) this.layout(width, height);
    this.layoutDirty = false;
    const bodyHeight = Math.max(height - HEADER_HEIGHT, 0);
    const first = Math.max(Math.floor(scrollTop / ROW_HEIGHT) - BUFFER_ROWS, 0);
    const end = Math.min(Math.ceil((scrollTop + bodyHeight) / ROW_HEIGHT) + BUFFER_ROWS, state.rows.length);
    this.renderRows(first, end, scrollTop);
    const headerKey = [state.axis, state.language, scrollLeft, width, this.listWidth, state.columnWidth];
    if (!sameKey(headerKey, this.headerKey)) {
      this.headerKey = headerKey;
      drawHeader(this.header, { axis: state.axis, language: state.language, columnWidth: state.columnWidth, scrollLeft, width: this.chartWidth });
    }
    this.renderChart(first, end, scrollTop, scrollLeft, bodyHeight);
    // For benchmarks (ops/bench-web): the script time of each frame, while one asks for it, and
    // when the first frame with the plan's rows was drawn.
    globalThis.chronosketchFrames?.push(performance.now() - started);
    if (!this.marked && state.rows.length > 0) {
      this.marked = true;
      performance.mark('chronosketch:first-render');
    }
    this.callbacks.rendered?.(scrollLeft, this.chartWidth, first, end);
  }

  /** Lays the list out for a scroller `width` wide (list-layout.mjs); true when its columns or width changed. */
  placeList(width) {
    const key = [width, this.state.widths, !!this.state.expanded];
    if (sameKey(key, this.listKey)) return false;
    this.listKey = key;
    const layout = listLayout(width, this.state.widths ?? defaultWidths(), !!this.state.expanded);
    if (JSON.stringify(layout) === JSON.stringify(this.listLayout)) return false;
    this.listLayout = layout;
    this.listWidth = layout.listWidth;
    this.listShown = layout.shownWidth;
    for (const node of this.rowNodes.values()) this.sizeCells(node);
    return true;
  }

  /** Gives a row's cells their widths; those behind the toggle are hidden. */
  sizeCells(node) {
    const widths = new Map(this.listLayout.columns);
    for (const cell of node.children) {
      const width = widths.get(cell.dataset.column);
      cell.hidden = width === undefined;
      if (width !== undefined) cell.style.width = `${width}px`;
    }
  }

  layout(width, height) {
    const { state, listLayout: placed } = this;
    super.layout(width, height, state.axis.columnCount * state.columnWidth, state.rows.length * ROW_HEIGHT);
    const expanded = placed.shownWidth > placed.listWidth;
    this.scroller.classList.toggle('narrow', placed.narrow);
    this.scroller.classList.toggle('expanded', expanded);
    // Made anew only when their set or language changes: a divider keeps the focus.
    const key = [state.t, placed.narrow, expanded];
    if (!sameKey(key, this.cornerKey)) {
      this.cornerKey = key;
      this.corner.replaceChildren(...placed.columns.map(([name]) => this.columnHeader(name, placed.narrow)));
      if (placed.narrow) {
        const label = expanded ? state.t.fewerColumns : state.t.moreColumns;
        this.corner.firstChild.append(h('button', { type: 'button', class: 'columns-toggle', 'aria-expanded': String(expanded),
          'aria-label': label, title: label, text: expanded ? '«' : '»', onclick: () => this.callbacks.toggleColumns?.() }));
      }
      this.splitter.title = state.t.splitter;
      this.splitter.setAttribute('aria-label', state.t.splitter);
    }
    placed.columns.forEach(([, columnWidth], index) => {
      const cell = this.corner.children[index];
      cell.style.width = `${columnWidth}px`;
      cell.querySelector('.grip')?.setAttribute('aria-valuenow', String(columnWidth));
    });
    this.splitter.hidden = placed.narrow;
    this.splitter.setAttribute('aria-valuenow', String(placed.listWidth));
    this.splitter.setAttribute('aria-valuemax', String(placed.maxSplit));
    Object.assign(this.splitter.style, { left: `${placed.listWidth - 3}px`, top: '0px', height: `${height}px` });
  }

  /** A column's header, with its divider (list-resize.mjs) unless narrow. */
  columnHeader(name, narrow) {
    const label = this.state.t[`${name === 'name' ? 'task' : name}Column`];
    return h('span', { role: 'columnheader', dataset: { column: name } }, h('span', { class: 'heading', text: label }),
      narrow ? null : h('span', { class: 'grip', role: 'separator', tabindex: '0', 'aria-orientation': 'vertical',
        'aria-label': this.state.t.columnResize(label), 'aria-valuemin': String(MIN_COLUMN), dataset: { column: name } }));
  }

  renderRows(first, end, scrollTop) {
    const base = Math.floor(first / BASE_ROWS) * BASE_ROWS;
    this.rowBox.style.transform = `translateY(${base * ROW_HEIGHT - scrollTop}px)`;
    recycle(this.rowNodes, first, end, () => this.rowBox.appendChild(this.rowNode()), (node, index) => {
      const top = (index - base) * ROW_HEIGHT;
      if (node.top !== top) node.style.transform = `translateY(${(node.top = top)}px)`;
      this.fillRow(node, this.state.rows[index], index);
    });
  }

  rowNode() {
    const cells = COLUMNS.map(([name]) => h('div', { class: `cell ${name}`, role: 'gridcell', dataset: { column: name } }));
    const [name] = cells;
    name.append(h('button', { type: 'button', class: 'disclosure', tabindex: '-1' }), h('span', { class: 'label' }),
      h('span', { class: 'marker' }));
    cells[3].classList.add('number');
    const node = h('div', { class: 'row', role: 'row' }, ...cells);
    this.sizeCells(node);
    return node;
  }

  fillRow(node, row, index) {
    const { state } = this;
    const { task } = row;
    const selected = task.id === state.selectedID;
    const pending = state.pendingIDs.has(task.id);
    const found = state.match?.(task.id) ?? 0;
    const key = [task, state.copy.summaries[task.id], selected, pending, row.hasChildren, row.collapsed, row.depth, state.language, found];
    if (sameKey(key, node.key)) return;
    node.key = key;
    node.classList.toggle('match', found > 0);
    node.classList.toggle('current', found === 2);
    const [name, kind, dates, progress] = node.children;
    const t = state.t;
    Object.assign(node.dataset, { id: task.id, index: String(index) });
    node.setAttribute('aria-selected', String(selected));
    node.setAttribute('aria-level', String(row.depth + 1));
    if (row.hasChildren) node.setAttribute('aria-expanded', String(!row.collapsed));
    else node.removeAttribute('aria-expanded');
    name.classList.toggle('summary', task.kind === 'summary');
    name.style.paddingLeft = `${6 + row.depth * 16}px`;
    const [disclosure, label, marker] = name.children;
    const texts = cellTexts(row, state.valuesOf(task), state.language, t);
    disclosure.textContent = texts.disclosure;
    disclosure.classList.toggle('leaf', !row.hasChildren);
    label.textContent = texts.title;
    marker.textContent = pending ? `(${t.pending})` : '';
    kind.textContent = texts.kind;
    dates.textContent = texts.dates;
    progress.textContent = texts.progress;
  }

  /**
   * The chart body. Vertical scrolling only moves the group of the rows' marks (translate) and adds
   * or drops the rows that enter or leave; the grid, and each row's marks, are redrawn only when
   * the horizontal position, the axis or the row's data changed; the arrows follow arrow-layer.mjs.
   */
  renderChart(first, end, scrollTop, scrollLeft, bodyHeight) {
    const { state } = this;
    const width = this.chartWidth;
    const horizontal = [state.axis, scrollLeft, width, bodyHeight, state.today, state.language, state.calendar, state.columnWidth];
    if (!sameKey(horizontal, this.horizontal)) {
      this.horizontal = horizontal;
      this.grid.replaceChildren(...gridNodes({ axis: state.axis, columnWidth: state.columnWidth, scrollLeft, width,
        height: bodyHeight, today: state.today, calendar: state.calendar }));
    }
    const selectedIndex = state.indexByID.get(state.selectedID);
    setChanged(this.selectedRect, 'width', width);
    setChanged(this.selectedRect, 'y', selectedIndex === undefined ? -ROW_HEIGHT : selectedIndex * ROW_HEIGHT - scrollTop);
    const base = Math.floor(first / BASE_ROWS) * BASE_ROWS;
    setChanged(this.marks, 'transform', `translate(0 ${base * ROW_HEIGHT - scrollTop})`);
    recycle(this.rowGroups, first, end, () => this.marks.appendChild(s('g', {})), (group, index) => {
      const { task } = state.rows[index];
      setChanged(group, 'transform', `translate(0 ${(index - base) * ROW_HEIGHT})`);
      const values = state.valuesOf(task);
      const shadowValues = state.shadow(task);
      const figure = state.figures?.[task.id];
      const pushed = state.pushed(task.id);
      const key = [task, values, shadowValues, task.id === state.selectedID, figure, pushed !== null, ...horizontal];
      if (sameKey(key, group.key)) return;
      group.key = key;
      group.replaceChildren(...markNodes(mark(state.axis, task, values), {
        id: task.id, top: 0, height: ROW_HEIGHT, columnWidth: state.columnWidth, scrollLeft,
        unscheduled: state.t.unscheduled, shadow: shadowValues ? mark(state.axis, task, shadowValues) : null,
        selected: task.id === state.selectedID, critical: figure?.critical, pushed,
      }));
    });
    this.renderArrows(first, end, scrollTop, scrollLeft);
    const over = state.overlay?.(this, first, end, scrollTop, scrollLeft) ?? [];
    if (over.length > 0 || this.overlay.firstChild) this.overlay.replaceChildren(...over);
    const line = this.drag?.kind === 'link' ? this.drag.line : null;
    if (this.linkLayer.firstChild !== line) this.linkLayer.replaceChildren(...(line ? [line] : []));
  }

  /** The arrows near the rows shown (arrow-layer.mjs), once they are here. */
  renderArrows(first, end, scrollTop, scrollLeft) {
    if (!arrowsModule) return;
    this.arrows ??= new arrowsModule.ArrowLayer(this.arrowLayer, ROW_HEIGHT);
    this.arrows.render(this.state, first, end, scrollTop, scrollLeft, this.chartWidth);
  }

  rowIndexAt(clientY) {
    const top = this.list.getBoundingClientRect().top;
    const index = Math.floor((clientY - top + this.scroller.scrollTop) / ROW_HEIGHT);
    return index >= 0 && index < (this.state?.rows.length ?? 0) ? index : null;
  }

  activateAt(event) {
    const index = this.rowIndexAt(event.clientY);
    if (index !== null) this.callbacks.activate(this.state.rows[index].task.id);
  }

  listPointerDown(event) {
    if (event.button !== 0 || !this.state) return;
    const index = this.rowIndexAt(event.clientY);
    if (index === null) return;
    const { task } = this.state.rows[index];
    if (event.target.closest('.disclosure')) {
      this.callbacks.toggle(task.id);
      return;
    }
    this.callbacks.select(task.id);
    if (this.state.readOnly) return;
    this.drag = { kind: 'reorder', id: task.id, startY: event.clientY, moved: false };
    follow(this.list, event, { move: (moveEvent) => this.reorderMove(moveEvent), up: () => this.reorderEnd() });
  }

  reorderMove(event) {
    const drag = this.drag;
    if (!drag || drag.kind !== 'reorder') return;
    if (!drag.moved && Math.abs(event.clientY - drag.startY) < 5) return;
    drag.moved = true;
    const index = this.rowIndexAt(event.clientY);
    drag.target = null;
    for (const node of this.rowNodes.values()) node.classList.remove('drop-before', 'drop-after', 'dragging');
    this.rowNodes.get(this.state.indexByID.get(drag.id))?.classList.add('dragging');
    if (index === null) return;
    const target = this.state.rows[index].task;
    const offset = event.clientY - this.list.getBoundingClientRect().top + this.scroller.scrollTop - index * ROW_HEIGHT;
    drag.target = { id: target.id, position: offset < ROW_HEIGHT / 2 ? 'before' : 'after' };
    this.rowNodes.get(index)?.classList.add(drag.target.position === 'before' ? 'drop-before' : 'drop-after');
  }

  reorderEnd() {
    const drag = this.drag;
    this.drag = null;
    for (const node of this.rowNodes.values()) node.classList.remove('drop-before', 'drop-after', 'dragging');
    if (drag?.moved && drag.target && drag.target.id !== drag.id) this.callbacks.reorder(drag.id, drag.target.id, drag.target.position);
  }

  chartPointerDown(event) {
    if (event.button !== 0 || !this.state) return;
    const target = event.target;
    const index = this.rowIndexAt(event.clientY);
    if (index !== null) this.callbacks.select(this.state.rows[index].task.id);
    if (this.state.readOnly || !target.dataset?.id) return;
    if (target.dataset.fix) return this.callbacks.fix(target.dataset.id);
    const part = target.dataset.edge ?? (MOVED.has(target.classList[0]) ? 'move' : null);
    if (part && this.callbacks.press(target.dataset.id, part, event)) return;
    if (target.dataset.handle !== 'end') return;
    event.preventDefault();
    const box = this.chart.getBoundingClientRect();
    const x1 = Number(target.getAttribute('cx'));
    const y1 = Number(target.getAttribute('cy'));
    const line = s('line', { class: 'link-line', x1, y1, x2: x1, y2: y1 });
    this.drag = { kind: 'link', id: target.dataset.id, line };
    const move = (moveEvent) => {
      line.setAttribute('x2', moveEvent.clientX - box.left);
      line.setAttribute('y2', moveEvent.clientY - box.top);
      this.schedule();
    };
    follow(this.chart, event, { move, up: (upEvent) => {
      const drag = this.drag;
      this.drag = null;
      this.schedule();
      const over = upEvent.type === 'pointerup' ? this.rowIndexAt(upEvent.clientY) : null;
      if (over !== null) this.callbacks.link(drag.id, this.state.rows[over].task.id);
    } });
  }
}

/** What a row's cells say (also drawn into the chart's PNG): disclosure, title, kind, dates, progress. */
export function cellTexts({ task, hasChildren, collapsed }, values, language, t) {
  const date = (day) => formatDate(language, day);
  const dates = values.start === null ? (task.kind === 'summary' ? '—' : t.unscheduled)
    : task.kind === 'milestone' ? date(values.start) : `${date(values.start)} – ${date(values.lastDate)}`;
  return { disclosure: hasChildren ? (collapsed ? '▸' : '▾') : '', title: task.title, kind: t[task.kind] ?? task.kind,
    dates, progress: values.progress === null ? '' : `${Math.round(values.progress)} %` };
}
