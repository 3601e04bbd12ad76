// "Chart as PNG" (chart-picture.mjs): the picture is made from the view's data — the rows on
// screen, their cells, bars, diamonds, the today line, the non-working days and arrows — at the
// page's positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartPicture } from '../../../clients/web/js/chart-picture.mjs';
import { PlanCopy } from '../../../clients/web/js/plan-copy.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { rowValues } from '../../../clients/web/js/marks.mjs';
import { PlanTree, loadArrows } from '../../../clients/web/js/plan-tree.mjs';

await loadArrows();
import { makeCalendar } from '../../../clients/web/js/calendar.mjs';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { LIST_WIDTH, ROW_HEIGHT } from '../../../clients/web/js/tasks-view.mjs';
import { HEADER_HEIGHT } from '../../../clients/web/js/chart-draw.mjs';
import { LANGUAGES, loadLanguage, texts } from '../../../clients/web/js/strings.mjs';
import { loadCoarseScales } from '../../../clients/web/js/scales.mjs';

await Promise.all([...LANGUAGES.map(loadLanguage), loadCoarseScales()]);

const copy = new PlanCopy({
  plan: 'p', version: 4, title: 'P',
  tasks: [
    { id: 'g', title: 'Group', kind: 'summary' },
    { id: 'a', title: 'Build', kind: 'activity', parentID: 'g', schedule: { start: '2026-09-08', end: '2026-09-11' }, progress: 50 },
    { id: 'm', title: 'Done', kind: 'milestone', parentID: 'g', date: '2026-09-14' },
    { id: 'u', title: 'Later', kind: 'activity', progress: 0 },
    { id: 'z', title: 'Last', kind: 'activity', schedule: { start: '2026-09-09', end: '2026-09-10' }, progress: 0 },
  ],
  dependencies: [{ predecessorID: 'a', successorID: 'm', type: 'start-to-start', lag: 2 }],
  summaries: { g: { start: '2026-09-08', end: '2026-09-15', lastDate: '2026-09-14', progress: 40 } },
});

/** The view's state as plan-view.mjs hands it to the task view, for a chart from 2026-09-07 at one day a column. */
function state(language = 'en', zoom = 1) {
  const valuesOf = (task) => rowValues(task, copy.summaries);
  const tree = new PlanTree(copy, new Set(), valuesOf);
  const rows = tree.rows;
  return {
    rows, valuesOf, language, t: texts(language), axis: makeAxis(d('2026-09-07'), 42, zoom), columnWidth: 40,
    today: d('2026-09-10'), calendar: makeCalendar({ workingDays: [1, 2, 3, 4, 5], holidays: [] }), shadow: () => null,
    figures: null, arrowsIn: (top, bottom) => tree.arrowsIn(top, bottom),
  };
}
const wordsOf = (picture) => picture.shapes.filter((shape) => shape.text).map((shape) => shape.text);
const chart = (width = 400, height = 3 * ROW_HEIGHT + 10, scrollTop = 0, scrollLeft = 0, language = 'en') =>
  chartPicture(state(language), { scrollTop, scrollLeft, width: LIST_WIDTH + width, height: HEADER_HEIGHT + height });

test('the picture is the list and the chart as large as shown, with the rows on screen from the first whole one', () => {
  const picture = chart();
  assert.equal(picture.width, LIST_WIDTH + 400);
  assert.equal(picture.height, HEADER_HEIGHT + 4 * ROW_HEIGHT, 'the partly visible fourth row too');
  assert.deepEqual(picture.clips.body, [LIST_WIDTH, HEADER_HEIGHT, 400, 4 * ROW_HEIGHT]);
  const words = wordsOf(picture);
  for (const word of ['Task', 'Kind', 'Dates', 'Progress', 'Group', 'Build', 'Done', 'Later', 'Summary', '2026-09-08 – 2026-09-10', '50 %',
    'September 2026', 'Week 37 2026', 'Unscheduled']) assert.ok(words.includes(word), word);
  assert.ok(!words.includes('Last'), 'a row below the screen is not drawn');
  const scrolled = wordsOf(chart(400, 2 * ROW_HEIGHT, 2 * ROW_HEIGHT + 5));
  assert.ok(scrolled.includes('Done') && scrolled.includes('Later') && !scrolled.includes('Build'));
  const german = wordsOf(chart(400, 3 * ROW_HEIGHT, 0, 0, 'de'));
  assert.ok(german.includes('08.09.2026 – 10.09.2026') && german.includes('Gruppe') && german.includes('KW 37 2026'));
});

