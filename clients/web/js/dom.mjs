// Small DOM helpers. User text only ever goes through textContent or attribute setters (never
// innerHTML): a title of `<img src=x onerror=alert(1)>` is shown as those characters.

const SVG = 'http://www.w3.org/2000/svg';

/** An HTML element: `h('button', { class: 'x', onclick }, 'text', child…)`. */
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element with attributes. */
export function s(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG, tag), props, children);
}

function build(element, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'text') element.textContent = value;
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Follows a pointer pressed on `element` (captured): `move(event)` while it moves, `up(event)` once
 * when it is released or cancelled (`event.type` tells which). */
export function follow(element, pressed, { move = () => {}, up }) {
  element.setPointerCapture(pressed.pointerId);
  const end = (event) => {
    element.removeEventListener('pointermove', move);
    element.removeEventListener('pointerup', end);
    element.removeEventListener('pointercancel', end);
    up(event);
  };
  element.addEventListener('pointermove', move);
  element.addEventListener('pointerup', end);
  element.addEventListener('pointercancel', end);
}

/** Whether two cache keys (arrays) hold the same parts; false when `old` is missing. */
export const sameKey = (key, old) => !!old && key.length === old.length && key.every((part, index) => part === old[index]);

/** Fills every `[data-t]` element with its text in the language (`data-t-title` for titles, `data-t-placeholder`). */
export function applyTexts(root, t) {
  for (const element of root.querySelectorAll('[data-t]')) element.textContent = t[element.dataset.t] ?? element.dataset.t;
  for (const element of root.querySelectorAll('[data-t-placeholder]')) element.placeholder = t[element.dataset.tPlaceholder] ?? '';
  for (const element of root.querySelectorAll('[data-t-title]')) {
    const label = t[element.dataset.tTitle] ?? element.dataset.tTitle;
    element.title = label;
    element.setAttribute('aria-label', label);
  }
}

/** Text width in CSS pixels of the chart's label font (a shared canvas; widths are remembered). */
let measureContext = null;
const widths = new Map();
export function textWidth(text, font = '12px system-ui, sans-serif') {
  const key = `${font}\u0000${text}`;
  let width = widths.get(key);
  if (width !== undefined) return width;
  if (!measureContext) measureContext = document.createElement('canvas').getContext('2d');
  if (measureContext.font !== font) measureContext.font = font;
  width = measureContext.measureText(text).width;
  if (widths.size > 4000) widths.clear();
  widths.set(key, width);
  return width;
}

/** Sets an attribute only when its value changes (an equal write still invalidates style). */
export function setChanged(node, name, value) {
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}

/** Keeps one node per index in [first, end) in `nodes` (dropping the others, making missing ones), then `fill(node, index)`s each. */
export function recycle(nodes, first, end, make, fill) {
  for (const [index, node] of nodes) {
    if (index < first || index >= end) {
      node.remove();
      nodes.delete(index);
    }
  }
  for (let index = first; index < end; index += 1) {
    if (!nodes.has(index)) nodes.set(index, make());
    fill(nodes.get(index), index);
  }
}
