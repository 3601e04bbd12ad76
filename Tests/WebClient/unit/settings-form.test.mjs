// The scheduling settings form: what it shows of the confirmed settings, the settings.replace it
// proposes (previous: the settings as confirmed), and what it refuses in words in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSettingsForm, settingsOperation } from '../../../clients/web/js/settings-form.mjs';
import { LANGUAGES, loadLanguage } from '../../../clients/web/js/strings.mjs';

await Promise.all(LANGUAGES.map(loadLanguage));

const confirmed = { scheduling: 'manual', calendar: { workingDays: [1, 2, 3, 4, 5], holidays: ['2026-10-03', '2026-12-25'] } };
const values = (form) => Object.fromEntries(form.fields.map((field) => [field.name, field.value]));
const run = (changes, language = 'en', settings = confirmed) => {
  const form = openSettingsForm(settings, language);
  return settingsOperation(form, { ...values(form), ...changes }, language);
};

test('the form shows the mode, the working weekdays and each holiday, ticked', () => {
  const form = openSettingsForm(confirmed, 'de');
  assert.deepEqual(form.fields.map((field) => field.name), ['scheduling', 'workingDays', 'holidays', 'add']);
  assert.equal(form.heading, 'Planungseinstellungen');
  assert.deepEqual(form.fields[1].value, ['1', '2', '3', '4', '5']);
  assert.equal(form.fields[1].options[6].label, 'Sonntag');
  assert.deepEqual(form.fields[2].options.map((o) => [o.id, o.label]), [['2026-10-03', '03.10.2026'], ['2026-12-25', '25.12.2026']]);
  const defaults = openSettingsForm({ scheduling: 'manual', calendar: {} }, 'en');
  assert.deepEqual(defaults.fields.map((field) => field.name), ['scheduling', 'workingDays', 'add'], 'no holidays: nothing to untick');
  assert.deepEqual(defaults.fields[1].value, ['1', '2', '3', '4', '5', '6', '7']);
});

test('it proposes settings.replace from the settings as confirmed, both lists sorted, holidays added and removed', () => {
  const { op } = run({ scheduling: 'automatic', workingDays: ['6', '1', '2'], holidays: ['2026-12-25'], add: '2026-12-24, 2026-01-01  2026-12-25' });
  assert.deepEqual(op, { type: 'settings.replace', previous: confirmed, proposed: { scheduling: 'automatic',
    calendar: { workingDays: [1, 2, 6], holidays: ['2026-01-01', '2026-12-24', '2026-12-25'] } } });
  assert.deepEqual(run({}).op.proposed, confirmed, 'unchanged: the server answers a no-op');
});

test('no working day, a holiday that is no date, more than 1000 holidays: refused in words, nothing proposed', () => {
  assert.deepEqual(run({ workingDays: [] }), { error: 'Choose at least one working day.' });
  assert.deepEqual(run({ add: '2026-02-30' }), { error: 'Not a date: “2026-02-30” (YYYY-MM-DD).' });
  assert.deepEqual(run({ add: '24.12.2026' }), { error: 'Not a date: “24.12.2026” (YYYY-MM-DD).' });
  assert.deepEqual(run({ add: '30.02.2026' }, 'de'), { error: 'Ungültiges Datum: „30.02.2026“ (TT.MM.JJJJ oder JJJJ-MM-TT).' });
  assert.deepEqual(run({ add: '24.12.2026 1.1.2027' }, 'de').op.proposed.calendar.holidays, ['2026-10-03', '2026-12-24', '2026-12-25', '2027-01-01']);
  const days = Array.from({ length: 1001 }, (_, index) => new Date(Date.UTC(2030, 0, 1 + index)).toISOString().slice(0, 10));
  assert.deepEqual(run({ add: days.join(' ') }), { error: 'At most 1000 holidays.' });
  assert.equal(run({ add: days.slice(0, 998).join(' ') }).op.proposed.calendar.holidays.length, 1000);
});
