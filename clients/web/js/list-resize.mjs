// The task list's dividers (loaded after the first render): drag the split between list and chart,
// or a column header's right edge, or focus one and press ← / → (16 px, with Shift 64 px). The
// widths are kept in this browser (plan-view.mjs setWidths, list-layout.mjs the rules).

import { follow } from './dom.mjs';
import { STORAGE_KEY } from './list-layout.mjs';
import { resizeColumn, resizeSplit, writeWidths } from './list-widths.mjs';

const DIVIDER = '#tasks .grip, #tasks .splitter';
let installed = false;

/** The width a divider sets now: its column's, or the list's. */
function widthOf(view, divider) {
  const { listLayout } = view.tasksView;
  const column = divider.dataset.column;
  return column ? listLayout.columns.find(([name]) => name === column)?.[1] ?? 0 : listLayout.listWidth;
}

/** Keeps the widths in this browser (storage full or refused: they hold for this page only). */
function keep(widths) {
  try {
    localStorage.setItem(STORAGE_KEY, writeWidths(widths));
  } catch {
    // nothing kept
  }
}

/** The widths with `divider` at `width` pixels. */
function resized(view, divider, widths, width) {
  const column = divider.dataset.column;
  return column ? resizeColumn(widths, column, width) : resizeSplit(widths, width, view.tasksView.width);
}

export function install(app) {
  if (installed) return;
  installed = true;
  document.addEventListener('pointerdown', (event) => {
    const divider = event.target.closest?.(DIVIDER);
    const view = app.planView;
    if (!divider || event.button !== 0 || !view?.tasksView.listLayout) return;
    event.preventDefault(); // no text selection; the divider takes the focus (for ← →) itself
    divider.focus({ preventScroll: true });
    const [startX, start, widths] = [event.clientX, widthOf(view, divider), view.widths];
    divider.classList.add('dragging');
    follow(divider, event, {
      move: (moveEvent) => view.setWidths(resized(view, divider, widths, start + moveEvent.clientX - startX)),
      up: () => {
        divider.classList.remove('dragging');
        keep(view.widths);
      },
    });
  });
  document.addEventListener('keydown', (event) => {
    const divider = event.target.closest?.(DIVIDER);
    const view = app.planView;
    if (!divider || !view?.tasksView.listLayout || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    const step = (event.shiftKey ? 64 : 16) * (event.key === 'ArrowLeft' ? -1 : 1);
    view.setWidths(resized(view, divider, view.widths, widthOf(view, divider) + step));
    keep(view.widths);
  });
}
