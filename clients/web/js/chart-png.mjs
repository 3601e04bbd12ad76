// "Chart as PNG": the task chart as the page shows it (the rows and columns on screen, in the
// page's colours) drawn from the view's data (chart-picture.mjs) onto a canvas at twice the CSS
// size, and encoded as PNG.

import { $ } from './dom.mjs';
import { chartPicture, FONTS } from './chart-picture.mjs';
import { fileName } from './plan-export.mjs';
import { ExportFailure } from './export-menu.mjs';

/** Canvas pixels per CSS pixel: sharp on a slide or a high-density screen. */
const SCALE = 2;
const COLOURS = ['bg', 'fg', 'muted', 'line', 'soft', 'weekend', 'off', 'bar', 'bar-fill', 'summary', 'milestone', 'arrow',
  'baseline', 'today', 'critical', 'critical-fill'];

/** The chart of `view` (plan-view.mjs) as { blob (image/png), name } — `version` names a past version's file. */
export async function chartFile(view, version = null) {
  if (view.view !== 'tasks') {
    await view.setView('tasks');
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }
  const scroller = $('#tasks');
  const state = view.tasksView.state;
  if (!state) throw new ExportFailure({ drawing: true });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  const measure = (text, font) => {
    context.font = FONTS[font];
    return context.measureText(text).width;
  };
  const picture = chartPicture(state, {
    scrollTop: scroller.scrollTop, scrollLeft: scroller.scrollLeft, width: scroller.clientWidth, height: scroller.clientHeight,
  }, measure);
  canvas.width = picture.width * SCALE;
  canvas.height = picture.height * SCALE;
  paint(context, picture, palette());
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new ExportFailure({ drawing: true });
  return { blob, name: fileName(view.plan, 'png', version) };
}

/** The page's colours (its custom properties, so that dark mode draws dark). */
function palette() {
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries(COLOURS.map((name) => [name, style.getPropertyValue(`--${name}`).trim() || '#000']));
}

/** Paints the picture's shapes in order. */
export function paint(context, picture, colours) {
  context.scale(SCALE, SCALE);
  context.textBaseline = 'alphabetic';
  for (const shape of picture.shapes) {
    context.save();
    if (shape.clip) {
      const [x, y, width, height] = picture.clips[shape.clip];
      context.beginPath();
      context.rect(x, y, width, height);
      context.clip();
    }
    if (shape.rect) {
      context.fillStyle = colours[shape.fill];
      context.beginPath();
      if (shape.radius && context.roundRect) context.roundRect(...shape.rect, shape.radius);
      else context.rect(...shape.rect);
      context.fill();
    } else if (shape.line) {
      const [x1, y1, x2, y2] = shape.line;
      context.strokeStyle = colours[shape.stroke];
      context.lineWidth = shape.width ?? 1;
      context.beginPath();
      context.moveTo(x1, y1);
      context.lineTo(x2, y2);
      context.stroke();
    } else if (shape.path) {
      const path = new Path2D(shape.path);
      if (shape.fill) {
        context.fillStyle = colours[shape.fill];
        context.fill(path);
      } else {
        context.strokeStyle = colours[shape.stroke];
        context.lineWidth = shape.width ?? 1;
        context.stroke(path);
      }
    } else if (shape.text) {
      context.font = FONTS[shape.font];
      context.fillStyle = colours[shape.fill];
      context.textAlign = shape.align ?? 'left';
      context.fillText(shape.maxWidth ? ellipsis(context, shape.text, shape.maxWidth) : shape.text, shape.x, shape.y);
    }
    context.restore();
  }
}

/** `text` shortened with "…" to fit `width` (as the list's cells do with text-overflow). */
function ellipsis(context, text, width) {
  if (context.measureText(text).width <= width) return text;
  // The longest start that fits with the ellipsis (by halving: a title may be long).
  let [low, high] = [0, text.length];
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (context.measureText(`${text.slice(0, middle)}…`).width <= width) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, low)}…`;
}
