// The two language modules: the same keys (a text missing in one language would show as nothing),
// loaded on request only, and the help built from them.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { HELP_TEXTS } from '../../../clients/web/js/help-texts.mjs';
import { FEED_TEXTS } from '../../../clients/web/js/calendar-feed.mjs';
import { LANGUAGES, loadLanguage, texts, languageFor, formatDate, formatDateTime, formatDuration } from '../../../clients/web/js/strings.mjs';
import { helpLines } from '../../../clients/web/js/help.mjs';
import { parseCivil, parseLocal } from '../../../clients/web/js/dates.mjs';

const keys = (object, prefix = '') => Object.entries(object).flatMap(([key, value]) =>
  (value && typeof value === 'object' && !Array.isArray(value) ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));

test('a language is there only once loaded; both have the same keys', async () => {
  assert.throws(() => texts('de'), /not loaded/);
  await assert.rejects(loadLanguage('fr'), RangeError);
  const [en, de] = await Promise.all(LANGUAGES.map(loadLanguage));
  assert.equal(texts('de'), de);
  assert.deepEqual(keys(de).sort(), keys(en).sort());
  assert.equal(typeof en.help, 'string', 'a label is not shadowed by a later key');
  // The help's and the feed's texts live with the modules that use them (after the first render).
  assert.equal(HELP_TEXTS.en.keys.length, HELP_TEXTS.de.keys.length);
  assert.equal(HELP_TEXTS.en.more.length, HELP_TEXTS.de.more.length);
  assert.deepEqual(Object.keys(FEED_TEXTS.de).sort(), Object.keys(FEED_TEXTS.en).sort());
  assert.equal(de.rejections.staleTask.startsWith('Die Aufgabe wurde inzwischen geändert'), true);
});

test('the browser language picks German for any de tag; German dates are dd.mm.yyyy', async () => {
  await Promise.all(LANGUAGES.map(loadLanguage));
  assert.equal(languageFor(['fr-FR', 'de-AT']), 'de');
  assert.equal(languageFor(['en-US', 'deu']), 'en');
  assert.equal(formatDate('de', parseCivil('2026-09-08')), '08.09.2026');
  assert.equal(formatDate('en', parseCivil('2026-09-08')), '2026-09-08');
  assert.equal(formatDateTime('de', parseLocal('2026-09-08T09:05')), '08.09.2026 09:05');
  assert.equal(formatDuration('en', 210), '3 h 30 min');
  assert.equal(formatDuration('de', 180), '3 Std.');
  assert.equal(formatDuration('en', 45), '45 min');
  const help = helpLines('de');
  assert.deepEqual(help.find(([key]) => key === 'p'), ['p', 'Fortschritt']);
  assert.deepEqual(help.find(([key]) => key === 'Enter i'), ['Enter i', 'Eintrag: Details']);
  assert.ok(help.some(([key, meaning]) => key === 'Ressourcen:' && meaning === ''));
});

test('every label index.html names is a text in both languages', async () => {
  const page = readFileSync(new URL('../../../clients/web/index.html', import.meta.url), 'utf8');
  const names = [...page.matchAll(/data-t(?:-title|-placeholder)?="([^"]+)"/g)].map((match) => match[1]);
  assert.ok(names.length > 20);
  for (const language of await Promise.all(LANGUAGES.map(loadLanguage))) {
    for (const name of names) assert.equal(typeof language[name], 'string', `${name} in ${language.language}`);
  }
});

test('the help lists the settings key; a scheduleConflict is said with its task and earliest date', async () => {
  await Promise.all(LANGUAGES.map(loadLanguage));
  assert.deepEqual(helpLines('en').find(([key]) => key === 'S'), ['S', 'scheduling settings (owners)']);
  for (const language of LANGUAGES) {
    const keys = helpLines(language).map(([key]) => key);
    for (const key of ['/', 'n N', 'E']) assert.ok(keys.includes(key), `${key} in the ${language} help`);
  }
  assert.deepEqual(helpLines('de').find(([key]) => key === '/'), ['/', 'Titel und Kennungen suchen (Esc leert)']);
  const { rejectionWords } = await import('../../../clients/web/js/wording.mjs');
  const answer = { type: 'rejected', code: 'scheduleConflict', message: 'task "build" cannot start before 2026-09-11',
    conflict: { task: 'build', earliest: '2026-09-11' } };
  const title = (id) => ({ build: 'Build' })[id];
  assert.equal(rejectionWords('en', answer, title), '“Build” cannot start before 2026-09-11: a dependency does not allow an earlier date.');
  assert.equal(rejectionWords('de', answer, title), '„Build“ kann nicht vor dem 11.09.2026 beginnen: eine Abhängigkeit erlaubt keinen früheren Termin.');
  assert.equal(rejectionWords('en', { ...answer, conflict: undefined }), 'A dependency does not allow that date.');
  assert.equal(rejectionWords('en', { code: 'staleSettings' }), 'The scheduling settings were changed in the meantime.');
  assert.equal(rejectionWords('de', { code: 'invalidCalendar' }), 'Dieser Kalender ist ungültig.');
});

test('the help names the drags by keys and by pointer in both languages; the waiting drag is said with its title', async () => {
  await Promise.all(LANGUAGES.map(loadLanguage));
  const keys = (language) => helpLines(language).map(([key]) => key);
  for (const key of ['Shift+← →', 'Shift+Alt+← →', 'Drag']) assert.ok(keys('en').includes(key), `${key} in the English help`);
  for (const key of ['Umschalt+← →', 'Umschalt+Alt+← →', 'Ziehen']) assert.ok(keys('de').includes(key), `${key} in the German help`);
  assert.match(helpLines('en').find(([key]) => key === 'Shift+← →')[1], /working day/);
  assert.equal(texts('en').dragWaiting('Build'), '“Build” is still waiting for the answer to its last change.');
  assert.equal(texts('de').dragWaiting('Build'), '„Build“ wartet noch auf die Antwort zu seiner letzten Änderung.');
});
