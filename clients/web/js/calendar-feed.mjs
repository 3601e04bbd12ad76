// "Subscribe in your calendar" (interchange.md §13): asks the server for the user's feed key of the
// plan (`{"type":"feed"}`, the same key on every asking) and shows the feed's full address, to copy
// or to open in a calendar application (webcal:). "Stop this address" revokes the key (`"revoke":true`):
// the address stops working at once, and the next asking gives a new one. Shown in the page's #menu.

import { $, h } from './dom.mjs';

/** The texts of the feed, by language (only this module and the export menu use them). */
export const FEED_TEXTS = {
  en: {
    feedSubscribe: 'Subscribe in your calendar…', feedAsking: 'Asking for the calendar address…',
    feedTitle: 'Calendar address of this plan', feedCopy: 'Copy address', feedOpen: 'Open in calendar app',
    feedHint: 'Calendar apps that subscribe see the dated tasks. Anyone with the address can read them: share it like a password.',
    feedCopied: 'Address copied.', feedSelect: 'The address is selected: copy it with Ctrl+C.',
    feedRevoke: 'Stop this address', feedRevoked: 'The address no longer works; subscribing again gives a new one.',
    feedFailed: (why) => `No calendar address: ${why}`,
  },
  de: {
    feedSubscribe: 'Im Kalender abonnieren …', feedAsking: 'Kalenderadresse wird angefragt …',
    feedTitle: 'Kalenderadresse dieses Plans', feedCopy: 'Adresse kopieren', feedOpen: 'In der Kalender-App öffnen',
    feedHint: 'Kalender-Apps, die sie abonnieren, sehen die datierten Aufgaben. Wer die Adresse hat, kann sie lesen: wie ein Passwort weitergeben.',
    feedCopied: 'Adresse kopiert.', feedSelect: 'Die Adresse ist markiert: mit Strg+C kopieren.',
    feedRevoke: 'Diese Adresse beenden', feedRevoked: 'Die Adresse gilt nicht mehr; ein neues Abonnement erhält eine neue.',
    feedFailed: (why) => `Keine Kalenderadresse: ${why}`,
  },
};

/** The feed's texts in the view's language. */
export const feedTexts = (view) => FEED_TEXTS[view.language] ?? FEED_TEXTS.en;

/** The feed's full address for the server's `path`, and the same as a webcal: link. */
export function feedAddresses(path, base = location.href) {
  const url = new URL(path, base).href;
  return { url, webcal: url.replace(/^https?:/, 'webcal:') };
}

/** Asks for the feed key and shows the address in the menu (or says why there is none). */
export function openCalendarFeed(view) {
  const t = feedTexts(view);
  view.app.status(t.feedAsking);
  view.client.request({ type: 'feed', plan: view.plan }, (answer) => {
    if (answer.type !== 'feed' || !answer.path) {
      view.app.status(t.feedFailed(answer.message ?? answer.code ?? ''), true);
      return;
    }
    view.app.status('');
    showAddress(view, feedAddresses(answer.path));
  });
}

function showAddress(view, { url, webcal }) {
  const t = feedTexts(view);
  const menu = $('#menu');
  const field = h('input', { id: 'feed-url', type: 'text', readOnly: true, value: url, 'aria-label': t.feedTitle });
  const copy = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(url);
      view.app.status(t.feedCopied);
    } catch {
      // No clipboard (an insecure origin): the address is selected for Ctrl+C.
      view.app.status(t.feedSelect);
    }
  };
  menu.replaceChildren(
    h('strong', { text: t.feedTitle }),
    h('p', { class: 'feed-hint', text: t.feedHint }),
    field,
    h('button', { type: 'button', role: 'menuitem', id: 'feed-copy', text: t.feedCopy, onclick: copy }),
    h('a', { id: 'feed-open', href: webcal, role: 'menuitem', text: t.feedOpen }),
    h('button', { type: 'button', role: 'menuitem', id: 'feed-revoke', text: t.feedRevoke, onclick: () => revoke(view) }),
  );
  menu.hidden = false;
  field.focus();
  field.select();
}

function revoke(view) {
  view.client.request({ type: 'feed', plan: view.plan, revoke: true }, (answer) => {
    view.actions.closeMenu();
    if (answer.type === 'feed' && answer.revoked) view.app.status(feedTexts(view).feedRevoked);
    else view.app.status(feedTexts(view).feedFailed(answer.message ?? answer.code ?? ''), true);
  });
}
