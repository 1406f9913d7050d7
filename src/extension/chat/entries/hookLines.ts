import type { AgentEvent } from '../../../agent';
import type { ToolHook } from '../../../protocol/chatView';

// A hook's decision about a tool call (src/agent/hooks: the `notice` with `hook.callId`), as a line on that
// call's card: the user sees that a hook of theirs, not the approval mode, allowed, asked about or denied it,
// and why. Other notices go to the log, as before.

/** Where the line goes: the chat's cards. */
export interface HookCards {
  updateTool(callId: string, change: { hook: ToolHook }): void;
}

/** Puts `event`'s hook decision on its call's card, where it is one. */
export function hookOnCard(cards: HookCards, event: Extract<AgentEvent, { type: 'notice' }>): void {
  const hook = event.hook;
  if (hook?.callId === undefined || hook.decision === undefined) return;
  const reason = hook.reason?.trim();
  cards.updateTool(hook.callId, {
    hook: { event: hook.event, decision: hook.decision, ...(reason ? { reason: reason.slice(0, 4000) } : {}) },
  });
}
