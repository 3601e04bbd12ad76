// The page: sign in with a token (kept in sessionStorage, never in an address), list the user's
// plans, open one (`?plan=ID` opens it directly), and keep the heading's connection state. Language
// from the browser, with a switch kept in localStorage.

import { $, h, applyTexts } from './dom.mjs';
import { texts, languageFor, loadLanguage, LANGUAGES } from './strings.mjs';
import { Session } from './session.mjs';
import { PendingProposals } from './pending.mjs';
import { PlanView } from './plan-view.mjs';
import { FormDialog } from './forms.mjs';
import { planKey } from './keys.mjs';

const TOKEN_KEY = 'chronosketch.token';
const LANGUAGE_KEY = 'chronosketch.language';

const app = {
  language: () => app.currentLanguage,
  t: () => texts(app.currentLanguage),
  currentLanguage: LANGUAGES.find((language) => language === localStorage.getItem(LANGUAGE_KEY))
    ?? languageFor(navigator.languages),
  session: null,
  /** The signed-in token (the exports' Authorization header, as the WebSocket's hello). */
  token: () => app.session?.options.token ?? null,
  planView: null,
  pending: new PendingProposals(sessionStorage, () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')),
  forms: new FormDialog($('#form-dialog')),
  status(text, error = false) {
    const status = $('#status');
    status.textContent = text;
    status.classList.toggle('error', error);
  },
  /** The open plan cannot be shown (it is not visible to the user, or the role was lost). */
  planLost(reason) {
    closePlan();
    listPlans();
    app.status(reason, true);
  },
  setHeading(title) {
    $('#heading').textContent = title;
    document.title = `${title} · ChronoSketch`;
  },
  async showHelp() {
    const { helpLines } = await import('./help.mjs');
    const keys = $('#help-keys');
    keys.replaceChildren(...helpLines(app.currentLanguage).flatMap(([key, meaning]) => [h('dt', { text: key }), h('dd', { text: meaning })]));
    $('#help-dialog').showModal();
  },
};

function applyLanguage() {
  document.documentElement.lang = app.currentLanguage;
  const t = app.t();
  applyTexts(document, t);
  $('#language').textContent = t.language;
  app.planView?.render();
  if (app.planView) app.planView.tasksView.schedule(true);
  showConnection(app.connectionState ?? { kind: 'connecting' });
}

function showScreen(name) {
  for (const id of ['sign-in', 'plan-list', 'plan-view']) $(`#${id}`).hidden = id !== name;
  $('#to-plans').hidden = name !== 'plan-view';
  $('#sign-out').hidden = name === 'sign-in';
  for (const id of ['connection', 'version', 'role', 'presence', 'pending']) if (name === 'sign-in') $(`#${id}`).textContent = '';
}

/** The connection in the heading; while a reconnect waits, its countdown (each second) and Retry now. */
function showConnection(state) {
  if (state !== app.connectionState) state.until = state.delay ? Date.now() + state.delay : null;
  app.connectionState = state;
  clearTimeout(app.countdown);
  const t = app.t();
  const element = $('#connection');
  element.className = `badge ${state.kind}`;
  const left = state.until ? state.until - Date.now() : 0;
  $('#retry-now').hidden = !app.session || left <= 0;
  if (!app.session) element.textContent = '';
  else if (state.kind === 'connected') element.textContent = t.connected;
  else if (state.kind === 'connecting') element.textContent = t.connecting;
  else if (left <= 0) element.textContent = t.reconnecting;
  else {
    element.textContent = t.reconnectIn(Math.ceil(left / 1000));
    app.countdown = setTimeout(() => showConnection(state), left % 1000 || 1000);
  }
}

function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  app.session = new Session({
    url: `${scheme}//${location.host}/ws`, token, WebSocket, setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id), random: Math.random, onState: showConnection,
    onWelcome: (welcome) => welcomed(welcome), onMessage: (message) => received(message),
    onAuthFailed: (reason) => signOut(app.t().tokenRefused + (reason ? ` (${reason})` : '')),
  });
  app.session.start();
}

function welcomed(welcome) {
  app.user = welcome.user;
  const plan = new URLSearchParams(location.search).get('plan');
  if (app.planView) app.planView.client.welcomed(welcome);
  else if (plan) openPlan(plan, welcome);
  else listPlans();
}

function received(message) {
  if (message.type === 'plans' && message.ref === 'list') return showPlans(message.plans ?? []);
  app.planView?.client.receive(message);
}

function listPlans() {
  showScreen('plan-list');
  app.setHeading(app.t().appTitle);
  $('#plans').replaceChildren(h('li', { class: 'note', text: app.t().loadingPlans }));
  app.session.send({ type: 'plans', ref: 'list' });
}

