// The task chart as a picture (no DOM): what "Chart as PNG" draws, made from the data the view
// holds, not from its DOM — the rows on screen with their list cells, the three header rows, the
// grid (non-working days, column lines, today's line), bars with progress, summary bars, milestone
// diamonds, baseline shadows and the arrows — as shapes in CSS pixels at the page's positions
// (tasks-view.mjs, chart-draw.mjs), which chart-png.mjs paints on a canvas. Handles, the
// selection, "(pending)" and the search's highlight are the page's, not the plan's, and are left out.

import { column, fitting, x as axisX } from './axis.mjs';
import { headerTiers, gridLines, shadesDays } from './scales.mjs';
import { isoWeekday } from './dates.mjs';
import { nonWorkingRuns } from './calendar.mjs';
import { mark } from './marks.mjs';
import { arrowPath, criticalArrow } from './arrows.mjs';
import { arrowLabel } from './wording.mjs';
import { HEADER_ROW, HEADER_HEIGHT, visibleColumns } from './chart-draw.mjs';
import { COLUMNS, LIST_WIDTH, ROW_HEIGHT, cellTexts } from './tasks-view.mjs';

const FACE = 'system-ui, -apple-system, \'Segoe UI\', sans-serif';
/** The fonts a picture names (the page's: 13 px in the list, 12 px in the chart, 11 px days, 10 px arrow labels). */
export const FONTS = {
  list: `13px ${FACE}`, strong: `600 13px ${FACE}`, label: `12px ${FACE}`, day: `11px ${FACE}`, small: `10px ${FACE}`,
  italic: `italic 12px ${FACE}`,
};

/** A rough text width (node has no canvas): 0.6 em a character. */
export const roughWidth = (text, font) => String(text).length * 0.6 * Number(/(\d+)px/.exec(FONTS[font])[1]);

/**
 * The picture of the chart as shown: `state` is what the task view draws from (tasks-view.mjs
 * update: rows, valuesOf, language, t, axis, columnWidth, today, calendar, shadow, figures, arrowsIn),
 * `shown` where it is scrolled and how large it is ({ scrollTop, scrollLeft, width, height } in CSS
 * pixels). The rows are those on screen from the first whole one; the columns those on screen.
 * Returns { width, height, clips: { head, body } ([x, y, width, height]), shapes }: each shape a
 * `rect` ([x, y, w, h], `fill`, `radius`), `line` ([x1, y1, x2, y2], `stroke`, `width`), `path` (SVG
 * path data, `fill` or `stroke`) or `text` (`x`, `y` its baseline, `font`, `fill`, `align`,
 * `maxWidth`), colours named as the page's custom properties (`bar` is --bar), and `clip` 'head'
 * or 'body' for what must stay inside the chart's header or body.
 */
export function chartPicture(state, shown, measure = roughWidth) {
  const chartWidth = Math.max(Math.round(shown.width) - LIST_WIDTH, 0);
  const first = Math.min(Math.max(Math.floor(shown.scrollTop / ROW_HEIGHT), 0), state.rows.length);
  const end = Math.min(first + Math.max(Math.ceil((shown.height - HEADER_HEIGHT) / ROW_HEIGHT), 0), state.rows.length);
  const bodyHeight = (end - first) * ROW_HEIGHT;
  const picture = {
    width: LIST_WIDTH + chartWidth, height: HEADER_HEIGHT + bodyHeight, shapes: [],
    clips: { head: [LIST_WIDTH, 0, chartWidth, HEADER_HEIGHT], body: [LIST_WIDTH, HEADER_HEIGHT, chartWidth, bodyHeight] },
  };
  const frame = { ...state, first, end, chartWidth, bodyHeight, scrollLeft: Math.max(shown.scrollLeft, 0), measure };
  const add = (shape) => picture.shapes.push(shape);
  add({ rect: [0, 0, picture.width, picture.height], fill: 'bg' });
  drawGrid(add, frame);
  for (let index = first; index < end; index += 1) drawRow(add, frame, index);
  drawArrows(add, frame);
  drawHead(add, frame);
  drawCorner(add, frame);
  add({ line: [LIST_WIDTH + 0.5, 0, LIST_WIDTH + 0.5, picture.height], stroke: 'line' });
  add({ line: [0, HEADER_HEIGHT - 0.5, picture.width, HEADER_HEIGHT - 0.5], stroke: 'line' });
  return picture;
}

