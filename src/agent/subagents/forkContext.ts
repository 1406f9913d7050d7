import { type AnyInputItem, CallItem } from '../../protocol';
import type { Transcript } from '../conversation/transcript';

// A subagent spawned with `fork_context` starts from a copy of its parent's conversation (the parent's
// items, the very same objects, Transcript.subagent). The parent is mid-response then: the spawn call, and
// any call beside it, has no output yet, and no server takes a call without one. Each gets an output that
// says where it stands — the spawn's tells the subagent that it is the agent that call started — and the
// subagent's task follows as its own prompt. Being the same objects, the fork's first request names the
// parent's last response on the subagent's own lane (the server's fork onto a new stream, chainPolicy.ts) and
// sends only those outputs and the task.

/** What the subagent reads as the output of the call that started it. */
const SPAWNED_HERE =
  'You are the subagent this call started. The next message is your task; your final answer goes back to the agent that started you.';
/** What it reads as the output of another call of the same response, which runs in the parent. */
const RUNS_IN_PARENT = 'This call runs in the agent that started you; its output is not part of your conversation.';

/** The call ids of `items` that no output answers yet. */
function unanswered(items: readonly AnyInputItem[]): CallItem[] {
  const answered = new Set<string>();
  for (const item of items) {
    const record = item as { type?: unknown; call_id?: unknown };
    if (typeof record.call_id === 'string' && typeof record.type === 'string' && record.type.endsWith('_output'))
      answered.add(record.call_id);
  }
  return items.flatMap((item) => {
    const call = CallItem.safeParse(item);
    return call.success && !answered.has(call.data.call_id) ? [call.data] : [];
  });
}

/** Answers the open calls of `fork` (a subagent's transcript holding its parent's conversation so far). */
export function answerOpenCalls(fork: Transcript, spawnCallId: string): void {
  const outputs = unanswered(fork.items).map((call): AnyInputItem => ({
    type: call.type === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output',
    call_id: call.call_id,
    output: call.call_id === spawnCallId ? SPAWNED_HERE : RUNS_IN_PARENT,
  }));
  if (outputs.length > 0) fork.append(...outputs);
}
