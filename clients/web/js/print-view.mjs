// Printing (loaded after the first render): while the page prints — Ctrl+P, the toolbar's Print,
// or print media emulated — the page is replaced by the whole plan on pages (print-pages.mjs):
// every row of the list (as disclosed or filtered on screen) beside the chart over the plan's
// dates at the chart's zoom, with the header rows, non-working days, bars, diamonds, baseline
// shadows, arrows and the critical path, drawn by chart-draw.mjs as on screen. print.css hides
// everything else; the pages are taken down again after printing.

import { h, s, $ } from './dom.mjs';
import { drawHeader, gridNodes, markNodes, HEADER_HEIGHT } from './chart-draw.mjs';
import { mark } from './marks.mjs';
import { criticalArrow } from './arrows.mjs';
import { arrowNodes } from './arrow-layer.mjs';
import { ROW_HEIGHT, cellTexts } from './tasks-view.mjs';
import { arrowLabel } from './wording.mjs';
import { planRange } from './scales.mjs';
import { formatDate } from './strings.mjs';
import { today as todayOf } from './dates.mjs';
import { PAGE, PAGE_CHART, rowsPerPage, printColumns, printPages } from './print-pages.mjs';

let installed = false;

export function install(app) {
  if (installed) return;
  installed = true;
  document.head.append(h('link', { rel: 'stylesheet', href: 'print.css', media: 'print' }));
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? build(app.planView) : clear()));
  addEventListener('beforeprint', () => build(app.planView));
  addEventListener('afterprint', clear);
}

/** The toolbar's Print: the pages, then the browser's print dialog. */
export function printPlan(view) {
  build(view);
  print();
}

function clear() {
  $('#print')?.remove();
}

/** Replaces the print pages with those of `view`'s plan as it is shown (none while no plan is open). */
function build(view) {
  clear();
  if (!view?.copy || !view.axis || $('#plan-view').hidden) return;
  const tree = view.derive();
  const { rows } = tree;
  const { axis, columnWidth, language, t } = view;
  const columnsPerPage = Math.max(Math.floor(PAGE_CHART / columnWidth), 1);
  const [firstColumn, endColumn] = printColumns(axis, planRange(view.copy.tasks), columnsPerPage);
  const pages = printPages({ rowCount: rows.length, firstColumn, endColumn, perPage: rowsPerPage(ROW_HEIGHT, HEADER_HEIGHT), columnsPerPage });
  const frame = { view, tree, rows, axis, columnWidth, language, t, figures: view.historical ? null : view.client.figures?.tasks ?? null,
    calendar: view.calendar(), today: todayOf(), count: pages.length };
  const root = h('div', { id: 'print' }, ...pages.map((page) => pageNode(frame, page)));
  root.style.display = 'none'; // print.css shows it, in print only
  document.body.append(root);
}

function pageNode(frame, page) {
  const { axis, columnWidth, language, t, view } = frame;
  const [first, end] = page.rows;
  const [from, to] = page.columns;
  const days = `${formatDate(language, axis.start + from * axis.zoom)} – ${formatDate(language, Math.min(axis.start + to * axis.zoom, axis.end) - 1)}`;
  const heading = h('div', { class: 'print-heading' }, h('span', { text: t.printHeading(view.copy.title || view.plan, view.copy.version) }),
    h('span', { text: t.printPage(page.number, frame.count, end > first ? `${first + 1}–${end}` : '–', days) }));
  const list = h('div', { class: 'print-list' }, h('div', { class: 'print-head' },
    ...PAGE.columns.map(([name, width]) => cell(t[`${name === 'name' ? 'task' : name}Column`], width))));
  for (let index = first; index < end; index += 1) list.append(rowNode(frame, frame.rows[index]));
  const width = (to - from) * columnWidth;
  const head = s('svg', { class: 'chart-head', width, height: HEADER_HEIGHT });
  drawHeader(head, { axis, language, columnWidth, scrollLeft: from * columnWidth, width });
  return h('section', { class: 'print-page', dataset: { page: String(page.number) } }, heading, list,
    h('div', { class: 'print-chart' }, head, chartBody(frame, page)));
}

function cell(text, width, className = '') {
  const node = h('span', { class: className, text });
  node.style.width = `${width}px`;
  return node;
}

function rowNode(frame, row) {
  const { task } = row;
  const texts = cellTexts(row, frame.view.valuesOf(task), frame.language, frame.t);
  const [[, nameWidth], [, datesWidth]] = PAGE.columns;
  const title = cell(texts.title, nameWidth, 'title');
  title.style.paddingLeft = `${6 + row.depth * 12}px`;
  return h('div', { class: `print-row ${task.kind}`, dataset: { id: task.id } }, title, cell(texts.dates, datesWidth));
}

/** The chart's body for the page's rows and columns: the grid, each row's mark, the arrows touching them. */
function chartBody(frame, page) {
  const { view, rows, axis, columnWidth, figures, calendar, language } = frame;
  const [first, end] = page.rows;
  const scrollLeft = page.columns[0] * columnWidth;
  const width = (page.columns[1] - page.columns[0]) * columnWidth;
  const height = Math.max(end - first, 0) * ROW_HEIGHT;
  const body = s('svg', { class: 'chart-body', width, height });
  body.append(...gridNodes({ axis, columnWidth, scrollLeft, width, height, today: frame.today, calendar }));
  for (let index = first; index < end; index += 1) {
    const { task } = rows[index];
    const shadow = view.baseline?.values.get(task.id) ?? null;
    body.append(s('g', { transform: `translate(0 ${(index - first) * ROW_HEIGHT})` }, ...markNodes(mark(axis, task, view.valuesOf(task)), {
      id: task.id, top: 0, height: ROW_HEIGHT, columnWidth, scrollLeft, unscheduled: frame.t.unscheduled,
      shadow: shadow ? mark(axis, task, shadow) : null, selected: false, critical: figures?.[task.id]?.critical, pushed: null,
    })));
  }
  const dayWidth = columnWidth / axis.zoom;
  for (const arrow of frame.tree.arrowsIn(first, end)) {
    const [x1, x2] = [arrow.fromDay, arrow.toDay].map((day) => (day - axis.start) * dayWidth - scrollLeft);
    const [y1, y2] = [arrow.fromRow, arrow.toRow].map((row) => (row - first) * ROW_HEIGHT + ROW_HEIGHT / 2 - 1);
    body.append(...arrowNodes(x1, y1, x2, y2, arrow, arrowLabel(language, arrow.dependency), criticalArrow(arrow, figures, calendar)));
  }
  return body;
}
