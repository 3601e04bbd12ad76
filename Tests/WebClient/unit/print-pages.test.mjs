// The whole plan on printed pages: runs of rows, each followed across by the chart's slices; every
// row on exactly one run, every column of the plan's dates on one slice, the pages in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCivil as d } from '../../../clients/web/js/dates.mjs';
import { makeAxis } from '../../../clients/web/js/axis.mjs';
import { PAGE, PAGE_LIST, PAGE_CHART, rowsPerPage, printColumns, printPages } from '../../../clients/web/js/print-pages.mjs';

test('a landscape page: the list and the chart side by side, 21 rows under the header', () => {
  assert.equal(PAGE_LIST + PAGE_CHART, PAGE.width);
  assert.equal(rowsPerPage(28, 66), 21);
  assert.equal(rowsPerPage(28, 2000), 1);
});

test("the columns printed are those of the plan's dates, within the axis", () => {
  const axis = makeAxis(d('2026-08-31'), 120, 2);
  assert.deepEqual(printColumns(axis, { from: d('2026-09-07'), to: d('2026-11-10') }, 14), [3, 36]);
  assert.deepEqual(printColumns(axis, null, 14), [0, 14]);
  assert.deepEqual(printColumns(axis, { from: d('2026-01-01'), to: d('2027-01-01') }, 14), [0, 60]);
});

test('rows in runs, each run across the slices; every row and column once per its kind', () => {
  const pages = printPages({ rowCount: 43, firstColumn: 3, endColumn: 36, perPage: 21, columnsPerPage: 14 });
  assert.equal(pages.length, 9);
  assert.deepEqual(pages.map((page) => page.number), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(pages.slice(0, 3).map((page) => page.columns), [[3, 17], [17, 31], [31, 36]]);
  assert.deepEqual([...new Set(pages.map((page) => page.rows.join('-')))], ['0-21', '21-42', '42-43']);
  for (let rowCount = 0; rowCount < 70; rowCount += 5) {
    const all = printPages({ rowCount, firstColumn: 0, endColumn: 25, perPage: 21, columnsPerPage: 10 });
    const rows = new Set(all.map((page) => page.rows.join('-')));
    const covered = [...rows].flatMap((run) => { const [a, b] = run.split('-').map(Number); return Array.from({ length: b - a }, (_, i) => a + i); });
    assert.deepEqual(covered, Array.from({ length: rowCount }, (_, i) => i), `every row once (${rowCount})`);
    for (const run of rows) {
      const columns = all.filter((page) => page.rows.join('-') === run).flatMap((page) => Array.from({ length: page.columns[1] - page.columns[0] }, (_, i) => page.columns[0] + i));
      assert.deepEqual(columns, Array.from({ length: 25 }, (_, i) => i));
    }
  }
  assert.equal(printPages({ rowCount: 0, firstColumn: 0, endColumn: 5, perPage: 21, columnsPerPage: 10 }).length, 1, 'an empty plan prints a page');
});
