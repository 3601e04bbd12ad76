// The two language modules: the same keys (a text missing in one language would show as nothing),
// loaded on request only, and the help built from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, loadLanguage, texts, languageFor, formatDate } from '../../../clients/web/js/strings.mjs';
import { helpLines } from '../../../clients/web/js/help.mjs';
import { parseCivil } from '../../../clients/web/js/dates.mjs';

const keys = (object, prefix = '') => Object.entries(object).flatMap(([key, value]) =>
  (value && typeof value === 'object' && !Array.isArray(value) ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));

test('a language is there only once loaded; both have the same keys', async () => {
  assert.throws(() => texts('de'), /not loaded/);
  await assert.rejects(loadLanguage('fr'), RangeError);
  const [en, de] = await Promise.all(LANGUAGES.map(loadLanguage));
  assert.equal(texts('de'), de);
  assert.deepEqual(keys(de).sort(), keys(en).sort());
  assert.equal(en.help.keys.length, de.help.keys.length);
  assert.equal(en.help.more.length, de.help.more.length);
  assert.equal(de.rejections.staleTask.startsWith('Die Aufgabe wurde inzwischen geändert'), true);
});

test('the browser language picks German for any de tag; German dates are dd.mm.yyyy', async () => {
  await Promise.all(LANGUAGES.map(loadLanguage));
  assert.equal(languageFor(['fr-FR', 'de-AT']), 'de');
  assert.equal(languageFor(['en-US', 'deu']), 'en');
  assert.equal(formatDate('de', parseCivil('2026-09-08')), '08.09.2026');
  assert.equal(formatDate('en', parseCivil('2026-09-08')), '2026-09-08');
  const help = helpLines('de');
  assert.deepEqual(help.find(([key]) => key === 'p'), ['p', 'Fortschritt']);
  assert.deepEqual(help.find(([key]) => key === 'Enter i'), ['Enter i', 'Eintrag: Details']);
  assert.ok(help.some(([key, meaning]) => key === 'Ressourcen:' && meaning === ''));
});
