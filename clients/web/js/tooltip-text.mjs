// What a bar's tooltip says (pure): the task's title, its dates (and length in days, or the
// milestone's day), its progress, and — in an automatic plan whose schedule figures for it are
// known — its slack (scheduling.md §6). Each line carries its kind, so the tooltip can style it.

import { formatDate } from './strings.mjs';

/**
 * The lines of the tooltip of `task` with `values` (marks.mjs rowValues), `figure` its schedule
 * figures or null, `automatic` whether the plan schedules automatically: [{ kind, text }], kinds
 * 'title', 'dates', 'progress', 'slack'.
 */
export function barTooltip({ task, values, figure = null, automatic = false, language, t }) {
  const date = (day) => formatDate(language, day);
  const lines = [{ kind: 'title', text: task.title }];
  if (values.start === null) lines.push({ kind: 'dates', text: t.unscheduled });
  else if (task.kind === 'milestone') lines.push({ kind: 'dates', text: t.tipMilestone(date(values.start)) });
  else lines.push({ kind: 'dates', text: t.tipDates(date(values.start), date(values.lastDate), values.end - values.start) });
  if (values.progress !== null && values.start !== null) lines.push({ kind: 'progress', text: t.tipProgress(Math.round(values.progress)) });
  if (automatic && figure && task.kind !== 'summary') lines.push({ kind: 'slack', text: t.slackTitle(figure.slack, figure.critical) });
  return lines;
}
