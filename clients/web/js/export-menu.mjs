// The export menu (`E`, or Export in the toolbar): MS Project XML, CSV, iCalendar and JSON from
// the server (`GET /plans/ID/export` with the page's token as a bearer token, of the past version
// when one is shown), and the task chart as a PNG drawn in the page (chart-png.mjs). A file is
// downloaded through a Blob and a temporary `<a download>`; the status line says what was written
// and what could not be (X-Export-Warnings), or why the export failed.

import { $, h } from './dom.mjs';
import { feedTexts, openCalendarFeed } from './calendar-feed.mjs';
import { EXPORT_FORMATS, exportPath, fileName, exportedText, failureText } from './plan-export.mjs';

/**
 * Opens the menu under the toolbar's Export button (the page's #menu: ↑ ↓ move, Enter picks, Escape
 * closes): the formats, then "Subscribe in your calendar…" (calendar-feed.mjs) for the live plan.
 */
export function openExportMenu(view) {
  const t = view.t;
  const menu = $('#menu');
  const box = $('#export').getBoundingClientRect();
  const subscribe = view.historical ? null : h('button', {
    type: 'button', role: 'menuitem', id: 'subscribe-calendar', text: feedTexts(view).feedSubscribe,
    onclick: () => openCalendarFeed(view),
  });
  menu.replaceChildren(...EXPORT_FORMATS.map((format) => h('button', {
    type: 'button', role: 'menuitem', dataset: { format }, text: t.exportFormats[format],
    onclick: () => {
      view.actions.closeMenu();
      runExport(view, format);
    },
  })), subscribe);
  Object.assign(menu.style, { left: `${Math.max(Math.min(box.left, innerWidth - 260), 0)}px`, top: `${box.bottom + 2}px` });
  menu.hidden = false;
  menu.querySelector('button').focus();
}

/** An export that did not give a file: { status, message } (an HTTP answer), { network } or { drawing }. */
export class ExportFailure extends Error {
  constructor(failure) {
    super(failure.message ?? `export failed (${failure.status ?? (failure.network ? 'network' : 'drawing')})`);
    this.failure = failure;
  }
}

/**
 * The server's export of `plan` in `format` (as of `version`, null: current) for `token`:
 * { blob, name, warnings (the X-Export-Warnings header) }; throws an ExportFailure.
 */
export async function fetchExport(token, plan, format, version = null) {
  let response;
  try {
    response = await fetch(exportPath(plan, format, version), { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch (error) {
    throw new ExportFailure({ network: true, message: error.message });
  }
  if (!response.ok) {
    const message = await response.text().catch(() => '');
    throw new ExportFailure({ status: response.status, message });
  }
  let blob;
  try {
    blob = await response.blob();
  } catch (error) {
    throw new ExportFailure({ network: true, message: error.message });
  }
  const name = fileName(plan, format, version, response.headers.get('Content-Disposition'));
  return { blob, name, warnings: response.headers.get('X-Export-Warnings') };
}

/** Downloads `blob` as a file called `name` (a temporary object URL on a temporary link). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the URL by the time this runs; keeping it longer would only hold memory.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Exports the shown copy (the live plan, or the past version shown) in `format` and says how it went. */
export async function runExport(view, format) {
  const { app } = view;
  const version = view.historical?.version ?? null;
  app.status(view.t.exporting(view.t.exportFormats[format]));
  try {
    const file = format === 'png'
      ? await (await import('./chart-png.mjs')).chartFile(view, version)
      : await fetchExport(app.token(), view.plan, format, version);
    download(file.blob, file.name);
    app.status(exportedText(view.language, file.name, file.warnings));
  } catch (error) {
    // Else the PNG module could not be fetched (the server went away before it was).
    app.status(error instanceof ExportFailure ? failureText(view.language, error.failure) : view.t.serverError(error.message), true);
  }
}
