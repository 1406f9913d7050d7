import { type Transcript, stopSubagent } from '../../../agent';
import type { ChatApprovals } from '../approvals/chatApprovals';
import type { ChatModel } from '../chatModel';

// A subagent's own Stop, on its nested card (issue 49 item 4): that subagent alone stops — its questions are
// declined first (its task waits on them, and would not stop until they are answered), then its response is
// cancelled and its commands stopped; its parent's wait says it was shut down, and the chat's task goes on.

export interface SubagentStopParts {
  model: ChatModel;
  approvals: ChatApprovals;
  /** The chat's conversation, whose agent started the subagent (none yet: nothing to stop). */
  transcript: Transcript | undefined;
}

/** Stops subagent `id` of the chat (a Stop on its card; one that no longer runs is left as it is). */
export async function stopOneSubagent(parts: SubagentStopParts, id: string): Promise<void> {
  for (const callId of parts.model.subagents.waiting(id)) parts.approvals.answer(callId, false, false);
  if (parts.transcript) await stopSubagent(parts.transcript, id);
}
