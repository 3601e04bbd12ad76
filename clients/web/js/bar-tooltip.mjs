// The task chart's tooltips (loaded after the first render): resting the pointer on a bar, a
// summary bar or a diamond shows the task's title, dates, progress and — in an automatic plan —
// its slack (tooltip-text.mjs); with the keyboard, the selected row's tooltip shows while the list
// has the focus and the selection moves. One element, role="tooltip", named by the list's
// aria-describedby while it shows; Escape, a press, a scroll or leaving hides it.

import { h, $ } from './dom.mjs';
import { barTooltip } from './tooltip-text.mjs';

const MARKS = '.bar, .bar-fill, .summary-bar, .milestone, .unscheduled';
/** How long the pointer rests on a mark before its tooltip shows. */
const HOVER_MS = 250;
const KEYS = ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', 'j', 'k', 'n', 'N'];
let installed = false;

/** The mark of task `id` in the task chart, or null. */
function markOf(id) {
  for (const node of document.querySelectorAll(`#tasks svg.chart-body [data-id="${CSS.escape(id)}"]`)) {
    if (node.matches(MARKS)) return node;
  }
  return null;
}

export function install(app) {
  if (installed) return;
  installed = true;
  document.head.append(h('link', { rel: 'stylesheet', href: 'tooltip.css' }));
  const tip = h('div', { id: 'bar-tip', class: 'tip', role: 'tooltip', hidden: true });
  document.body.append(tip);
  let timer = 0;

  const hide = () => {
    clearTimeout(timer);
    tip.hidden = true;
    delete tip.dataset.id;
    delete tip.dataset.by;
    $('#tasks')?.removeAttribute('aria-describedby');
  };

  /** Shows task `id`'s tooltip under (or over) `anchor`, a mark or its row; `by` 'pointer' or 'focus'. */
  const show = (id, anchor, by) => {
    const view = app.planView;
    const task = view?.copy?.get(id);
    if (!task || !anchor?.isConnected || $('#plan-view').hidden || view.view !== 'tasks') return hide();
    const figure = view.historical ? null : view.client.figures?.tasks?.[id] ?? null;
    const lines = barTooltip({ task, values: view.valuesOf(task), figure, automatic: view.copy.settings?.scheduling === 'automatic',
      language: view.language, t: view.t });
    tip.replaceChildren(...lines.map(({ kind, text }) => h('div', { class: kind, text })));
    Object.assign(tip.dataset, { id, by });
    tip.hidden = false;
    $('#tasks').setAttribute('aria-describedby', 'bar-tip');
    const box = anchor.getBoundingClientRect();
    const chart = $('#tasks svg.chart-body').getBoundingClientRect();
    const left = Math.min(Math.max(box.left, chart.left) + 4, innerWidth - tip.offsetWidth - 4);
    const below = box.bottom + 6;
    const top = below + tip.offsetHeight <= innerHeight ? below : box.top - tip.offsetHeight - 6;
    Object.assign(tip.style, { left: `${Math.max(left, 4)}px`, top: `${Math.max(top, 4)}px` });
  };

  /** The selected row's tooltip, once the frame that draws the new selection is done. */
  const showSelected = () => requestAnimationFrame(() => requestAnimationFrame(() => {
    const view = app.planView;
    if (!view?.selectedID || document.activeElement !== $('#tasks')) return;
    show(view.selectedID, markOf(view.selectedID) ?? $(`#tasks .row[data-id="${CSS.escape(view.selectedID)}"]`), 'focus');
  }));

  document.addEventListener('pointerover', (event) => {
    clearTimeout(timer);
    const mark = event.target.closest?.('#tasks svg.chart-body [data-id]');
    if (!mark?.matches(MARKS)) {
      if (tip.dataset.by === 'pointer') hide();
      return;
    }
    timer = setTimeout(() => show(mark.dataset.id, mark, 'pointer'), HOVER_MS);
  });
  document.addEventListener('pointerdown', hide);
  document.addEventListener('scroll', hide, { capture: true, passive: true });
  document.addEventListener('focusin', (event) => {
    if (event.target === $('#tasks') && event.target.matches(':focus-visible')) showSelected();
  });
  document.addEventListener('focusout', (event) => {
    if (event.target === $('#tasks')) hide();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hide();
    else if (event.target === $('#tasks') && KEYS.includes(event.key) && !event.altKey) showSelected();
  });
}