/** A position on the axis (in columns) as x in the picture. */
const px = (frame, units) => LIST_WIDTH + units * frame.columnWidth - frame.scrollLeft;
/** The top of row `index` in the picture. */
const top = (frame, index) => HEADER_HEIGHT + (index - frame.first) * ROW_HEIGHT;

/** The column headers over the list. */
function drawCorner(add, { t }) {
  let left = 0;
  for (const [name, width] of COLUMNS) {
    add({ text: t[`${name === 'name' ? 'task' : name}Column`], x: left + 6, y: HEADER_HEIGHT - 8, font: 'strong', fill: 'muted', maxWidth: width - 12 });
    left += width;
  }
}

/** The header rows (month, week and day or column range; years, quarters, months at the coarser scales), as chart-draw.mjs drawHeader. */
function drawHead(add, frame) {
  const { axis, language, columnWidth, scrollLeft, chartWidth, measure } = frame;
  const [first, end] = visibleColumns(axis, columnWidth, scrollLeft, chartWidth);
  const tiers = headerTiers(axis.zoom);
  tiers.filter(Boolean).map((sections) => sections(axis, language, first, end)).forEach((sections, row) => {
    const y = row * HEADER_ROW;
    for (const section of sections) {
      const [left, right] = [px(frame, section.startX), px(frame, section.endX)];
      add({ line: [left, y, left, y + HEADER_ROW], stroke: 'line', clip: 'head' });
      const from = Math.max(left, LIST_WIDTH);
      const label = fitting(section.label, (text) => measure(text, 'label') + 6 <= right - from);
      if (label !== null) add({ text: label, x: Math.min(from + 3, right - measure(label, 'label') - 3), y: y + 15, font: 'label', fill: 'fg', clip: 'head' });
    }
    add({ line: [LIST_WIDTH, y + HEADER_ROW, LIST_WIDTH + chartWidth, y + HEADER_ROW], stroke: 'line' });
  });
  for (let index = first; tiers[2] === null && index < end; index += 1) {
    const col = column(axis, index);
    const left = px(frame, col.startX);
    const width = (col.endX - col.startX) * columnWidth;
    add({ line: [left, HEADER_ROW * 2, left, HEADER_HEIGHT], stroke: 'line', clip: 'head' });
    const label = fitting(col.label, (text) => measure(text, 'day') + 4 <= width);
    if (label !== null) add({ text: label, x: left + (width - measure(label, 'day')) / 2, y: HEADER_ROW * 2 + 15, font: 'day', fill: 'fg', clip: 'head' });
  }
}

/** The non-working days (or weekends), the column lines and today's line, as chart-draw.mjs gridNodes. */
function drawGrid(add, frame) {
  const { axis, columnWidth, scrollLeft, chartWidth, bodyHeight, calendar, today } = frame;
  const [first, end] = visibleColumns(axis, columnWidth, scrollLeft, chartWidth);
  const dayWidth = columnWidth / axis.zoom;
  const shaded = calendar && !calendar.allWorking && shadesDays(axis.zoom, columnWidth);
  const runs = shaded ? nonWorkingRuns(calendar, axis.start + first * axis.zoom, Math.min(axis.start + end * axis.zoom, axis.end)) : [];
  for (const [from, to] of runs) {
    add({ rect: [px(frame, (from - axis.start) / axis.zoom), HEADER_HEIGHT, (to - from) * dayWidth, bodyHeight], fill: 'off', clip: 'body' });
  }
  const coarse = gridLines(axis, first, end);
  const lines = coarse ?? [];
  for (let index = first; !coarse && index < end; index += 1) {
    if (!shaded && axis.zoom === 1 && isoWeekday(axis.start + index) >= 6) {
      add({ rect: [px(frame, index), HEADER_HEIGHT, columnWidth, bodyHeight], fill: 'weekend', clip: 'body' });
    }
    lines.push(index);
  }
  for (const line of lines) {
    const left = px(frame, line);
    add({ line: [left, HEADER_HEIGHT, left, HEADER_HEIGHT + bodyHeight], stroke: 'line', clip: 'body' });
  }
  if (today >= axis.start && today < axis.end) {
    const left = px(frame, axisX(axis, today) + 0.5 / axis.zoom);
    add({ line: [left, HEADER_HEIGHT, left, HEADER_HEIGHT + bodyHeight], stroke: 'today', width: 2, clip: 'body' });
  }
}

