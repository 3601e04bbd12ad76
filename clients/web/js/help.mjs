// The help dialog's lines: every key and what it does, in the page's language (loaded with the
// first look at the help).

import { HELP_TEXTS } from './help-texts.mjs';
import { actionKey, actionTitle, ENTRY_ACTIONS, availableActions } from './wording.mjs';

/** The help: [keys, meaning] pairs. */
export function helpLines(language) {
  const help = HELP_TEXTS[language] ?? HELP_TEXTS.en;
  const taskActions = [...availableActions({ kind: 'activity', schedule: {} }), 'addChild'];
  return [
    ...help.keys,
    ...taskActions.map((action) => [actionKey(action), actionTitle(language, action)]),
    [help.resources, ''],
    ...ENTRY_ACTIONS.map((action) => [action === 'entryDetails' ? 'Enter i' : actionKey(action), actionTitle(language, action)]),
    ...help.more,
  ];
}
