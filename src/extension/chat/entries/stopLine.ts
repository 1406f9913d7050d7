import type { Banner, ChatEntry, Remedy } from '../../../protocol/chatView';
import { t } from '@vscode/l10n';

// A task that stopped on its own, as the panel says it: one line in the conversation, with the button that
// fixes its cause, and a banner that says no more than that line (it is where Retry is, at hand whatever the
// conversation scrolled to). The reason is the agent's, which states the fault and names no front end's
// remedy (retryPolicy.ts): here the remedy is one of Loopwire's commands, picked from the stop's code.

/** The codes whose fix is not the log; see retryPolicy.ts and src/protocol/errorCodes.ts for where they come from. */
const REMEDIES = new Map<string, Remedy>([
  ['auth', 'setApiKey'],
  ['unreachable', 'selectEndpoint'],
  ['websocket_unsupported', 'selectEndpoint'],
  ['model_not_found', 'selectEndpoint'],
]);

/** What fixes a stop of `code`: Set API Key… for refused credentials, Select Endpoint… for a wrong endpoint or model, else Show Log. */
export function remedyFor(code: string | undefined): Remedy {
  return (code === undefined ? undefined : REMEDIES.get(code)) ?? 'showLog';
}

/**
 * The stops whose reason is the agent loop's own phrase ("the turn limit (30) was reached"), not a sentence:
 * in a language without lower case (zh-cn) the first letter cannot tell them apart.
 */
const PHRASES = new Set(['max_turns', 'no_progress', 'incomplete', 'internal', 'cancelled']);

/** The line of a stop: the agent's sentence as it is, or a reason in lower case ("the turn limit …") made one. */
export function stopLine(id: string, reason: string, code: string | undefined): ChatEntry {
  const phrase = /^\p{Ll}/u.test(reason) || (code !== undefined && PHRASES.has(code) && !/^\p{Lu}/u.test(reason));
  // The sentence's full stop is the translation's own (。 in Chinese), so the phrase goes in without one.
  const text = phrase
    ? t('The task stopped: {0}.', reason.replace(/[.。]$/u, ''))
    : /[.!?。！？]$/u.test(reason)
      ? reason
      : `${reason}.`;
  return { kind: 'notice', id, level: 'error', text, remedy: remedyFor(code) };
}

/** The stops at a limit of the agent's own (the response ceiling, no progress): the user may let it go on. */
const LIMITS = new Set(['max_turns', 'no_progress']);

/** The banner of a stop: no reason of its own (the line has it), and Retry (Continue, after a limit) where the task can go on. */
export function stopBanner(retry: boolean, code?: string): Banner {
  if (code !== undefined && LIMITS.has(code))
    return { kind: 'limit', text: t('The task stopped at its limit.'), retry };
  return { kind: 'failed', text: t('The task stopped.'), retry };
}