/** One row: its list cells and its mark (bar, summary bar, diamond or "Unscheduled") with its baseline shadow. */
function drawRow(add, frame, index) {
  const { rows, valuesOf, language, t, axis, columnWidth, figures, shadow } = frame;
  const row = rows[index];
  const { task } = row;
  const y = top(frame, index);
  const values = valuesOf(task);
  const texts = cellTexts(row, values, language, t);
  add({ line: [0, y + ROW_HEIGHT - 0.5, LIST_WIDTH, y + ROW_HEIGHT - 0.5], stroke: 'soft' });
  const indent = 6 + row.depth * 16;
  const baseline = y + 18;
  if (texts.disclosure) add({ text: texts.disclosure, x: indent + 4, y: baseline, font: 'list', fill: 'muted' });
  add({ text: texts.title, x: indent + 22, y: baseline, font: task.kind === 'summary' ? 'strong' : 'list', fill: 'fg', maxWidth: COLUMNS[0][1] - indent - 28 });
  let left = COLUMNS[0][1];
  for (const [name, width] of COLUMNS.slice(1)) {
    const right = name === 'progress';
    add({ text: texts[name], x: right ? left + width - 6 : left + 6, y: baseline, font: 'list', fill: 'fg', align: right ? 'right' : 'left', maxWidth: width - 12 });
    left += width;
  }
  const figure = figures?.[task.id];
  const tint = (name) => (figure?.critical ? { bar: 'critical', 'bar-fill': 'critical-fill', milestone: 'critical-fill' }[name] : name);
  const shade = shadow(task);
  const shadowMark = shade ? mark(axis, task, shade) : null;
  if (shadowMark?.type === 'bar') {
    const width = Math.max((shadowMark.visibleEndX - shadowMark.visibleStartX) * columnWidth, 2);
    add({ rect: [px(frame, shadowMark.visibleStartX), y + ROW_HEIGHT - 8, width, 4], fill: 'baseline', clip: 'body' });
  } else if (shadowMark?.type === 'milestone') {
    add({ rect: [px(frame, shadowMark.x) - 3, y + ROW_HEIGHT - 8, 6, 4], fill: 'baseline', clip: 'body' });
  }
  const shape = mark(axis, task, values);
  if (shape.type === 'bar') {
    const x = px(frame, shape.visibleStartX);
    const width = Math.max((shape.visibleEndX - shape.visibleStartX) * columnWidth, 2);
    if (shape.isSummary) return add({ rect: [x, y + 9, width, 7], fill: 'summary', clip: 'body' });
    add({ rect: [x, y + 6, width, ROW_HEIGHT - 14], radius: 3, fill: tint('bar'), clip: 'body' });
    const filled = (shape.visibleFilledEndX - shape.visibleStartX) * columnWidth;
    if (filled > 0) add({ rect: [x, y + 6, filled, ROW_HEIGHT - 14], radius: 3, fill: tint('bar-fill'), clip: 'body' });
  } else if (shape.type === 'milestone') {
    const [cx, cy] = [px(frame, shape.x), y + ROW_HEIGHT / 2 - 1];
    add({ path: `M${cx} ${cy - 7}L${cx + 7} ${cy}L${cx} ${cy + 7}L${cx - 7} ${cy}Z`, fill: tint('milestone'), clip: 'body' });
  } else if (shape.type === 'unscheduled') {
    add({ text: t.unscheduled, x: LIST_WIDTH + 8, y: y + ROW_HEIGHT / 2 + 4, font: 'italic', fill: 'muted', clip: 'body' });
  }
}

/** The arrows that touch the rows shown, with their labels ("SS +2"), as tasks-view.mjs renderArrows. */
function drawArrows(add, frame) {
  const { arrowsIn, axis, columnWidth, first, end, figures, calendar, language } = frame;
  const dayPx = columnWidth / axis.zoom;
  const middle = (row) => top(frame, row) + ROW_HEIGHT / 2 - 1;
  for (const arrow of arrowsIn?.(first, end) ?? []) {
    const x1 = px(frame, 0) + (arrow.fromDay - axis.start) * dayPx;
    const x2 = px(frame, 0) + (arrow.toDay - axis.start) * dayPx;
    const path = arrowPath(x1, middle(arrow.fromRow), x2, middle(arrow.toRow), arrow);
    const colour = criticalArrow(arrow, figures, calendar) ? 'critical-fill' : 'arrow';
    add({ path: path.d, stroke: colour, width: 1.2, clip: 'body' });
    add({ path: path.head, fill: colour, clip: 'body' });
    const label = arrowLabel(language, arrow.dependency);
    if (label) add({ text: label, x: path.labelX, y: middle(arrow.toRow) - 5, font: 'small', fill: 'muted', align: path.labelAnchor === 'end' ? 'right' : 'left', clip: 'body' });
  }
}
