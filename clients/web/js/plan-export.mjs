// Exports (no DOM): the formats the export menu offers, the server's export address for a plan
// (current, or as of a past version: interchange.md "Exports", `GET /plans/ID/export`), the
// downloaded file's name, and in words what was exported and what could not be written
// (`X-Export-Warnings`), or why an export failed. export-menu.mjs does the fetching and downloading.

import { texts } from './strings.mjs';

/** The menu's formats in its order; `png` is drawn in the page (chart-png.mjs), the others come from the server. */
export const EXPORT_FORMATS = ['msproject', 'csv', 'ics', 'json', 'png'];

/** Each format's file name suffix. */
export const SUFFIXES = { msproject: 'xml', csv: 'csv', ics: 'ics', json: 'json', png: 'png' };

/** The address of a plan's export in `format`, as of `version` (null: the current version). */
export function exportPath(plan, format, version = null) {
  const query = new URLSearchParams({ format });
  if (version !== null && version !== undefined) query.set('version', String(version));
  return `/plans/${encodeURIComponent(plan)}/export?${query}`;
}

/**
 * The downloaded file's name: the one the server's `Content-Disposition` gives (it names a past
 * version `ID-vV.ext` itself), else the plan id with what a file name may not hold replaced, as
 * the server does, and `-vV` before the suffix for a past version, so that it is not taken for
 * the current plan.
 */
export function fileName(plan, format, version = null, disposition = null) {
  const given = /filename="([^"/\\]+)"/.exec(disposition ?? '')?.[1];
  if (given) return given;
  const suffix = SUFFIXES[format];
  const name = `${String(plan).replace(/[^A-Za-z0-9._-]/g, '_')}.${suffix}`;
  if (version === null || version === undefined) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-v${version}${name.slice(dot)}` : `${name}-v${version}`;
}

/** The codes of an `X-Export-Warnings` header ("entryWithoutTask,progressRounded"), without repeats. */
export function warningCodes(header) {
  return [...new Set(String(header ?? '').split(',').map((code) => code.trim()).filter((code) => code !== ''))];
}

/** The status line after an export: "Exported plan.xml; bookings without a task are not in MS Project files." */
export function exportedText(language, name, header = null) {
  const t = texts(language);
  const words = warningCodes(header).map((code) => t.exportWarnings[code] ?? t.exportWarningOther(code));
  return t.exported(name, words);
}

/**
 * Why an export failed, in words: `failure` is { status, message } for an answer that is not 200
 * (401 a token not taken, 404 a plan or version the user cannot see), { network: true } when no
 * answer came, { drawing: true } when the chart could not be drawn.
 */
export function failureText(language, failure) {
  const t = texts(language);
  if (failure.network) return t.exportFailed(t.exportUnreachable);
  if (failure.drawing) return t.exportFailed(t.exportNotDrawn);
  if (failure.status === 401) return t.exportFailed(t.exportUnauthorized);
  if (failure.status === 404) return t.exportFailed(t.exportNotFound);
  const message = String(failure.message ?? '').trim().slice(0, 200);
  return t.exportFailed(t.exportStatus(failure.status, message));
}
