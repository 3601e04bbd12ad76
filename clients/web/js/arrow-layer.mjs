// The task chart's arrows (tasks-view.mjs), drawn so that scrolling costs little per frame: each
// arrow's nodes stay while its rows are near the screen and it reaches into the chart's width (the
// visible part and one more to the right), in the chart's own coordinates (from a base row moved
// every BASE_ROWS rows), and only the layer's transform follows the scroll. As rows come near, the
// arrows touching them are added, and those left behind removed, a few at a time; an arrow is
// drawn again only when its rows, its label or its tint changed. Loaded with arrows.mjs after the
// first render (plan-tree.mjs loadArrows).

import { s, sameKey, setChanged } from './dom.mjs';
import { arrowPath, criticalArrow } from './arrows.mjs';
import { arrowLabel } from './wording.mjs';
import { BASE_ROWS } from './chart-draw.mjs';

export { ArrowIndex } from './arrows.mjs';

/** The rows asked for are whole steps of this many, with MARGIN more above and below the screen. */
const STEP = 8;
const MARGIN = 8;

/** An arrow (arrows.mjs arrowBetween) drawn from (x1, y1) to (x2, y2), with its `label` ("SS +2") before its head. */
export function arrowNodes(x1, y1, x2, y2, arrow, label = '', critical = false) {
  const path = arrowPath(x1, y1, x2, y2, arrow);
  const tint = critical ? ' critical' : '';
  const nodes = [s('path', { class: `arrow${tint}`, d: path.d }), s('path', { class: `arrow-head${tint}`, d: path.head })];
  if (label) nodes.push(s('text', { class: 'arrow-label', x: path.labelX, y: y2 - 5, 'text-anchor': path.labelAnchor, text: label }));
  return nodes;
}

export class ArrowLayer {
  /** layer: the SVG group the arrows go in; rowHeight in pixels. */
  constructor(layer, rowHeight) {
    this.layer = layer;
    this.rowHeight = rowHeight;
    /** arrow → { nodes, look (rows, label and tint when drawn) }. */
    this.drawn = new Map();
  }

  /**
   * Draws the arrows near rows [first, end) for `state` (tasks-view.mjs: arrowsIn, shape, axis,
   * columnWidth, figures, calendar, language) scrolled to (scrollLeft, scrollTop), `width` wide.
   */
  render(state, first, end, scrollTop, scrollLeft, width) {
    const top = Math.max(Math.floor(first / STEP) * STEP - MARGIN, 0);
    const bottom = Math.ceil(end / STEP) * STEP + MARGIN;
    const base = Math.floor(first / BASE_ROWS) * BASE_ROWS;
    const bandWidth = Math.max(width, 400);
    const left = Math.floor(scrollLeft / bandWidth) * bandWidth;
    // A new axis, zoom or base moves every arrow: all are drawn anew.
    const frame = [state.axis, state.columnWidth, base];
    if (!sameKey(frame, this.frame)) {
      this.frame = frame;
      this.key = null;
      this.drawn.clear();
      this.layer.replaceChildren();
    }
    const key = [...state.shape, top, bottom, left, bandWidth, state.figures, state.calendar, state.language];
    if (!sameKey(key, this.key)) {
      this.key = key;
      const dayPx = state.columnWidth / state.axis.zoom;
      const x = (day) => (day - state.axis.start) * dayPx;
      const reaching = (arrow) => Math.max(x(arrow.fromDay), x(arrow.toDay)) >= left - 20
        && Math.min(x(arrow.fromDay), x(arrow.toDay)) <= left + 2 * bandWidth + 20;
      this.place(state, state.arrowsIn(top, bottom).filter(reaching), base);
    }
    setChanged(this.layer, 'transform', `translate(${-scrollLeft} ${base * this.rowHeight - scrollTop})`);
  }

  /** Keeps the nodes of the arrows still wanted and unchanged, removes the others', draws the new ones. */
  place(state, arrows, base) {
    const wanted = new Set(arrows);
    for (const [arrow, drawn] of this.drawn) {
      if (wanted.has(arrow)) continue;
      for (const node of drawn.nodes) node.remove();
      this.drawn.delete(arrow);
    }
    const dayPx = state.columnWidth / state.axis.zoom;
    const middle = (row) => (row - base) * this.rowHeight + this.rowHeight / 2 - 1;
    for (const arrow of arrows) {
      const label = arrowLabel(state.language, arrow.dependency);
      const critical = criticalArrow(arrow, state.figures, state.calendar);
      const look = `${arrow.fromRow} ${arrow.toRow} ${critical} ${label}`;
      const drawn = this.drawn.get(arrow);
      if (drawn?.look === look) continue;
      const nodes = arrowNodes((arrow.fromDay - state.axis.start) * dayPx, middle(arrow.fromRow),
        (arrow.toDay - state.axis.start) * dayPx, middle(arrow.toRow), arrow, label, critical);
      if (drawn) for (const node of drawn.nodes) node.remove();
      this.layer.append(...nodes);
      this.drawn.set(arrow, { nodes, look });
    }
  }
}
