// The help dialog's lines: every key and what it does, in the page's language (loaded with the
// first look at the help).

import { texts } from './strings.mjs';
import { actionKey, actionTitle, ENTRY_ACTIONS, availableActions } from './wording.mjs';

/** The help: [keys, meaning] pairs. */
export function helpLines(language) {
  const help = texts(language).helpText;
  const taskActions = [...availableActions({ kind: 'activity', schedule: {} }), 'addChild'];
  return [
    ...help.keys,
    ...taskActions.map((action) => [actionKey(action), actionTitle(language, action)]),
    [help.resources, ''],
    ...ENTRY_ACTIONS.map((action) => [action === 'entryDetails' ? 'Enter i' : actionKey(action), actionTitle(language, action)]),
    ...help.more,
  ];
}
