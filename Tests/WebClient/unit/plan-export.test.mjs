// Exports (plan-export.mjs): the server's address, the file's name (a past version's marked), what
// X-Export-Warnings says in words, and why an export failed, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EXPORT_FORMATS, exportPath, fileName, warningCodes, exportedText, failureText,
} from '../../../clients/web/js/plan-export.mjs';
import { LANGUAGES, loadLanguage, texts } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

test('the menu offers the four documents and the chart, each named in both languages', () => {
  assert.deepEqual(EXPORT_FORMATS, ['msproject', 'csv', 'ics', 'json', 'png']);
  assert.deepEqual(EXPORT_FORMATS.map((format) => texts('en').exportFormats[format]),
    ['MS Project XML', 'CSV', 'iCalendar', 'JSON (ChronoSketch)', 'Chart as PNG']);
  assert.equal(texts('de').exportFormats.png, 'Diagramm als PNG');
});

test('the export address names the format, and the version only for a past one', () => {
  assert.equal(exportPath('demo', 'csv'), '/plans/demo/export?format=csv');
  assert.equal(exportPath('demo', 'msproject', 3), '/plans/demo/export?format=msproject&version=3');
  assert.equal(exportPath('demo', 'json', 0), '/plans/demo/export?format=json&version=0', 'version 0 is a version');
  assert.equal(exportPath('a b/ü', 'ics', null), '/plans/a%20b%2F%C3%BC/export?format=ics');
});

test('the file is named as the server says (it names a past version -vV), else -vV before the suffix', () => {
  assert.equal(fileName('demo', 'msproject', null, 'attachment; filename="demo.xml"'), 'demo.xml');
  assert.equal(fileName('demo', 'csv', 7, 'attachment; filename="demo-v7.csv"'), 'demo-v7.csv');
  assert.equal(fileName('demo', 'csv', 7), 'demo-v7.csv');
  assert.equal(fileName('plan ü/x', 'ics'), 'plan___x.ics', 'without the header: what the server would write');
  assert.equal(fileName('demo', 'png', 0), 'demo-v0.png');
  assert.equal(fileName('demo', 'json', null, 'attachment; filename="../evil"'), 'demo.json', 'no path in a name');
});

test('export warnings in words: known codes said, unknown ones named, repeats once', () => {
  assert.deepEqual(warningCodes(' entryWithoutTask, progressRounded,,entryWithoutTask'), ['entryWithoutTask', 'progressRounded']);
  assert.deepEqual(warningCodes(null), []);
  assert.equal(exportedText('en', 'demo.csv'), 'Exported demo.csv.');
  assert.equal(exportedText('en', 'demo.xml', 'entryWithoutTask'),
    'Exported demo.xml; bookings without a task are not in MS Project files.');
  assert.equal(exportedText('en', 'demo.xml', 'entryWithoutTask,progressRounded'),
    'Exported demo.xml; bookings without a task are not in MS Project files; progress is rounded to whole percent.');
  assert.equal(exportedText('de', 'demo.xml', 'entryWithoutTask,progressRounded'),
    'demo.xml exportiert; Buchungen ohne Aufgabe fehlen in MS-Project-Dateien; der Fortschritt ist auf ganze Prozent gerundet.');
  assert.equal(exportedText('en', 'demo.xml', 'somethingNew'), 'Exported demo.xml; not everything could be written (somethingNew).');
  assert.equal(exportedText('de', 'demo.ics', ''), 'demo.ics exportiert.');
});

test('a failed export says why: token, role or version, the network, the drawing, another status', () => {
  assert.equal(failureText('en', { status: 401, message: 'the token is not valid' }),
    'Export failed: the token was not accepted (sign in again).');
  assert.equal(failureText('en', { status: 404, message: 'not found' }),
    'Export failed: this plan, or this version of it, is not available to you.');
  assert.equal(failureText('en', { network: true }), 'Export failed: the server could not be reached.');
  assert.equal(failureText('en', { drawing: true }), 'Export failed: the chart could not be drawn.');
  assert.equal(failureText('en', { status: 503, message: 'the database is unavailable; try again\n' }),
    'Export failed: the server answered 503 (the database is unavailable; try again).');
  assert.equal(failureText('en', { status: 400, message: '' }), 'Export failed: the server answered 400.');
  assert.equal(failureText('de', { status: 404 }), 'Export fehlgeschlagen: dieser Plan oder diese Version ist für Sie nicht verfügbar.');
  assert.equal(failureText('de', { status: 401 }), 'Export fehlgeschlagen: das Token wurde nicht angenommen (bitte neu anmelden).');
  assert.equal(failureText('de', { network: true }), 'Export fehlgeschlagen: der Server ist nicht erreichbar.');
});