test('bars, progress, the summary bar, the diamond and the today line sit where the page draws them', () => {
  const { shapes } = chart(400, 3 * ROW_HEIGHT, 0, 40);
  const left = LIST_WIDTH - 40;
  const bar = shapes.find((shape) => shape.fill === 'bar');
  assert.deepEqual(bar.rect, [left + 40, HEADER_HEIGHT + ROW_HEIGHT + 6, 120, ROW_HEIGHT - 14]);
  assert.deepEqual(shapes.find((shape) => shape.fill === 'bar-fill').rect, [left + 40, HEADER_HEIGHT + ROW_HEIGHT + 6, 60, ROW_HEIGHT - 14]);
  assert.deepEqual(shapes.find((shape) => shape.fill === 'summary').rect, [left + 40, HEADER_HEIGHT + 9, 280, 7]);
  const diamond = shapes.find((shape) => shape.fill === 'milestone');
  const [cx, cy] = [left + 7.5 * 40, HEADER_HEIGHT + 2 * ROW_HEIGHT + ROW_HEIGHT / 2 - 1];
  assert.equal(diamond.path, `M${cx} ${cy - 7}L${cx + 7} ${cy}L${cx} ${cy + 7}L${cx - 7} ${cy}Z`);
  const today = shapes.find((shape) => shape.stroke === 'today');
  assert.equal(today.line[0], left + 3.5 * 40);
  for (const shape of [bar, diamond, today]) assert.equal(shape.clip, 'body');
});

test('the plan\'s non-working days are shaded and the arrows drawn with their labels', () => {
  const { shapes } = chart(14 * 40, 4 * ROW_HEIGHT);
  const off = shapes.filter((shape) => shape.fill === 'off').map((shape) => shape.rect[0] - LIST_WIDTH);
  assert.deepEqual(off, [5 * 40, 12 * 40], 'the weekends of 12/13 and 19/20 September');
  const arrow = shapes.find((shape) => shape.stroke === 'arrow');
  assert.ok(arrow.path.startsWith(`M${LIST_WIDTH + 40} ${HEADER_HEIGHT + ROW_HEIGHT + ROW_HEIGHT / 2 - 1}`), arrow.path);
  assert.ok(shapes.some((shape) => shape.fill === 'arrow' && shape.path.includes('v8z')), 'its head');
  assert.ok(wordsOf({ shapes }).includes('SS +2'));
  const german = chartPicture(state('de'), { scrollTop: 0, scrollLeft: 0, width: LIST_WIDTH + 560, height: HEADER_HEIGHT + 4 * ROW_HEIGHT });
  assert.ok(wordsOf(german).includes('AA +2'));
});

test('critical tasks and arrows are tinted, a baseline shadow drawn under its bar', () => {
  const base = state();
  const critical = { ...base, figures: { a: { critical: true, slack: 0 }, m: { critical: true, slack: 0 } },
    // Start to start with a lag of 6 binds: the starts are 6 working days apart (every day works).
    arrowsIn: (top, bottom) => base.arrowsIn(top, bottom)
      .map((arrow) => Object.assign(Object.create(Object.getPrototypeOf(arrow)), arrow, { dependency: { ...arrow.dependency, lag: 6 } })),
    calendar: makeCalendar({ workingDays: [1, 2, 3, 4, 5, 6, 7], holidays: [] }),
    shadow: (task) => (task.id === 'a' ? rowValues({ ...task, schedule: { start: '2026-09-07', end: '2026-09-09' } }, {}) : null) };
  const { shapes } = chartPicture(critical, { scrollTop: 0, scrollLeft: 0, width: LIST_WIDTH + 560, height: HEADER_HEIGHT + 4 * ROW_HEIGHT });
  assert.ok(shapes.some((shape) => shape.fill === 'critical' && shape.rect));
  assert.ok(shapes.some((shape) => shape.fill === 'critical-fill' && shape.path));
  assert.ok(shapes.some((shape) => shape.stroke === 'critical-fill' && shape.path), 'the binding arrow');
  assert.deepEqual(shapes.find((shape) => shape.fill === 'baseline').rect, [LIST_WIDTH, HEADER_HEIGHT + 2 * ROW_HEIGHT - 8, 80, 4]);
});

test('an empty plan is the header alone', () => {
  const empty = { ...state(), rows: [], arrows: [] };
  const picture = chartPicture(empty, { scrollTop: 0, scrollLeft: 0, width: LIST_WIDTH + 300, height: 500 });
  assert.equal(picture.height, HEADER_HEIGHT);
  assert.ok(wordsOf(picture).includes('Task'));
});

test('at the quarter scale the picture has the page\'s headers (year, quarter, month) and month lines, no day columns or shading', () => {
  const quarters = { ...state('en', 30), axis: makeAxis(d('2026-07-01'), 400, 30) };
  const picture = chartPicture(quarters, { scrollTop: 0, scrollLeft: 0, width: LIST_WIDTH + 560, height: HEADER_HEIGHT + 4 * ROW_HEIGHT });
  const words = wordsOf(picture);
  for (const word of ['2026', '2027', 'Quarter 3 2026', 'Quarter 4 2026', 'Jul', 'Sep']) assert.ok(words.includes(word), word);
  assert.ok(!words.includes('1–30'), 'no column ranges');
  assert.equal(picture.shapes.filter((shape) => shape.fill === 'off').length, 0);
  const lines = picture.shapes.filter((shape) => shape.line && shape.clip === 'body' && shape.stroke === 'line');
  assert.ok(Math.abs(lines[1].line[0] - LIST_WIDTH - 31 / 30 * 40) < 1e-9, 'the second line where August begins');
});
