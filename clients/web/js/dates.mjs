// Civil dates and floating local date-times (seed 004), as plain numbers: a CivilDate is its day
// number (days since 0001-01-01, which is day 0 and a Monday), a LocalDateTime its minute number
// (minutes since 0001-01-01T00:00). The same proleptic Gregorian arithmetic as the Swift core's
// CivilCalendar (Howard Hinnant's days_from_civil / civil_from_days). Pure: no DOM, no clock
// unless one is passed in.

const OFFSET = 306; // days from 0000-03-01 to 0001-01-01 in the March-based era count
export const MINUTES_PER_DAY = 1440;

export function isLeap(year) {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year, month) {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The day number of a real date (not checked: use civilDate for input). */
export function dayNumber(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const shifted = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * shifted + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - OFFSET;
}

/** Year, month (1…12) and day (1…31) of a day number. */
export function civil(day) {
  const z = day + OFFSET;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day: dayOfMonth };
}

export const EARLIEST = 0;
export const LATEST = dayNumber(9999, 12, 31);

/** The day number of year-month-day when it is a real date in years 1…9999, else null. */
export function civilDate(year, month, day) {
  if (![year, month, day].every(Number.isInteger)) return null;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return dayNumber(year, month, day);
}

const CIVIL = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Parses exactly `YYYY-MM-DD` (a real date, years 0001…9999) into a day number, else null. */
export function parseCivil(text) {
  const match = typeof text === 'string' ? CIVIL.exec(text) : null;
  return match ? civilDate(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

const GERMAN = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const GERMAN_LOCAL = /^(\d{1,2})\.(\d{1,2})\.(\d{4})[ T](\d{2}):(\d{2})$/;

/** A date as typed in a form: `YYYY-MM-DD`, and in German also `dd.mm.yyyy` or `d.m.yyyy`
 * (how the German list writes it); a day number, else null. */
export function parseTypedCivil(text, language) {
  const match = language === 'de' && typeof text === 'string' ? GERMAN.exec(text) : null;
  return match ? civilDate(Number(match[3]), Number(match[2]), Number(match[1])) : parseCivil(text);
}

/** A date-time as typed in a form: `YYYY-MM-DDTHH:mm`, and in German also `dd.mm.yyyy HH:mm`
 * (as the German resources view writes it); a minute number, else null. */
export function parseTypedLocal(text, language) {
  const match = language === 'de' && typeof text === 'string' ? GERMAN_LOCAL.exec(text) : null;
  if (!match) return parseLocal(text);
  return parseLocal(`${match[3]}-${match[2].padStart(2, '0')}-${match[1].padStart(2, '0')}T${match[4]}:${match[5]}`);
}

function pad(value, width) {
  return String(value).padStart(width, '0');
}

/** A day number as `YYYY-MM-DD`. */
export function formatCivil(day) {
  const { year, month, day: dayOfMonth } = civil(day);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(dayOfMonth, 2)}`;
}

/** Parses exactly `YYYY-MM-DDTHH:mm` (no seconds, no offset, 24:00 refused) into a minute number. */
export function parseLocal(text) {
  const match = typeof text === 'string' ? LOCAL.exec(text) : null;
  if (!match) return null;
  const day = civilDate(Number(match[1]), Number(match[2]), Number(match[3]));
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  if (day === null || hour > 23 || minute > 59) return null;
  return day * MINUTES_PER_DAY + hour * 60 + minute;
}

/** A minute number as `YYYY-MM-DDTHH:mm`. */
export function formatLocal(minutes) {
  const day = Math.floor(minutes / MINUTES_PER_DAY);
  const rest = minutes - day * MINUTES_PER_DAY;
  return `${formatCivil(day)}T${pad(Math.floor(rest / 60), 2)}:${pad(rest % 60, 2)}`;
}

/** The ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day) {
  return (((day % 7) + 7) % 7) + 1;
}

/** The ISO-8601 week (1…53) and the week-based year it belongs to (2021-01-01: week 53 of 2020). */
export function isoWeek(day) {
  const thursday = day - (isoWeekday(day) - 1) + 3;
  const weekYear = civil(thursday).year;
  const first = dayNumber(weekYear, 1, 1);
  return { weekYear, week: Math.floor((thursday - first) / 7) + 1 };
}

/** Today's civil date in the browser's time zone (or of `now`), as a day number. */
export function today(now = new Date()) {
  return dayNumber(now.getFullYear(), now.getMonth() + 1, now.getDate());
}
