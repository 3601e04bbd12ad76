// A bar's tooltip: title, dates and length, progress, and slack only in automatic plans whose
// figures are known; a milestone's day; in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barTooltip } from '../../../clients/web/js/tooltip-text.mjs';
import { rowValues } from '../../../clients/web/js/marks.mjs';
import { LANGUAGES, loadLanguage, texts } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const activity = { id: 'build', title: 'Build', kind: 'activity', schedule: { start: '2026-09-09', end: '2026-09-12' }, progress: 42.4 };
const milestone = { id: 'release', title: 'Release', kind: 'milestone', date: '2026-09-16' };
const tip = (task, options = {}, language = 'en') =>
  barTooltip({ task, values: rowValues(task, null), language, t: texts(language), ...options }).map(({ kind, text }) => `${kind}: ${text}`);

test('an activity: its dates and calendar days, progress, and slack in an automatic plan', () => {
  assert.deepEqual(tip(activity, { figure: { slack: 3, critical: false }, automatic: true }), [
    'title: Build', 'dates: 2026-09-09 – 2026-09-11 · 3 days', 'progress: Progress: 42 %', 'slack: Slack: 3 working days']);
  assert.deepEqual(tip(activity, { figure: { slack: 0, critical: true }, automatic: true }).at(-1), 'slack: Slack: 0 working days (critical)');
});

test('no slack in a manual plan, nor while the figures are not known', () => {
  assert.deepEqual(tip(activity, { figure: { slack: 3, critical: false }, automatic: false }).map((line) => line.split(':')[0]),
    ['title', 'dates', 'progress']);
  assert.equal(tip(activity, { automatic: true }).length, 3);
});

test('a milestone says its day and has no progress; an unscheduled task says so', () => {
  assert.deepEqual(tip(milestone, { figure: { slack: 1, critical: false }, automatic: true }),
    ['title: Release', 'dates: Milestone on 2026-09-16', 'slack: Slack: 1 working day']);
  assert.deepEqual(tip({ id: 'docs', title: 'Docs', kind: 'activity', progress: 0 }), ['title: Docs', 'dates: Unscheduled']);
});

test('in German', () => {
  assert.deepEqual(tip(activity, { figure: { slack: 0, critical: true }, automatic: true }, 'de'), [
    'title: Build', 'dates: 09.09.2026 – 11.09.2026 · 3 Tage', 'progress: Fortschritt: 42 %', 'slack: Puffer: 0 Arbeitstage (kritisch)']);
  assert.deepEqual(tip({ ...activity, schedule: { start: '2026-09-09', end: '2026-09-10' } }, {}, 'de')[1], 'dates: 09.09.2026 – 09.09.2026 · 1 Tag');
  assert.equal(tip(milestone, {}, 'de')[1], 'dates: Meilenstein am 16.09.2026');
});
