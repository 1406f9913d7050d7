import { t } from '@vscode/l10n';
import type { AgentEvent } from '../../../agent';
import { groupedTokens } from '../../../protocol/contextMeter';

// The line a compaction leaves in the conversation: the server's past the threshold, the agent's on request
// (an overflow), and the user's `/compact`, which also says how much of the conversation it folded and that
// the next prompt goes on from it.

export function compactionLine(event: Extract<AgentEvent, { type: 'compacted' }>): string {
  const [before, after] = [groupedTokens(event.tokensBefore), groupedTokens(event.tokensAfter)];
  if (event.items !== undefined)
    return t(
      'Conversation compacted: {0} items (answers, tool calls and their outputs) folded into a summary, your messages kept ({1} → {2} tokens). The next prompt goes on from it.',
      event.items,
      before,
      after,
    );
  return event.how === 'request'
    ? t('Context compacted on request ({0} → {1} tokens)', before, after)
    : t('Context compacted ({0} → {1} tokens)', before, after);
}
