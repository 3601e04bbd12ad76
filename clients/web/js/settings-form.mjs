// The scheduling settings form (scheduling.md §1), for a plan's owners: the mode, the working
// weekdays (ticked) and the holidays (the plan's, ticked: untick one to remove it; new ones typed
// as YYYY-MM-DD, like every date form of the client). Pure, like task-forms.mjs: a form description
// in, { op } (a `settings.replace` from the settings as confirmed) or { error } in words out.

import { parseCivil, parseTypedCivil, formatCivil } from './dates.mjs';
import { texts, formatDate } from './strings.mjs';
import { DEFAULT_SETTINGS } from './calendar.mjs';

/** The form for the plan's confirmed `settings`. */
export function openSettingsForm(settings, language) {
  const t = texts(language);
  const calendar = { ...DEFAULT_SETTINGS.calendar, ...settings.calendar };
  const fields = [
    { name: 'scheduling', type: 'select', label: t.scheduling, value: settings.scheduling ?? 'manual',
      options: ['manual', 'automatic'].map((id) => ({ id, label: t[id] })) },
    { name: 'workingDays', type: 'checkboxes', label: t.workingDays, value: calendar.workingDays.map(String),
      options: t.weekdays.map((label, index) => ({ id: String(index + 1), label })) },
  ];
  if (calendar.holidays.length > 0) {
    fields.push({ name: 'holidays', type: 'checkboxes', label: t.holidaysKept, value: calendar.holidays,
      options: calendar.holidays.map((day) => ({ id: day, label: formatDate(language, parseCivil(day)) })) });
  }
  fields.push({ name: 'add', type: 'text', label: t.addHolidays, value: '' });
  return { action: 'settings', heading: t.settingsHeading, original: settings, fields, note: null };
}

/** The op of a filled-in settings form: { op } or { error } (no working day, a date that is none, too many). */
export function settingsOperation(form, values, language) {
  const t = texts(language);
  const workingDays = (values.workingDays ?? []).map(Number).sort((a, b) => a - b);
  if (workingDays.length === 0) return { error: t.noWorkingDay };
  const holidays = new Set(values.holidays ?? []);
  for (const text of (values.add ?? '').split(/[\s,;]+/).filter(Boolean)) {
    const day = parseTypedCivil(text, language);
    if (day === null) return { error: t.notAHoliday(text) };
    holidays.add(formatCivil(day));
  }
  if (holidays.size > 1000) return { error: t.tooManyHolidays };
  const proposed = {
    scheduling: values.scheduling === 'automatic' ? 'automatic' : 'manual',
    calendar: { workingDays, holidays: [...holidays].sort() },
  };
  return { op: { type: 'settings.replace', previous: form.original, proposed } };
}
