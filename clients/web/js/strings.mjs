// The page's languages: English or German, each in a module of its own (lang-en.mjs,
// lang-de.mjs) loaded when first needed, so that a page fetches only its language; and the
// formatters whose shape differs by language.

import { civil, formatCivil, formatLocal } from './dates.mjs';

export const LANGUAGES = ['en', 'de'];
const loaded = {};

/** Loads a language's texts (once); `texts` answers for it from then on. */
export async function loadLanguage(language) {
  if (!LANGUAGES.includes(language)) throw new RangeError(`no language ${language}`);
  loaded[language] ??= (await import(`./lang-${language}.mjs`)).default;
  return loaded[language];
}

/** The texts of a loaded language ('en' or 'de'). */
export function texts(language) {
  const found = loaded[language];
  if (!found) throw new Error(`language ${language} not loaded`);
  return found;
}

export const monthName = (language, month) => texts(language).months[month - 1];
export const shortMonthName = (language, month) => texts(language).shortMonths[month - 1];
export const weekWord = (language) => texts(language).week;
export const shortWeekWord = (language) => texts(language).shortWeek;
export const quarterWord = (language, quarter, year) => texts(language).quarter(quarter, year);

/** The language for a browser's preferred languages: German for any `de…`, else English. */
export function languageFor(languages) {
  return (languages ?? []).some((tag) => /^de(-|$)/i.test(tag)) ? 'de' : 'en';
}

/** A date as the list writes it: 2026-09-08 / 08.09.2026. */
export function formatDate(language, day) {
  if (language !== 'de') return formatCivil(day);
  const { year, month, day: dayOfMonth } = civil(day);
  return `${String(dayOfMonth).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`;
}

/** A date and time (a minute number): 2026-09-08 09:00 / 08.09.2026 09:00. */
export function formatDateTime(language, minutes) {
  return `${formatDate(language, Math.floor(minutes / 1440))} ${formatLocal(minutes).slice(11)}`;
}

/** A length in minutes: "3 h 30 min", "45 min" / "3 Std. 30 Min.". */
export function formatDuration(language, minutes) {
  const { hours, minutes: unit } = texts(language);
  const [whole, rest] = [Math.floor(minutes / 60), minutes % 60];
  return whole === 0 ? `${rest} ${unit}` : `${whole} ${hours}${rest === 0 ? '' : ` ${rest} ${unit}`}`;
}
