import type { ToolHook } from '../protocol/chatView';
import { h } from './dom';
import { t } from './l10n';

// The line a tool card shows when one of the user's hooks decided about its call (src/agent/hooks): which
// hook event, what it decided and its reason, so that a call run without a question, asked about, or refused
// says why. A denial reads as an error, the rest as a note.

/** The card's hook line: "PreToolUse hook denied: reason". */
export function hookLineView(hook: ToolHook): HTMLElement {
  const reason = hook.reason ? `: ${hook.reason.split('\n')[0] ?? ''}` : '';
  const text = {
    allow: t('{0} hook allowed it{1}', hook.event, reason),
    ask: t('{0} hook asked about it{1}', hook.event, reason),
    deny: t('{0} hook denied it{1}', hook.event, reason),
    block: t('{0} hook blocked it{1}', hook.event, reason),
    context: t('{0} hook added{1}', hook.event, reason),
  }[hook.decision];
  const refused = hook.decision === 'deny' || hook.decision === 'block';
  return h(
    'div',
    { class: `tool-hook${refused ? ' refused' : ''}`, attrs: { title: hook.reason ?? text } },
    h('span', {
      class: `codicon codicon-${refused ? 'circle-slash' : 'symbol-event'}`,
      attrs: { 'aria-hidden': 'true' },
    }),
    h('span', { class: 'tool-hook-text' }, text),
  );
}
