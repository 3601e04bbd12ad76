// Zooming the charts by gesture (loaded after the first render): two fingers pinched apart zoom
// in, together zoom out (a step each time their distance changes by a quarter,
// zoom-steps.mjs pinchStep), and so does Ctrl with the wheel (a touchpad's pinch). The chart keeps its centre date.

import { pinchStep } from './zoom-steps.mjs';
import { zoomIn, zoomOut } from './viewport.mjs';

const CHARTS = '#tasks, #resources';
/** How much wheel (pixels) makes one zoom step. */
const WHEEL_STEP = 80;
let installed = false;

const distance = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);

export function install(app) {
  if (installed) return;
  installed = true;
  const zoom = (step) => {
    const view = app.planView;
    if (view?.axis && step !== 0) view.applyViewport((step > 0 ? zoomIn : zoomOut)(view.viewport()));
  };
  let pinch = null;
  document.addEventListener('touchstart', (event) => {
    pinch = event.touches.length === 2 && event.target.closest?.(CHARTS) ? distance(event.touches) : null;
  }, { passive: true });
  document.addEventListener('touchmove', (event) => {
    if (pinch === null || event.touches.length !== 2) return;
    const step = pinchStep(pinch, distance(event.touches));
    if (step === 0) return;
    zoom(step);
    pinch = distance(event.touches);
  }, { passive: true });
  document.addEventListener('touchend', (event) => {
    if (event.touches.length < 2) pinch = null;
  }, { passive: true });
  let wheel = 0;
  document.addEventListener('wheel', (event) => {
    if (!event.ctrlKey || !event.target.closest?.(CHARTS)) return;
    event.preventDefault(); // not the browser's page zoom
    wheel += event.deltaY;
    if (Math.abs(wheel) < WHEEL_STEP) return;
    zoom(wheel < 0 ? 1 : -1);
    wheel = 0;
  }, { passive: false });
}
