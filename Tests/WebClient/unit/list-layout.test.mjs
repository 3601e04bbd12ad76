// The task list's widths: what a browser keeps (read back with every value checked), resizing a
// column or the split, and the layout in a window — below 700 px the title column alone, the chart
// keeping 60 % of the width, the other columns behind the toggle within the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  COLUMNS, NARROW, MIN_COLUMN, MAX_COLUMN, MIN_LIST, MIN_NAME, defaultWidths, readWidths, listLayout, maxList,
} from '../../../clients/web/js/list-layout.mjs';
import { writeWidths, resizeColumn, resizeSplit } from '../../../clients/web/js/list-widths.mjs';

const sum = (columns) => columns.reduce((total, [, width]) => total + width, 0);

test('what is kept is read back checked: garbage and strangers are the defaults, widths clamped', () => {
  assert.deepEqual(readWidths(null), defaultWidths());
  assert.deepEqual(readWidths('not json'), defaultWidths());
  assert.deepEqual(readWidths('[1, 2]').columns, defaultWidths().columns);
  assert.deepEqual(readWidths('"text"'), defaultWidths());
  const kept = readWidths(JSON.stringify({ columns: { name: 300.4, kind: 'wide', dates: 5, progress: 9999, other: 50 }, split: 20 }));
  assert.deepEqual(kept.columns, { name: 300, kind: 96, dates: MIN_COLUMN, progress: MAX_COLUMN });
  assert.equal(kept.split, MIN_LIST);
  assert.equal(readWidths(JSON.stringify({ split: null })).split, null);
});

test('only what differs from the defaults is written, and it reads back the same', () => {
  assert.equal(writeWidths(defaultWidths()), '{}');
  const widths = resizeSplit(resizeColumn(defaultWidths(), 'name', 300), 500, 1400);
  assert.equal(writeWidths(widths), '{"columns":{"name":300},"split":500}');
  assert.deepEqual(readWidths(writeWidths(widths)), widths);
});

test('a column resized moves a split the user set by as much; an untouched split follows the columns', () => {
  const free = resizeColumn(defaultWidths(), 'dates', 200);
  assert.equal(free.split, null);
  assert.equal(listLayout(1400, free).listWidth, 628);
  const set = resizeColumn({ ...defaultWidths(), split: 400 }, 'name', 300);
  assert.equal(set.split, 460);
  assert.equal(resizeColumn(defaultWidths(), 'kind', 1).columns.kind, MIN_COLUMN);
  assert.equal(resizeColumn(defaultWidths(), 'kind', 5000).columns.kind, MAX_COLUMN);
  assert.equal(defaultWidths().columns.kind, 96, 'the widths are new objects, never changed');
});

test('the split stays between the least list and 70 % of a wide window', () => {
  assert.equal(resizeSplit(defaultWidths(), 10, 1400).split, MIN_LIST);
  assert.equal(resizeSplit(defaultWidths(), 1300, 1400).split, 980);
  assert.equal(listLayout(1400, { ...defaultWidths(), split: 1300 }).listWidth, 980, 'a split kept from a wider window');
  assert.equal(maxList(1000), 700);
});

test('a wide window shows every column and the list as wide as the split', () => {
  const layout = listLayout(1400, defaultWidths());
  assert.deepEqual(layout, { narrow: false, listWidth: 614, shownWidth: 614, columns: COLUMNS, hidden: [], maxSplit: 980 });
  assert.equal(listLayout(800, defaultWidths()).listWidth, 560, 'at most 70 %');
  assert.equal(listLayout(NARROW, defaultWidths()).narrow, false);
});

test('below 700 px: the title column only, the chart keeps at least 60 %, the rest behind the toggle', () => {
  const phone = listLayout(375, defaultWidths());
  assert.deepEqual([phone.narrow, phone.listWidth, phone.shownWidth], [true, 150, 150]);
  assert.deepEqual(phone.columns, [['name', 150]]);
  assert.deepEqual(phone.hidden, ['kind', 'dates', 'progress']);
  for (let width = 120; width < NARROW; width += 7) {
    for (const widths of [defaultWidths(), resizeColumn(defaultWidths(), 'name', 120), { ...defaultWidths(), split: 600 }]) {
      const layout = listLayout(width, widths);
      assert.ok(layout.narrow && width - layout.listWidth >= 0.6 * width, `the chart keeps 60 % at ${width}`);
      assert.ok(layout.listWidth <= widths.columns.name);
      const open = listLayout(width, widths, true);
      assert.equal(open.listWidth, layout.listWidth, 'the toggle does not move the chart');
      assert.deepEqual(open.columns.map(([name]) => name), COLUMNS.map(([name]) => name));
      assert.ok(open.shownWidth <= Math.max(width, MIN_NAME + 3), `the columns stay in the window at ${width}`);
      assert.equal(open.shownWidth, sum(open.columns));
    }
  }
  const open = listLayout(375, defaultWidths(), true);
  assert.deepEqual(open.columns, [['name', MIN_NAME], ['kind', 71], ['dates', 138], ['progress', 68]]);
  assert.deepEqual(listLayout(690, defaultWidths(), true).columns.slice(1), COLUMNS.slice(1), 'room for them as they are');
});