function showPlans(plans) {
  const t = app.t();
  $('#plans').replaceChildren(...(plans.length === 0 ? [h('li', { class: 'note', text: t.noPlans })] : plans.map((plan) =>
    h('li', {}, h('span', { class: 'title', text: plan.title || plan.plan }),
      h('span', { class: 'meta', text: `${plan.plan} · ${t.role}: ${t.roles[plan.role] ?? plan.role} · v${plan.version}` }),
      h('button', { type: 'button', text: t.open, dataset: { plan: plan.plan }, onclick: () => openPlan(plan.plan, app.session.welcome) })))));
  $('#plans button')?.focus();
}

function openPlan(plan, welcome) {
  const url = new URL(location.href);
  url.searchParams.set('plan', plan);
  history.replaceState(null, '', url);
  showScreen('plan-view');
  app.setHeading(plan);
  app.status(app.t().loading);
  app.planView = new PlanView(app, plan);
  app.planView.setView('tasks');
  if (welcome) app.planView.client.welcomed(welcome);
}

function closePlan() {
  if (!app.planView) return;
  app.planView.close();
  app.planView = null;
  const url = new URL(location.href);
  url.searchParams.delete('plan');
  history.replaceState(null, '', url);
  app.status('');
}

function signOut(message = '') {
  closePlan();
  app.session?.stop();
  app.session = null;
  sessionStorage.removeItem(TOKEN_KEY);
  showConnection({ kind: 'connecting' });
  showScreen('sign-in');
  app.setHeading(app.t().appTitle);
  $('#sign-in-error').textContent = message;
  $('#token-input').focus();
}

function wire() {
  $('#sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('#token-input').value.trim();
    $('#token-input').value = '';
    if (token) signIn(token);
  });
  $('#sign-out').addEventListener('click', () => signOut());
  $('#retry-now').addEventListener('click', () => app.session?.retryNow());
  $('#to-plans').addEventListener('click', () => {
    closePlan();
    listPlans();
  });
  $('#language').addEventListener('click', async () => {
    const language = app.currentLanguage === 'de' ? 'en' : 'de';
    try {
      await loadLanguage(language);
    } catch (error) {
      // Its module could not be fetched (the server is away): the page stays in its language.
      return app.status(app.t().serverError(error.message ?? String(error)), true);
    }
    app.currentLanguage = language;
    localStorage.setItem(LANGUAGE_KEY, language);
    applyLanguage();
  });
  $('#help-close').addEventListener('click', () => $('#help-dialog').close());
  wireToolbar();
  document.addEventListener('keydown', (event) => {
    const view = app.planView;
    if (!view || $('#plan-view').hidden || app.forms.isOpen || $('#help-dialog').open) return;
    if (!$('#menu').hidden) {
      const items = [...$('#menu').querySelectorAll('button')];
      const index = items.indexOf(document.activeElement);
      if (event.key === 'Escape') view.actions.closeMenu();
      else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        items[(index + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        event.preventDefault();
      }
      return;
    }
    // A divider (list-resize.mjs) takes its own arrows.
    if (event.target.closest?.('input, select, textarea, [role=separator]')) return;
    if ((event.key === 'Enter' || event.key === ' ') && event.target.closest?.('button, a')) return;
    if (planKey(event, view)) event.preventDefault();
  });
  document.addEventListener('pointerdown', (event) => {
    if (!$('#menu').hidden && !event.target.closest('#menu')) $('#menu').hidden = true;
  });
}

function wireToolbar() {
  const press = (key, extra = {}) => app.planView && planKey(new KeyboardEvent('keydown', { key, ...extra }), app.planView);
  for (const [id, key] of [['zoom-in', '+'], ['zoom-out', '-'], ['zoom-fit', 'f'], ['previous', '['], ['next', ']'], ['today', 't'], ['redo', 'Z'], ['help', '?']]) {
    $(`#${id}`).addEventListener('click', () => press(key));
  }
  $('#undo').addEventListener('click', () => app.planView?.actions.undoKey(false));
  $('#settings').addEventListener('click', () => app.planView?.actions.openSettings());
  $('#export').addEventListener('click', () => app.planView?.openExport());
  $('#print').addEventListener('click', () => app.planView?.print());
  // The search's module comes with the first look at its field (search-box.mjs then reads what was typed).
  $('#search').addEventListener('focus', () => app.planView?.openSearch(false));
  $('#add-task').addEventListener('click', () => {
    if (app.planView?.view === 'resources') app.planView.resources?.openAction('addEntry');
    else app.planView?.actions.openAction('addTask');
  });
  for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => app.planView?.setView(tab.dataset.view));
  $('#baseline').addEventListener('change', (event) => app.planView?.actions.chooseBaseline(event.target.value));
  $('#back-to-live').addEventListener('click', () => app.planView?.setHistorical(null));
}

await loadLanguage(app.currentLanguage);
wire();
applyLanguage();
const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  showScreen('plan-list');
  signIn(saved);
} else {
  showScreen('sign-in');
  $('#token-input').focus();
}
